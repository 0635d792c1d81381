import { GiftDialog } from "../../components/GiftDialog";
import { Money } from "../../components/Money";
import { availableBalance, useMe } from "../../lib/me";
import type { FoundUser } from "./api/searchUsers";
import { useSendGift } from "./api/sendGift";

/** Gift to one user from the sender's own balance. */
export function GiftModal({ recipient, onClose }: { recipient: FoundUser | null; onClose: () => void }) {
  const { user } = useMe();
  const gift = useSendGift();
  return (
    <GiftDialog
      open={recipient !== null}
      title={`Send a gift to ${recipient?.name ?? ""}`}
      email={recipient?.email}
      label="Gift amount (USDT)"
      hint={user ? <>Available: <Money value={availableBalance(user)} /></> : undefined}
      pending={gift.isPending}
      // By id: a search result's email is masked (docs/rules.md#gifts).
      send={(amount) => gift.submit({ amount, recipientId: recipient!.id })}
      successDefault="Gift sent successfully!"
      onClose={onClose}
    />
  );
}
