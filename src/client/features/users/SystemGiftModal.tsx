import { MSG } from "../../../shared/messages";
import { GiftDialog } from "../../components/GiftDialog";
import type { UserRow } from "./api/getUsers";
import { useGiftFromSystem } from "./api/giftFromSystem";

/** An admin credits a user from the operator's (system) funds. */
export function SystemGiftModal({ user, onClose }: { user: UserRow | null; onClose: () => void }) {
  const gift = useGiftFromSystem();
  return (
    <GiftDialog
      open={user !== null}
      title={`Gift from system funds to ${user?.name ?? ""}`}
      email={user?.email}
      label="Amount (USDT)"
      pending={gift.isPending}
      send={(amount) => gift.submit({ userId: user!.id, amount })}
      successDefault={MSG.adminGiftSent}
      onClose={onClose}
    />
  );
}
