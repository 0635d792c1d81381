import { and, count, desc, eq, ilike, isNull, or, sql } from "drizzle-orm";
import { emailVerified } from "./accountTokens";
import { queueMail } from "./mail/outbox";
import type { Db, Tx } from "../db/client";
import { deposits, users, withdrawals, type RequestStatus } from "../db/schema";
import { ADMIN_GIFT_MAX_DEFAULT, MAX_AMOUNT, MAX_PENDING_DEPOSITS, MAX_PENDING_WITHDRAWALS, type Decision, type WithdrawalMethod } from "../shared/constants";
import { networkOfMethod } from "../shared/chain";
import { withdrawalFee, type Cents } from "../shared/money";
import { MSG } from "../shared/messages";
import { amountTooLarge } from "../shared/schemas";
import { refuse, refuseField } from "./errors";
import { isUniqueViolation } from "./tx";
import { EXTERNAL, hold, lockAccounts, SYSTEM, transfer } from "./ledger";
import { likeContains, newId, normalizeEmail } from "./util";
import { lockActiveUser, lockCaller } from "./users";
import { nameOf, notify, notifyAdminsOfRequest, signalPending, texts } from "./notifications";
import { readAddress } from "./chain/addresses";
import { adoptTypedTxHash, depositChainColumns, depositRow, type DepositInput, liveDepositClash, LIVE_TX_INDEX, lockTxHash, payoutTransactionIdColumn } from "./chain/requests";

export type { Decision } from "../shared/constants";

/**
 * How many requests of `requests` the user has pending. Called with the user's account row
 * locked, which every new request of the user takes first: under that lock the count cannot
 * change except by this transaction, so two requests racing at the limit cannot both pass it
 * (docs/rules.md#limits). A decision may lower it meanwhile; that only ever errs on the safe side.
 * Transfers the address watcher recorded for an admin are not the member's requests: not counted.
 */
async function pendingOf(tx: Tx, requests: typeof deposits | typeof withdrawals, userId: string): Promise<number> {
  const table = requests as typeof deposits;
  const [row] = await tx
    .select({ n: count() })
    .from(table)
    .where(and(eq(table.userId, userId), eq(table.status, "pending"), requests === deposits ? isNull(deposits.logIndex) : undefined));
  return Number(row?.n ?? 0);
}

/**
 * A pending deposit request. Refused beyond MAX_PENDING_DEPOSITS pending at once: the member's
 * account row is locked first (nothing moves yet, the lock only queues the member's own requests),
 * then the pending ones are counted.
 */
export async function requestDeposit(
  tx: Tx,
  userId: string,
  input: DepositInput,
  options: { checkOnChain?: boolean } = {},
): Promise<{ id: string }> {
  // The transaction ID in canonical form, the address checked (src/core/chain/requests.ts).
  const row = depositRow(input, options.checkOnChain ?? false);
  // The member's row first (a deletion in progress is waited for, then refused), the transaction
  // ID's lock (a payout cannot take the ID meanwhile), then the account.
  await lockCaller(tx, userId);
  await lockTxHash(tx, row.txHash);
  await lockAccounts(tx, [userId]);
  if ((await pendingOf(tx, deposits, userId)) >= MAX_PENDING_DEPOSITS) return refuse("too_many_pending_deposits");
  if (await liveDepositClash(tx, row)) return refuse("duplicate_transaction");
  const id = newId();
  try {
    // A savepoint, so that losing a race on the unique index leaves the transaction usable.
    await tx.transaction((sp) => sp.insert(deposits).values({ id, userId, ...row }));
  } catch (error) {
    if (isUniqueViolation(error, LIVE_TX_INDEX)) return refuse("duplicate_transaction");
    throw error;
  }
  await notifyAdminsOfRequest(tx, "deposit", id, userId, input.amount);
  return { id };
}

