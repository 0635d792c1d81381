import { and, eq, isNull, sql } from "drizzle-orm";
import { rowsOf, type Db, type Tx } from "../db/client";
import { userLevels, users, type Program } from "../db/schema";

/**
 * The first user above `startId` (its referrer, then theirs...) who is eligible at
 * (program, level): not deleted, level active. Null when the walk runs off the top of the tree.
 *
 * One recursive query that goes up chain by chain (chains.ts): in each chain, the deepest
 * active user at or above the walk's depth is one probe of user_levels_receiver_idx, then the
 * walk leaves the chain through its first user's referrer. It stops at the first chain with an
 * eligible user, so the cost follows the number of chains crossed, not the number of ancestors.
 * The read takes no locks; callers that pay the receiver lock its row and re-check (lockReceiver).
 */
export async function firstEligibleAbove(tx: Tx | Db, startId: string, program: Program, level: number): Promise<string | null> {
  // `r` is where the walk enters a chain: it and the chain's users above it are ancestors.
  const deepestEligible = sql`(
    SELECT ul.user_id FROM user_levels ul JOIN users e ON e.id = ul.user_id
    WHERE ul.program = ${program} AND ul.level = ${level} AND ul.status = 'active'
      AND ul.chain_id = r.chain_id AND ul.depth <= r.depth AND e.deleted_at IS NULL
    ORDER BY ul.depth DESC LIMIT 1)`;
  const rows = rowsOf<{ found: string }>(
    await tx.execute(sql`
      WITH RECURSIVE hop(chain_id, found) AS (
        SELECT r.chain_id, ${deepestEligible}
        FROM users s JOIN users r ON r.id = s.referrer_id
        WHERE s.id = ${startId}
        UNION ALL
        SELECT r.chain_id, ${deepestEligible}
        FROM hop h
        JOIN users head ON head.id = h.chain_id
        JOIN users r ON r.id = head.referrer_id
        WHERE h.found IS NULL
      )
      SELECT found FROM hop WHERE found IS NOT NULL LIMIT 1`),
  );
  return rows[0]?.found ?? null;
}

async function stillActiveUser(tx: Tx, userId: string): Promise<boolean> {
  const rows = await tx.select({ id: users.id }).from(users).where(and(eq(users.id, userId), isNull(users.deletedAt))).for("share");
  return rows.length > 0;
}

export interface LockedLevel {
  userId: string;
  cycles: number;
  slots: string[];
}

/** Locks one user's level row; null when the user has no row (the level is locked). */
export async function lockLevelRow(tx: Tx, userId: string, program: Program, level: number) {
  const [row] = await tx
    .select({ status: userLevels.status, cycles: userLevels.cycles, slots: userLevels.slots })
    .from(userLevels)
    .where(and(eq(userLevels.userId, userId), eq(userLevels.program, program), eq(userLevels.level, level)))
    .for("update");
  return row ?? null;
}

/**
 * receiver(startId) with its level row locked FOR UPDATE, or null for `system`.
 *
 * Callers lock their own row first and then call this repeatedly going up the chain, so every
 * transaction takes user_levels locks from descendant to ancestor: a fixed order, no deadlock.
 * The walk read no locks, so a candidate may have frozen since; its locked row is current, and
 * if it is no longer active the walk continues above it.
 */
export async function lockReceiver(tx: Tx, startId: string, program: Program, level: number): Promise<LockedLevel | null> {
  for (let from = startId; ; ) {
    const candidate = await firstEligibleAbove(tx, from, program, level);
    if (!candidate) return null;
    const row = await lockLevelRow(tx, candidate, program, level);
    // A deletion takes the user's row FOR UPDATE: sharing that row waits for one in progress,
    // so a user deleted since the walk read it is skipped rather than paid.
    if (row?.status === "active" && (await stillActiveUser(tx, candidate))) {
      return { userId: candidate, cycles: row.cycles, slots: row.slots };
    }
    from = candidate;
  }
}
