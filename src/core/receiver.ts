import { eq, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { users, type Program } from "../db/schema";
import type { OwnedLevelStatus } from "../shared/constants";
import { statementOnce } from "./prepared";

/** A matrix owner as the placement loop needs it: their level's completed cycles and slots. */
export interface LockedLevel {
  userId: string;
  cycles: number;
  slots: string[];
}

/**
 * One receiver walk: the first eligible user above the start (null: `system`), and the users
 * the walk went past whose level was frozen (not deleted), in walk order, lowest first: the
 * `frozen` missed earnings of docs/rules.md#missed-earnings.
 */
export interface Walk<Found> {
  receiver: Found | null;
  passed: string[];
}

/**
 * The first user above `startId` (its referrer, then theirs...) who is eligible at
 * (program, level): not deleted, level active; and the frozen users it walked past.
 *
 * One recursive query that goes up chain by chain (chains.ts): in each chain, the deepest
 * active user at or above the walk's entry depth is one probe of user_levels_receiver_idx, then
 * the walk leaves the chain through its first user's referrer. It stops at the first chain with
 * an eligible user, so the cost follows the number of chains crossed, not the number of
 * ancestors. Each chain visited is a segment of ancestors: from the entry depth up to (not
 * including) the receiver, or to the chain's top; the frozen users walked past are those of
 * user_levels_frozen_idx (program, level, chain_id, depth) in these segments, one range scan per
 * segment, so finding them costs the chains crossed plus the users found, never the depth.
 *
 * One statement, so one consistent snapshot, and no locks: callers that pay the receiver lock
 * its row and re-check (lockReceiver).
 */
export async function walkUp(tx: Tx | Db, startId: string, program: Program, level: number): Promise<Walk<LockedLevel>> {
  const [row] = await walkStatement(tx, { start: startId, program, level });
  const passed = row?.passed ?? [];
  if (!row?.found) return { receiver: null, passed };
  return { receiver: { userId: row.found, cycles: Number(row.cycles), slots: row.slots ?? [] }, passed };
}

/** The walk's values, as the statements that hold it take them: placeholders, filled at each call. */
export const walkFrom = { start: sql.placeholder("start"), program: sql.placeholder("program"), level: sql.placeholder("level") };

const walkStatement = statementOnce<{ found: string | null; cycles: number | null; slots: string[] | null; passed: string[] | null }>(
  "receiver_walk",
  sql`WITH RECURSIVE ${walkCtes(walkFrom.start, walkFrom.program, walkFrom.level)} SELECT found, cycles, slots, passed FROM walk`,
);

/**
 * The walk of walkUp as common table expressions, the last of them `walk` (one row: `found`,
 * its `cycles` and `slots` as read, and `passed`), for statements that go on with what it found.
 * One of them is recursive: the statement's WITH must be WITH RECURSIVE.
 */
function walkCtes(startId: Placeholder, program: Placeholder, level: Placeholder) {
  // One row per chain visited, after a first row that only names the start: `via` is the user
  // whose referrer the next row enters at (the start, then each chain's first user, whose id is
  // the chain's). `r` is where the walk enters a chain: it and the chain's users above it are
  // ancestors, and `f` the deepest eligible of them. The recursive part alone reads users and
  // levels: Postgres sets up every part of a statement's plan on each run, so writing the first
  // chain's probe a second time, as a part of its own, cost a tenth of the walk
  // (docs/performance.md).
  return sql`
      hop(via, chain_id, depth, found, found_depth, cycles, slots) AS (
        SELECT ${startId}::text, NULL::text, NULL::integer, NULL::text, NULL::integer, NULL::integer, NULL::text[]
        UNION ALL
        SELECT r.chain_id, r.chain_id, r.depth, f.user_id, f.depth, f.cycles, f.slots
        FROM hop h
        JOIN users v ON v.id = h.via
        JOIN users r ON r.id = v.referrer_id
        LEFT JOIN LATERAL (
          SELECT ul.user_id, ul.depth, ul.cycles, ul.slots FROM user_levels ul JOIN users e ON e.id = ul.user_id
          WHERE ul.program = ${program} AND ul.level = ${level} AND ul.status = 'active'
            AND ul.chain_id = r.chain_id AND ul.depth <= r.depth AND e.deleted_at IS NULL
          ORDER BY ul.depth DESC LIMIT 1) f ON true
        WHERE h.found IS NULL
      ),
      walk AS (
        SELECT found.user_id AS found, found.cycles, found.slots,
          ARRAY(
            -- Per chain crossed, each a range of user_levels_frozen_idx: never every frozen row
            -- of the level, which a young table's statistics made the planner choose (OFFSET 0
            -- keeps the subquery from being merged back into one join).
            SELECT fz.user_id FROM hop h
            CROSS JOIN LATERAL (
              SELECT fz.user_id, fz.depth FROM user_levels fz
              JOIN users u ON u.id = fz.user_id AND u.deleted_at IS NULL
              WHERE fz.program = ${program} AND fz.level = ${level} AND fz.status = 'frozen'
                AND fz.chain_id = h.chain_id AND fz.depth <= h.depth AND fz.depth > coalesce(h.found_depth, -1)
              OFFSET 0
            ) fz
            ORDER BY fz.depth DESC
          ) AS passed
        FROM (SELECT 1) one
        LEFT JOIN (SELECT found AS user_id, cycles, slots FROM hop WHERE found IS NOT NULL LIMIT 1) found ON true
      )`;
}

/** A receiver walk overtaken by a commit (lockReceiver): the transaction is tried again, as for a serialization failure. */
export class StaleWalk extends Error {
  readonly code = "40001";
  constructor() {
    super("the receiver walk's snapshot was overtaken by a placement committed meanwhile");
  }
}

/** receiver(startId) as read now (no locks): the user id, or null for `system`. */
export async function firstEligibleAbove(tx: Tx | Db, startId: string, program: Program, level: number): Promise<string | null> {
  return (await walkUp(tx, startId, program, level)).receiver?.userId ?? null;
}

/** Whether the user is not deleted, as read now (no lock). */
async function notDeleted(tx: Tx, userId: string): Promise<boolean> {
  const [row] = await tx.select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, userId));
  return row !== undefined && row.deletedAt === null;
}

