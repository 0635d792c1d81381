import type { Tx } from "../db/client";
import type { Program } from "../db/schema";
import { formatDollars, type Cents } from "../shared/money";
import { recordAudit } from "./audit";
import { getLevel, updateLevel } from "./levels";
import { deleteUser } from "./users";
import { adminGift, decideDeposit, decideWithdrawal, type Decision } from "./wallet";
import { recordPayout } from "./chain/requests";
import { refuse } from "./errors";
import { signalStreamsClosed } from "./notifications";
import { MSG } from "../shared/messages";

/**
 * Every admin action, each recorded in the audit trail in the same transaction as the action
 * itself: the record exists exactly when the action happened. Amounts in the trail are dollars
 * as text ("12.50"), so the record reads the same whatever reads it.
 */

/**
 * An admin decides a deposit or withdrawal request. `reason` is the admin's words to the member
 * (trimmed by the schema); blank or absent means none. It is kept on the request, which the
 * member reads in their requests, and in the audit record's `after`.
 */
export async function decideRequest(
  tx: Tx,
  adminId: string,
  kind: "deposit" | "withdrawal",
  id: string,
  status: Decision,
  reason?: string | null,
  /** Accepting a withdrawal: the payout's transaction ID (src/core/chain/requests.ts); blank or absent means none. */
  payoutTransactionId?: string | null,
) {
  const words = reason?.trim() || null;
  const payout = payoutTransactionId?.trim() || null;
  if (payout !== null && (kind !== "withdrawal" || status !== "accepted")) refuse("validation", MSG.payoutOnAcceptOnly);
  let payoutId: string | null = null;
  const decided =
    kind === "deposit"
      ? { ...(await decideDeposit(tx, id, status, adminId, words)), fee: null }
      : await decideWithdrawal(tx, id, status, adminId, words, payout === null ? undefined : async () => void (payoutId = await recordPayout(tx, id, payout)));
  await recordAudit(tx, {
    adminId,
    action: kind === "deposit" ? "deposit_decision" : "withdrawal_decision",
    targetType: kind,
    targetId: id,
    before: { status: "pending", userId: decided.userId, amount: formatDollars(decided.amount) },
    after: {
      status,
      ...(decided.fee === null ? {} : { fee: formatDollars(decided.fee) }),
      ...(words === null ? {} : { reason: words }),
      ...(payoutId === null ? {} : { payoutTransactionId: payoutId }),
    },
  });
}

export async function setLevelPrices(tx: Tx, adminId: string, program: Program, level: number, prices: { cost: Cents; unfreezeCost: Cents }) {
  const before = await getLevel(tx, program, level, { lock: true });
  const after = await updateLevel(tx, program, level, prices);
  await recordAudit(tx, {
    adminId,
    action: "level_price",
    targetType: "level",
    targetId: `${program}/${level}`,
    before: { cost: formatDollars(before.cost), unfreezeCost: formatDollars(before.unfreezeCost) },
    after: { cost: formatDollars(after.cost), unfreezeCost: formatDollars(after.unfreezeCost) },
  });
  return after;
}

export async function removeUser(tx: Tx, adminId: string, userId: string) {
  const removed = await deleteUser(tx, userId);
  // Their open streams end at commit, in every process.
  await signalStreamsClosed(tx, userId);
  await recordAudit(tx, {
    adminId,
    action: "user_delete",
    targetType: "user",
    targetId: userId,
    before: { name: removed.name, email: removed.email, deleted: false },
    after: { deleted: true, deletedAt: removed.deletedAt.toISOString() },
  });
}

/** A gift from system funds to a member (never an admin), at most `max` (ADMIN_GIFT_MAX). */
export async function giftFromSystem(tx: Tx, adminId: string, userId: string, amount: Cents, max: Cents) {
  await adminGift(tx, userId, amount, max);
  await recordAudit(tx, { adminId, action: "admin_gift", targetType: "user", targetId: userId, before: null, after: { amount: formatDollars(amount) } });
}