export async function requestWithdrawal(
  tx: Tx,
  userId: string,
  input: { accountType: WithdrawalMethod; accountNumber: string; amount: Cents },
  /** VERIFIED_EMAIL_TO_WITHDRAW: only a member who confirmed their address may ask. */
  rules: { verifiedEmail?: boolean } = {},
): Promise<{ id: string }> {
  // The wallet address checked in full, checksum included, against the chosen network's.
  const address = readAddress(networkOfMethod(input.accountType), input.accountNumber);
  // Only the server checks the checksum: the form learns which field it is about.
  if ("problem" in address) return refuseField("accountNumber", "validation", address.problem);
  await lockCaller(tx, userId);
  // Read under the caller's shared row: an address once confirmed stays so (a new one is confirmed by its link).
  if (rules.verifiedEmail && !(await emailVerified(tx, userId))) return refuse("email_not_verified");
  // The hold's conditional update locks the account row: the pending count below is taken under it.
  await hold(tx, userId, input.amount, "exceeds_available");
  // A request's own limit, told only once the balance covers the amount (withdrawSchema).
  if (input.amount > MAX_AMOUNT) return refuseField("amount", "validation", amountTooLarge());
  if ((await pendingOf(tx, withdrawals, userId)) >= MAX_PENDING_WITHDRAWALS) return refuse("too_many_pending_withdrawals");
  const id = newId();
  await tx.insert(withdrawals).values({ id, userId, ...input, accountNumber: address.display });
  await notifyAdminsOfRequest(tx, "withdrawal", id, userId, input.amount);
  // A security mail (docs/rules.md#account-recovery-and-mail): money leaving is never a surprise.
  await queueMail(tx, {
    causeKey: `withdrawal:${id}:requested`,
    userId,
    template: "withdrawal_requested",
    data: { amount: input.amount.toString(), accountType: input.accountType, accountNumber: address.display },
  });
  return { id };
}

/**
 * Moves a pending request to `status`, with the admin's reason (null: none); a request leaves
 * pending exactly once.
 */
async function claimPending(tx: Tx, requests: typeof deposits | typeof withdrawals, id: string, status: Decision, adminId: string, reason: string | null) {
  // Both tables share the columns used here.
  const table = requests as typeof deposits;
  const [claimed] = await tx
    .update(table)
    .set({ status, decidedAt: new Date(), decidedBy: adminId, reason })
    .where(and(eq(table.id, id), eq(table.status, "pending")))
    .returning({ userId: table.userId, amount: table.amount });
  if (claimed) {
    await signalPending(tx);
    return claimed;
  }
  const [exists] = await tx.select({ id: table.id }).from(table).where(eq(table.id, id));
  return refuse(exists ? "already_processed" : "request_not_found");
}

export async function decideDeposit(tx: Tx, id: string, status: Decision, adminId: string, reason: string | null = null) {
  const request = await claimPending(tx, deposits, id, status, adminId, reason);
  if (status === "accepted") {
    await adoptTypedTxHash(tx, id);
    await transfer(tx, { from: EXTERNAL, to: request.userId, amount: request.amount, kind: "deposit", requestId: id });
  }
  await notify(tx, {
    userId: request.userId,
    kind: "deposit_decided",
    eventKey: `deposit:${id}`,
    text: status === "accepted" ? texts.depositAccepted(request.amount) : texts.depositDeclined(request.amount, reason),
    data: { requestId: id, status },
  });
  return request;
}