/** What one try of lockReceiver reads (lockingWalk's columns). */
export interface LockingWalkRow {
  found: string | null;
  passed: string[] | null;
  status: OwnedLevelStatus | null;
  cycles: number | null;
  slots: string[] | null;
  alive: boolean | null;
  /** The candidate's locked row is not what the walk's snapshot read: a placement committed in between. */
  moved: boolean | null;
}

/**
 * One try of lockReceiver as parts of a statement: `ctes`, the walk from `from` and `locked`,
 * for a WITH RECURSIVE list; `joins`, to join to the statement's one row; `columns`, those of
 * LockingWalkRow.
 *
 * The walk, then the candidate's level row locked FOR UPDATE (a locked read sees the row as it is
 * now, whatever the walk's snapshot saw), then, only when that row is active, the candidate's
 * users row shared (a deletion takes the user's row FOR UPDATE: sharing it waits for one in
 * progress, so a user deleted since the walk read it is skipped rather than paid). The data
 * dependencies order the locks: the level row's lock is taken while the rows of `locked` are
 * read, before `alive` is computed from them. With `after`, a condition on the statement's
 * earlier parts (a CTE of theirs having a row), `locked` reads it first: the statement's own
 * locks and writes come before the candidate's.
 */
export function lockingWalk(from: Placeholder, program: Placeholder, level: Placeholder, after?: SQL) {
  return {
    ctes: sql`${walkCtes(from, program, level)},
      locked AS MATERIALIZED (
        SELECT ul.status, ul.cycles, ul.slots FROM user_levels ul
        WHERE ${after ? sql`${after} AND ` : sql``}ul.user_id = (SELECT found FROM walk) AND ul.program = ${program} AND ul.level = ${level}
        FOR UPDATE
      )`,
    joins: sql`LEFT JOIN walk w ON true LEFT JOIN locked l ON true`,
    columns: sql`w.found, w.passed, l.status, l.cycles, l.slots,
        CASE WHEN l.status = 'active' THEN (SELECT u.deleted_at IS NULL FROM users u WHERE u.id = w.found FOR SHARE) END AS alive,
        (w.cycles IS DISTINCT FROM l.cycles OR w.slots IS DISTINCT FROM l.slots) AS moved`,
  };
}

