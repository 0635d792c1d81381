import { and, count, desc, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { missedEarnings, users, type Program } from "../db/schema";
import { type MissedReason, STATEMENT_PAGE_SIZE } from "../shared/constants";
import type { Cents } from "../shared/money";
import { pageCount } from "./util";
import { type NewNotification, texts } from "./notifications";
import { statementOnce } from "./prepared";

/**
 * Missed earnings (docs/rules.md#missed-earnings): records, not transfers. They move no money and
 * tell a member what passed them by. Written in the purchase's or the unfreeze's own transaction.
 */

export interface MissedRecord {
  userId: string;
  reason: MissedReason;
}

/**
 * Records what passed members by when `buyerId` moved `amount` at (program, level): a `frozen`
 * record for each of `frozen` (the frozen users the walks went past, in walk order), then, with
 * `referrer`, a `not_active` record for them: the buyer's direct referrer, not deleted, without
 * the level, as the purchase's activation read them (without locks: a record, not money). One
 * statement, none when there is nothing to record; answers the records in the order written (ids
 * growing). Nothing when the amount is 0 (nothing passed anyone by; the table holds amounts above
 * 0 only).
 *
 * Lock order (docs/rules.md#lock-order): the statement takes KEY SHARE locks on the users rows
 * named (as their foreign keys would). Only a deletion conflicts with those (it takes its users
 * row FOR UPDATE, before anything else, and never waits for a purchase's rows); a chain takeover
 * updates users.chain_id, not a key column, which takes FOR NO KEY UPDATE and does not conflict
 * with KEY SHARE. The lock is taken in the read that picks each user (by primary key, in the
 * records' order), so a deletion in progress is waited for and then seen: a member deleted
 * meanwhile gets no record, and no notification.
 */
export async function recordMissed(
  tx: Tx,
  buyerId: string,
  program: Program,
  level: number,
  amount: Cents,
  frozen: string[],
  options: { referrer?: string } = {},
): Promise<(MissedRecord & { id: bigint })[]> {
  const referrer = options.referrer ?? null;
  if (amount <= 0n || (frozen.length === 0 && referrer === null)) return [];
  const rows = await recordStatement(tx, { buyerId, program, level, amount, frozen: JSON.stringify(frozen), referrer });
  return rows.map((r) => ({ id: BigInt(r.id), userId: r.user_id, reason: r.reason }));
}

const recordStatement = (() => {
  const p = (name: string) => sql.placeholder(name);
  return statementOnce<{ id: string; user_id: string; reason: MissedReason }>(
    "missed_record",
    sql`INSERT INTO missed_earnings (user_id, buyer_id, program, level, amount, reason)
      SELECT m.user_id, ${p("buyerId")}::text, ${p("program")}::text, ${p("level")}::smallint, ${p("amount")}::bigint, m.reason
      FROM (
        SELECT f.user_id, 'frozen' AS reason, 0 AS part, f.ord
        FROM jsonb_array_elements_text(${p("frozen")}::jsonb) WITH ORDINALITY f(user_id, ord)
        UNION ALL
        SELECT ${p("referrer")}::text, 'not_active', 1, 0
        WHERE ${p("referrer")}::text IS NOT NULL
      ) m
      -- Each user by primary key, locked as it is read, in the list's order: joined to the list as
      -- a whole, the generic plan scanned every member (the list's length is not known when it is
      -- made), a cost that grew with the members.
      CROSS JOIN LATERAL (SELECT id FROM users WHERE id = m.user_id AND deleted_at IS NULL FOR KEY SHARE) u
      ORDER BY m.part, m.ord
      RETURNING id::text, user_id, reason`,
  );
})();

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

/** What passed the member by at (program, level), over the level's whole life, in cents. */
export async function missedAt(db: Db | Tx, userId: string, program: Program, level: number): Promise<Cents> {
  const [row] = await db
    .select({ cents: sql<string>`coalesce(sum(${missedEarnings.amount}), 0)::text` })
    .from(missedEarnings)
    .where(and(eq(missedEarnings.userId, userId), eq(missedEarnings.program, program), eq(missedEarnings.level, level)));
  return BigInt(row?.cents ?? "0");
}

/** Which missed earnings to list: of one program, or of one level (of one program, or of both). */
export interface MissedFilter {
  program?: Program;
  level?: number;
}

/**
 * GET /api/user/missed: a page of the member's missed earnings (`limit` of them), newest first,
 * optionally of one program or level (the page a level links to); the page and the total in one
 * snapshot.
 */
export function missedOf(db: Db, userId: string, page: number, filter: MissedFilter = {}, limit = STATEMENT_PAGE_SIZE) {
  return db.transaction((tx) => missedPage(tx, userId, page, filter, limit), { isolationLevel: "repeatable read", accessMode: "read only" });
}

async function missedPage(tx: Tx, userId: string, page: number, { program, level }: MissedFilter, limit: number) {
  // Read through missed_earnings_user_idx (user, id): a member's records, the filter applied to them.
  const mine = and(
    eq(missedEarnings.userId, userId),
    program === undefined ? undefined : eq(missedEarnings.program, program),
    level === undefined ? undefined : eq(missedEarnings.level, level),
  );
  const [total] = await tx.select({ n: count() }).from(missedEarnings).where(mine);
  const items = await tx
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
    .where(mine)
    .orderBy(desc(missedEarnings.id))
    .limit(limit)
    .offset((page - 1) * limit);
  const n = total?.n ?? 0;
  return { items, page, totalPages: pageCount(n, limit), total: n };
}
