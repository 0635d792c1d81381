import { MSG } from "../../../shared/messages";
import type { Cents } from "../../../shared/money";
import { GiftDialog } from "../../components/GiftDialog";
import { formatMoney } from "../../components/Money";
import { confirmAction } from "../../lib/confirm";
import type { UserRow } from "./api/getUsers";
import { useGiftFromSystem } from "./api/giftFromSystem";

/** Asks before a gift from system funds leaves, naming the member and the amount. */
export const confirmSystemGift = (user: Pick<UserRow, "name" | "email">, amount: Cents) =>
  confirmAction({
    title: "Send this gift?",
    text: `${formatMoney(amount)} from system funds will be credited to ${user.name} (${user.email}).`,
    confirmText: "Yes, send it",
  });

interface SystemGiftModalProps {
  user: UserRow | null;
  /** ADMIN_GIFT_MAX as the users list tells it (an earlier server does not): above it, said at the field before any confirmation. */
  max?: Cents;
  onClose: () => void;
}

/** An admin credits a user from the operator's (system) funds, once confirmed. */
export function SystemGiftModal({ user, max, onClose }: SystemGiftModalProps) {
  const gift = useGiftFromSystem();
  return (
    <GiftDialog
      open={user !== null}
      title={`Gift from system funds to ${user?.name ?? ""}`}
      email={user?.email}
      label="Amount (USDT)"
      pending={gift.isPending}
      limit={(amount) => (max !== undefined && amount > max ? MSG.adminGiftTooLarge(max) : null)}
      confirm={(amount) => confirmSystemGift(user!, amount)}
      send={(amount) => gift.submit({ userId: user!.id, amount })}
      successDefault={MSG.adminGiftSent}
      onClose={onClose}
    />
  );
}