const lockingWalkStatement = (() => {
  const parts = lockingWalk(walkFrom.start, walkFrom.program, walkFrom.level);
  return statementOnce<LockingWalkRow>("receiver_lock", sql`WITH RECURSIVE ${parts.ctes} SELECT ${parts.columns} FROM (SELECT 1) one ${parts.joins}`);
})();

async function lockingWalkOnce(tx: Tx, from: string, program: Program, level: number): Promise<LockingWalkRow> {
  const [row] = await lockingWalkStatement(tx, { start: from, program, level });
  if (!row) throw new Error("the receiver walk answered no row");
  return row;
}

/**
 * receiver(startId) with its level row locked FOR UPDATE (null for `system`), and the frozen
 * users the walk went past.
 *
 * Callers lock their own row first and then call this repeatedly going up the chain, so every
 * transaction takes user_levels locks from descendant to ancestor: a fixed order, no deadlock.
 * The walk read no locks, so a candidate may have frozen since; its locked row is current, and
 * if it is no longer active the walk continues above it. A candidate found frozen that way was
 * walked past too: it is counted once, here (the walk above it starts strictly higher).
 *
 * One statement a try (lockingWalk). `first`: the first try's row when a statement of the
 * caller's already made it (the purchase's activation).
 *
 * The walk's snapshot is older than the lock: a member between the start and the candidate may
 * have bought the level and committed while this waited for the candidate's row. Such a purchase
 * placed its buyer in the candidate's matrix (the candidate was the first eligible above them
 * too), so the locked row differs from the one the walk read (`moved`). Then the walk is made
 * again, on a fresh snapshot: when it finds someone else now, the candidate is no longer the
 * receiver, and the transaction is tried again from the start (a serialization failure, which
 * inTransaction retries). Paying the candidate would place this buyer after a member the candidate's
 * slots show as having come first, yet past them: an order no one-by-one run gives. A moved row
 * with the same receiver (another buyer's placement) goes on at once.
 */
export async function lockReceiver(tx: Tx, startId: string, program: Program, level: number, first?: LockingWalkRow): Promise<Walk<LockedLevel>> {
  const passed: string[] = [];
  for (let from = startId, made = first; ; made = undefined) {
    const row = made ?? (await lockingWalkOnce(tx, from, program, level));
    passed.push(...(row.passed ?? []));
    const candidate = row.found;
    if (!candidate) return { receiver: null, passed };
    if (row.status === "active" && row.alive === true) {
      if (row.moved && (await firstEligibleAbove(tx, from, program, level)) !== candidate) throw new StaleWalk();
      return { receiver: { userId: candidate, cycles: Number(row.cycles), slots: row.slots ?? [] }, passed };
    }
    // Frozen since the walk (rare): walked past, unless deleted by now.
    if (row.status === "frozen" && (await notDeleted(tx, candidate))) passed.push(candidate);
    from = candidate;
  }
}

/**
 * receiver(startId) as read now, without locks, and the frozen users the walk went past: what
 * lockReceiver would find if nothing changed meanwhile (the previews, docs/rules.md#previews).
 */
export function peekReceiver(tx: Tx | Db, startId: string, program: Program, level: number): Promise<Walk<LockedLevel>> {
  return walkUp(tx, startId, program, level);
}