export async function decideWithdrawal(
  tx: Tx,
  id: string,
  status: Decision,
  adminId: string,
  reason: string | null = null,
  /** Done once the request is claimed, before its accounts are locked (the payout's ID: its lock comes before them). */
  claimed?: () => Promise<void>,
): Promise<{ userId: string; amount: Cents; fee: Cents | null }> {
  const request = await claimPending(tx, withdrawals, id, status, adminId, reason);
  await claimed?.();
  await lockAccounts(tx, [request.userId, SYSTEM, EXTERNAL]);
  await hold(tx, request.userId, -request.amount, "already_processed");
  const decided = async (text: string) => {
    await notify(tx, { userId: request.userId, kind: "withdrawal_decided", eventKey: `withdrawal:${id}`, text, data: { requestId: id, status } });
    await queueMail(tx, { causeKey: `withdrawal:${id}:decided`, userId: request.userId, template: "withdrawal_decided", data: { status, text } });
  };
  if (status === "declined") {
    await decided(texts.withdrawalDeclined(request.amount, reason));
    return { ...request, fee: null };
  }
  const fee = withdrawalFee(request.amount);
  await tx.update(withdrawals).set({ fee }).where(eq(withdrawals.id, id));
  if (fee > 0n) await transfer(tx, { from: request.userId, to: SYSTEM, amount: fee, kind: "fee", requestId: id });
  await transfer(tx, { from: request.userId, to: EXTERNAL, amount: request.amount - fee, kind: "withdrawal", requestId: id });
  await decided(texts.withdrawalAccepted(request.amount, fee));
  return { ...request, fee };
}

/** decided_by of a withdrawal its member cancelled while it was pending. */
export const MEMBER_CANCELLED = "member";

/**
 * The member takes back a pending withdrawal: it leaves pending as declined, decided by the
 * member (MEMBER_CANCELLED) with the reason saying so, and its hold is released, so the amount is
 * available again at once. Nothing moves in the ledger. The conditional update settles a cancel
 * racing an admin's decision: one of them claims the row, the other is refused (409
 * `already_processed`). Another member's withdrawal is unknown (404).
 */
export async function cancelWithdrawal(tx: Tx, userId: string, id: string): Promise<{ amount: Cents }> {
  await lockCaller(tx, userId);
  const [claimed] = await tx
    .update(withdrawals)
    .set({ status: "declined", decidedAt: new Date(), decidedBy: MEMBER_CANCELLED, reason: MSG.withdrawalCancelledReason })
    .where(and(eq(withdrawals.id, id), eq(withdrawals.userId, userId), eq(withdrawals.status, "pending")))
    .returning({ amount: withdrawals.amount });
  if (!claimed) {
    const [mine] = await tx.select({ id: withdrawals.id }).from(withdrawals).where(and(eq(withdrawals.id, id), eq(withdrawals.userId, userId)));
    return refuse(mine ? "already_processed" : "request_not_found");
  }
  await signalPending(tx);
  await lockAccounts(tx, [userId]);
  await hold(tx, userId, -claimed.amount, "already_processed");
  return claimed;
}

export async function sendGift(tx: Tx, senderId: string, input: { recipientEmail?: string; recipientId?: string; amount: Cents }): Promise<void> {
  await lockCaller(tx, senderId);
  // By id (a search result's, whose email is masked) or by email (the earlier client); the schema asks for one.
  const byId = input.recipientId !== undefined;
  const recipient = await lockActiveUser(
    tx,
    byId ? eq(users.id, input.recipientId!) : eq(sql`lower(${users.email})`, normalizeEmail(input.recipientEmail ?? "")),
  );
  const field = byId ? "recipientId" : "recipientEmail";
  if (!recipient) return refuseField(field, "recipient_not_found");
  if (recipient.id === senderId) return refuseField(field, "gift_to_self");
  const transferId = await transfer(tx, { from: senderId, to: recipient.id, amount: input.amount, kind: "gift" });
  await notify(tx, {
    userId: recipient.id,
    kind: "gift_received",
    eventKey: `gift:${transferId}`,
    text: texts.giftFrom(await nameOf(tx, senderId), input.amount),
    data: { amount: input.amount.toString() },
  });
}

/**
 * A gift from system funds: to a member (never an admin account), at most `max` (the server
 * passes ADMIN_GIFT_MAX; its default otherwise).
 */
