import { and, desc, eq, ilike, isNull, or, sql, type SQL } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { deposits, users, withdrawals, type RequestStatus } from "../db/schema";
import type { Decision } from "../shared/constants";
import type { WithdrawalMethod } from "../shared/constants";
import { withdrawalFee, type Cents } from "../shared/money";
import { refuse } from "./errors";
import { isUniqueViolation } from "./tx";
import { EXTERNAL, hold, lockAccounts, SYSTEM, transfer } from "./ledger";
import { likeContains, newId, normalizeEmail } from "./util";

export type { Decision } from "../shared/constants";

export async function requestDeposit(
  tx: Tx,
  userId: string,
  input: { address: string; transactionId: string; amount: Cents },
): Promise<{ id: string }> {
  const [clash] = await tx
    .select({ id: deposits.id })
    .from(deposits)
    .where(and(eq(sql`lower(${deposits.transactionId})`, input.transactionId.toLowerCase()), sql`${deposits.status} <> 'declined'`));
  if (clash) return refuse("duplicate_transaction");
  const id = newId();
  try {
    // A savepoint, so that losing a race on the unique index leaves the transaction usable.
    await tx.transaction((sp) => sp.insert(deposits).values({ id, userId, ...input }));
  } catch (error) {
    if (isUniqueViolation(error, "deposits_live_txid_uq")) return refuse("duplicate_transaction");
    throw error;
  }
  return { id };
}

export async function requestWithdrawal(
  tx: Tx,
  userId: string,
  input: { accountType: WithdrawalMethod; accountNumber: string; amount: Cents },
): Promise<{ id: string }> {
  await lockSender(tx, userId);
  await hold(tx, userId, input.amount, "exceeds_available");
  const id = newId();
  await tx.insert(withdrawals).values({ id, userId, ...input });
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
  if (claimed) return claimed;
  const [exists] = await tx.select({ id: table.id }).from(table).where(eq(table.id, id));
  return refuse(exists ? "already_processed" : "request_not_found");
}

export async function decideDeposit(tx: Tx, id: string, status: Decision, adminId: string, reason: string | null = null) {
  const request = await claimPending(tx, deposits, id, status, adminId, reason);
  if (status === "accepted") {
    await transfer(tx, { from: EXTERNAL, to: request.userId, amount: request.amount, kind: "deposit", requestId: id });
  }
  return request;
}

export async function decideWithdrawal(
  tx: Tx,
  id: string,
  status: Decision,
  adminId: string,
  reason: string | null = null,
): Promise<{ userId: string; amount: Cents; fee: Cents | null }> {
  const request = await claimPending(tx, withdrawals, id, status, adminId, reason);
  await lockAccounts(tx, [request.userId, SYSTEM, EXTERNAL]);
  await hold(tx, request.userId, -request.amount, "already_processed");
  if (status === "declined") return { ...request, fee: null };
  const fee = withdrawalFee(request.amount);
  await tx.update(withdrawals).set({ fee }).where(eq(withdrawals.id, id));
  if (fee > 0n) await transfer(tx, { from: request.userId, to: SYSTEM, amount: fee, kind: "fee", requestId: id });
  await transfer(tx, { from: request.userId, to: EXTERNAL, amount: request.amount - fee, kind: "withdrawal", requestId: id });
  return { ...request, fee };
}

async function lockActiveUser(tx: Tx, where: SQL | undefined) {
  const [row] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(where, isNull(users.deletedAt)))
    .for("share");
  return row;
}

/**
 * The token was checked before this transaction began; a deletion may have committed since, or
 * be about to. Locking the sender's row waits for it and then refuses, like the token check would.
 */
async function lockSender(tx: Tx, userId: string): Promise<void> {
  if (!(await lockActiveUser(tx, eq(users.id, userId)))) refuse("bad_token");
}

export async function sendGift(tx: Tx, senderId: string, input: { recipientEmail: string; amount: Cents }): Promise<void> {
  await lockSender(tx, senderId);
  const recipient = await lockActiveUser(tx, eq(sql`lower(${users.email})`, normalizeEmail(input.recipientEmail)));
  if (!recipient) return refuse("recipient_not_found");
  if (recipient.id === senderId) return refuse("gift_to_self");
  await transfer(tx, { from: senderId, to: recipient.id, amount: input.amount, kind: "gift" });
}

export async function adminGift(tx: Tx, recipientId: string, amount: Cents): Promise<void> {
  const recipient = await lockActiveUser(tx, eq(users.id, recipientId));
  if (!recipient) return refuse("user_not_found");
  await transfer(tx, { from: SYSTEM, to: recipientId, amount, kind: "admin_gift" });
}

export interface HistoryQuery {
  status?: RequestStatus;
  search?: string;
}

/**
 * Requests newest first, optionally filtered by status and by text in the user's email or the
 * request. All of them: a cut-off would hide the oldest pending requests, the ones waiting longest.
 */
export async function listDeposits(db: Db, q: HistoryQuery) {
  const pattern = q.search ? likeContains(q.search) : undefined;
  return db
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
    })
    .from(deposits)
    .innerJoin(users, eq(users.id, deposits.userId))
    .where(
      and(
        q.status ? eq(deposits.status, q.status) : undefined,
        pattern
          ? or(ilike(users.email, pattern), ilike(users.name, pattern), ilike(deposits.transactionId, pattern), ilike(deposits.address, pattern))
          : undefined,
      ),
    )
    .orderBy(desc(deposits.createdAt), desc(deposits.id));
}

export async function listWithdrawals(db: Db, q: HistoryQuery) {
  const pattern = q.search ? likeContains(q.search) : undefined;
  return db
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
    })
    .from(withdrawals)
    .innerJoin(users, eq(users.id, withdrawals.userId))
    .where(
      and(
        q.status ? eq(withdrawals.status, q.status) : undefined,
        pattern ? or(ilike(users.email, pattern), ilike(users.name, pattern), ilike(withdrawals.accountNumber, pattern)) : undefined,
      ),
    )
    .orderBy(desc(withdrawals.createdAt), desc(withdrawals.id));
}
