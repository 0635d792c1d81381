import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "../db/client";
import type { Cents } from "../shared/money";
import { SYSTEM } from "./ledger";

/** The real figures the marketing site shows instead of invented ones. */
export interface PlatformStats {
  /** Users who are not deleted, admins left out. */
  members: number;
  /**
   * Every purchase and unfreeze payment that reached a member: not the platform (`system`), nor
   * an admin's own account (admins are the platform's people, not members).
   */
  paidOut: Cents;
  /**
   * Levels bought and not frozen (user_levels with status 'active') of members: a deleted
   * member's levels never receive again, and admins are not members.
   */
  levelsActive: number;
}

/** How long the server keeps the figures before it asks the database again. */
export const PLATFORM_STATS_TTL_MS = 60_000;

/**
 * The three figures in one statement (one round trip, one snapshot). Each is a plain count or
 * sum; the page that shows them caches the answer (cachedPlatformStats), so these scans run at
 * most once a minute per process, however busy the landing page is.
 */
export async function platformStats(db: Db): Promise<PlatformStats> {
  const [row] = rowsOf<{ members: string; paid_out: string; levels_active: string }>(
    await db.execute(sql`
      SELECT
        (SELECT count(*) FROM users WHERE deleted_at IS NULL AND role <> 'admin')::text AS members,
        (SELECT coalesce(sum(amount), 0) FROM transfers
          WHERE kind IN ('purchase', 'unfreeze') AND to_account <> ${SYSTEM}
            AND to_account NOT IN (SELECT id FROM users WHERE role = 'admin'))::text AS paid_out,
        (SELECT count(*) FROM user_levels l JOIN users u ON u.id = l.user_id
          WHERE l.status = 'active' AND u.deleted_at IS NULL AND u.role <> 'admin')::text AS levels_active`),
  );
  if (!row) throw new Error("platformStats: no row");
  return { members: Number(row.members), paidOut: BigInt(row.paid_out), levelsActive: Number(row.levels_active) };
}

/*
 * A display cache, local to this process (docs/rules.md#several-processes: nothing another
 * process needs lives here; figures a minute old, or as old as their next reading takes, are all
 * it can cost). Keyed by the database handle, so each test's fresh database, or a second app in
 * one process, gets its own figures. The entry holds the promise, so concurrent requests share
 * one query, and the figures last read, which are answered while the next reading runs: a page
 * never waits for these scans once they were made once. A failure is not kept.
 */
interface Entry {
  at: number;
  stats: Promise<PlatformStats>;
  last?: PlatformStats;
}
const cache = new WeakMap<Db, Entry>();

/**
 * platformStats(db), asked of the database at most once every PLATFORM_STATS_TTL_MS. Past that,
 * the figures known are answered at once while they are read again in the background (the first
 * ones, none known yet, are waited for).
 */
export function cachedPlatformStats(db: Db, now = Date.now()): Promise<PlatformStats> {
  const hit = cache.get(db);
  if (hit && now - hit.at < PLATFORM_STATS_TTL_MS && now >= hit.at) return hit.last ? Promise.resolve(hit.last) : hit.stats;
  const entry: Entry = { at: now, stats: platformStats(db), last: hit?.last };
  cache.set(db, entry);
  entry.stats.then(
    (stats) => void (entry.last = stats),
    () => {
      if (cache.get(db) !== entry) return;
      // Not read: asked again next time; the figures known meanwhile, if any.
      if (entry.last) entry.at = Number.NEGATIVE_INFINITY;
      else cache.delete(db);
    },
  );
  return entry.last ? Promise.resolve(entry.last) : entry.stats;
}