export async function adminGift(tx: Tx, recipientId: string, amount: Cents, max: Cents = ADMIN_GIFT_MAX_DEFAULT): Promise<void> {
  if (amount > max) return refuse("admin_gift_too_large", MSG.adminGiftTooLarge(max));
  const recipient = await lockActiveUser(tx, eq(users.id, recipientId));
  if (!recipient) return refuse("user_not_found");
  if (recipient.role === "admin") return refuse("gift_to_admin");
  const transferId = await transfer(tx, { from: SYSTEM, to: recipientId, amount, kind: "admin_gift" });
  await notify(tx, {
    userId: recipientId,
    kind: "gift_received",
    eventKey: `gift:${transferId}`,
    text: texts.giftFromPlatform(amount),
    data: { amount: amount.toString(), fromPlatform: true },
  });
}

export interface HistoryQuery {
  status?: RequestStatus;
  search?: string;
  /** 1-based page of `limit` requests. */
  page: number;
  limit: number;
}

/**
 * Deposit requests newest first, optionally filtered by status and by text in the user's email
 * or name or the request, a page of `limit` at a time, with the number that match in all (the
 * admin pages through them: nothing is cut off, the oldest pending ones included).
 */
export async function listDeposits(db: Db, q: HistoryQuery) {
  const pattern = q.search ? likeContains(q.search) : undefined;
  const where = and(
    q.status ? eq(deposits.status, q.status) : undefined,
    pattern
      ? or(ilike(users.email, pattern), ilike(users.name, pattern), ilike(deposits.transactionId, pattern), ilike(deposits.address, pattern))
      : undefined,
  );
  const [total] = await db.select({ n: count() }).from(deposits).innerJoin(users, eq(users.id, deposits.userId)).where(where);
  const rows = await db
    .select({
      id: deposits.id,
      userEmail: users.email,
      userName: users.name,
      amount: deposits.amount,
      address: deposits.address,
      transactionId: deposits.transactionId,
      status: deposits.status,
      createdAt: deposits.createdAt,
      decidedAt: deposits.decidedAt,
      reason: deposits.reason,
      ...depositChainColumns,
    })
    .from(deposits)
    .innerJoin(users, eq(users.id, deposits.userId))
    .where(where)
    .orderBy(desc(deposits.createdAt), desc(deposits.id))
    .limit(q.limit)
    .offset((q.page - 1) * q.limit);
  return { rows, total: Number(total?.n ?? 0) };
}

export async function listWithdrawals(db: Db, q: HistoryQuery) {
  const pattern = q.search ? likeContains(q.search) : undefined;
  const where = and(
    q.status ? eq(withdrawals.status, q.status) : undefined,
    pattern ? or(ilike(users.email, pattern), ilike(users.name, pattern), ilike(withdrawals.accountNumber, pattern)) : undefined,
  );
  const [total] = await db.select({ n: count() }).from(withdrawals).innerJoin(users, eq(users.id, withdrawals.userId)).where(where);
  const rows = await db
    .select({
      id: withdrawals.id,
      userEmail: users.email,
      userName: users.name,
      amount: withdrawals.amount,
      fee: withdrawals.fee,
      accountType: withdrawals.accountType,
      accountNumber: withdrawals.accountNumber,
      status: withdrawals.status,
      createdAt: withdrawals.createdAt,
      decidedAt: withdrawals.decidedAt,
      reason: withdrawals.reason,
      payoutTransactionId: payoutTransactionIdColumn,
      cancelled: sql<boolean>`(${withdrawals.decidedBy} IS NOT DISTINCT FROM ${MEMBER_CANCELLED})`,
    })
    .from(withdrawals)
    .innerJoin(users, eq(users.id, withdrawals.userId))
    .where(where)
    .orderBy(desc(withdrawals.createdAt), desc(withdrawals.id))
    .limit(q.limit)
    .offset((q.page - 1) * q.limit);
  return { rows, total: Number(total?.n ?? 0) };
}
