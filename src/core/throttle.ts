import { and, count, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { throttleHits } from "../db/schema";
import { refuse } from "./errors";

/**
 * Rate limits kept in the database (`throttle_hits`), so that every server process sharing one
 * Postgres counts the same hits: one row per event, counted over a sliding window, swept as
 * they age. Login failures have their own table and rules (src/core/sessions.ts).
 *
 * Time is the database's (`now()`), never a process's clock, so processes whose clocks differ
 * still agree on when a window ends.
 */

export interface RateLimit {
  /** What is counted: "signup", ... */
  bucket: string;
  /** Events allowed within the window; 0 or less: no limit. */
  max: number;
  windowSeconds: number;
}

export const HOUR_SECONDS = 3_600;

/** Whole minutes, at least 1, for the sentences that say when to try again. */
export const minutesOf = (seconds: number) => Math.max(1, Math.ceil(seconds / 60));

/** An interval of `seconds`, as a SQL expression. */
export const secondsInterval = (seconds: number) => sql`(${Math.round(seconds)}::integer * interval '1 second')`;

export interface Hit {
  /** Takes the hit back: the event it stood for did not happen after all. */
  release(): Promise<void>;
}

const NO_HIT: Hit = { release: async () => {} };

/**
 * Counts one event of `key` against `limit`, or refuses it with "throttled" (the sentence
 * `message(minutes)`, and the seconds to wait as Retry-After) when the window already holds
 * `max` events.
 *
 * The hit is inserted first, then counted together with everyone else's: two parallel callers
 * see each other, so a race can refuse one event too many, never let one too many through. A
 * refused hit is taken back at once.
 */
export async function takeHit(db: Db, limit: RateLimit, key: string, message: (minutes: number) => string): Promise<Hit> {
  if (limit.max <= 0) return NO_HIT;
  const [hit] = await db.insert(throttleHits).values({ bucket: limit.bucket, key }).returning({ id: throttleHits.id });
  const release = async () => {
    await db.delete(throttleHits).where(eq(throttleHits.id, hit!.id));
  };
  const seen = await recentHits(db, limit.bucket, key, limit.windowSeconds);
  if (seen.n > limit.max) {
    await release();
    return refuse("throttled", message(minutesOf(seen.retryAfter)), seen.retryAfter);
  }
  // About one hit in fifty sweeps the bucket's expired rows.
  if (Math.random() < 0.02) {
    await db.delete(throttleHits).where(and(eq(throttleHits.bucket, limit.bucket), lt(throttleHits.createdAt, sql`now() - ${secondsInterval(limit.windowSeconds)}`)));
  }
  return { release };
}

/**
 * Events of `key` in `bucket` within the last `windowSeconds`, and `retryAfter`: the whole seconds
 * (at least 1) until the oldest of them leaves the window, which frees a place (Retry-After of a
 * refusal at the limit).
 */
export async function recentHits(db: Db, bucket: string, key: string, windowSeconds: number): Promise<{ n: number; retryAfter: number }> {
  const [seen] = await db
    .select({
      n: count(),
      wait: sql<number | null>`extract(epoch from (min(${throttleHits.createdAt}) + ${secondsInterval(windowSeconds)} - clock_timestamp()))`.mapWith(Number),
    })
    .from(throttleHits)
    .where(and(eq(throttleHits.bucket, bucket), eq(throttleHits.key, key), sql`${throttleHits.createdAt} > now() - ${secondsInterval(windowSeconds)}`));
  return { n: seen?.n ?? 0, retryAfter: Math.max(1, Math.ceil(seen?.wait ?? windowSeconds)) };
}

/** Records one event of `key` in `bucket` without checking any limit. */
export async function addHit(db: Db, bucket: string, key: string): Promise<void> {
  await db.insert(throttleHits).values({ bucket, key });
}
