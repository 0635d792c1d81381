import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db, Tx } from "../db/client";
import { missedEarnings, userLevels, users, type Program } from "../db/schema";
import { type MissedReason, STATEMENT_PAGE_SIZE } from "../shared/constants";
import type { Cents } from "../shared/money";
import { pageCount } from "./util";
import { type NewNotification, texts } from "./notifications";

/**
 * Missed earnings (docs/rules.md#missed-earnings): records, not transfers. They move no money and
 * tell a member what passed them by. Written in the purchase's or the unfreeze's own transaction.
 */

export interface MissedRecord {
  userId: string;
  reason: MissedReason;
}

/**
 * Records what passed `missed` by when `buyerId` moved `amount` at (program, level). Nothing when
 * the amount is 0 (nothing passed anyone by; the table holds amounts above 0 only).
 *
 * Lock order (docs/rules.md#lock-order): the foreign keys take KEY SHARE locks on the users rows
 * named. Only a deletion conflicts with those (it takes its users row FOR UPDATE, before anything
 * else, and never waits for a purchase's rows); a chain takeover updates users.chain_id, not a
 * key column, which takes FOR NO KEY UPDATE and does not conflict with KEY SHARE.
 */
export async function recordMissed(
  tx: Tx,
  buyerId: string,
  program: Program,
  level: number,
  amount: Cents,
  missed: MissedRecord[],
): Promise<(MissedRecord & { id: bigint })[]> {
  if (amount <= 0n || missed.length === 0) return [];
  const rows = await tx
    .insert(missedEarnings)
    .values(missed.map((m) => ({ userId: m.userId, buyerId, program, level, amount, reason: m.reason })))
    .returning({ id: missedEarnings.id, userId: missedEarnings.userId, reason: missedEarnings.reason });
  return rows;
}

/** Each member a payment passed by is told, once per missed earning (its id is the event key). */
export function missedNotifications(
  recorded: (MissedRecord & { id: bigint })[],
  buyer: string,
  action: "purchase" | "unfreeze",
  program: Program,
  level: number,
  amount: Cents,
): NewNotification[] {
  return recorded.map((m) => ({
    userId: m.userId,
    kind: "missed",
    eventKey: `missed:${m.id}`,
    text: texts.missed(buyer, action, program, level, amount, m.reason),
    data: { program, level, reason: m.reason },
  }));
}

/**
 * The buyer's direct referrer when they are not deleted and have not bought (program, level):
 * they get a `not_active` record of the purchase. Read without locks: a record, not money.
 */
export async function referrerWithoutLevel(tx: Tx | Db, buyerId: string, program: Program, level: number): Promise<string | null> {
  const buyer = alias(users, "buyer");
  const [row] = await tx
    .select({ id: users.id })
    .from(buyer)
    .innerJoin(users, eq(users.id, buyer.referrerId))
    .leftJoin(userLevels, and(eq(userLevels.userId, users.id), eq(userLevels.program, program), eq(userLevels.level, level)))
    .where(and(eq(buyer.id, buyerId), isNull(users.deletedAt), isNull(userLevels.userId)));
  return row?.id ?? null;
}

/** What passed the member by at (program, level), over the level's whole life, in cents. */
export async function missedAt(db: Db | Tx, userId: string, program: Program, level: number): Promise<Cents> {
  const [row] = await db
    .select({ cents: sql<string>`coalesce(sum(${missedEarnings.amount}), 0)::text` })
    .from(missedEarnings)
    .where(and(eq(missedEarnings.userId, userId), eq(missedEarnings.program, program), eq(missedEarnings.level, level)));
  return BigInt(row?.cents ?? "0");
}

/** GET /api/user/missed: a page of the member's missed earnings, newest first. */
export async function missedOf(db: Db, userId: string, page: number) {
  const [total] = await db.select({ n: count() }).from(missedEarnings).where(eq(missedEarnings.userId, userId));
  const items = await db
    .select({
      createdAt: missedEarnings.createdAt,
      program: missedEarnings.program,
      level: missedEarnings.level,
      buyer: { name: users.name },
      amount: missedEarnings.amount,
      reason: missedEarnings.reason,
    })
    .from(missedEarnings)
    .innerJoin(users, eq(users.id, missedEarnings.buyerId))
    .where(eq(missedEarnings.userId, userId))
    .orderBy(desc(missedEarnings.id))
    .limit(STATEMENT_PAGE_SIZE)
    .offset((page - 1) * STATEMENT_PAGE_SIZE);
  const n = total?.n ?? 0;
  return { items, page, totalPages: pageCount(n, STATEMENT_PAGE_SIZE), total: n };
}
