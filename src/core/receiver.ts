import { and, eq, isNull, sql } from "drizzle-orm";
import { rowsOf, type Db, type Tx } from "../db/client";
import { userLevels, users, type Program } from "../db/schema";

/**
 * The first user above `startId` (its referrer, then theirs...) who is eligible at
 * (program, level): not deleted, level active. Null when the walk runs off the top of the tree.
 *
 * One recursive query, so a 10,000-deep chain costs one round trip. The recursion stops at the
 * first eligible row (`WHERE NOT w.eligible`), and `LIMIT 1` lets Postgres stop fetching there too.
 * The read takes no locks; callers that pay the receiver lock its row and re-check (lockReceiver).
 */
export async function firstEligibleAbove(tx: Tx | Db, startId: string, program: Program, level: number): Promise<string | null> {
  const rows = rowsOf<{ id: string }>(
    await tx.execute(sql`
      WITH RECURSIVE walk(id, referrer_id, eligible) AS (
        SELECT u.id, u.referrer_id, (u.deleted_at IS NULL AND coalesce(ul.status = 'active', false))
        FROM users u
        LEFT JOIN user_levels ul ON ul.user_id = u.id AND ul.program = ${program} AND ul.level = ${level}
        WHERE u.id = (SELECT s.referrer_id FROM users s WHERE s.id = ${startId})
        UNION ALL
        SELECT u.id, u.referrer_id, (u.deleted_at IS NULL AND coalesce(ul.status = 'active', false))
        FROM walk w
        JOIN users u ON u.id = w.referrer_id
        LEFT JOIN user_levels ul ON ul.user_id = u.id AND ul.program = ${program} AND ul.level = ${level}
        WHERE NOT w.eligible
      )
      SELECT id FROM walk WHERE eligible LIMIT 1`),
  );
  return rows[0]?.id ?? null;
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
