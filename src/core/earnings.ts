import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "../db/client";
import type { Cents } from "../shared/money";

const DAY_MS = 86_400_000;
/** The transfers that pay a member: a purchase (paid in their matrix or passed up to them) and an unfreeze. */
const EARNING_KINDS = sql`('purchase', 'unfreeze')`;

/** The rows of the member's whole history, beside the days'. */
const LIFETIME = "lifetime";

/** "2026-11-25": the UTC calendar day of an instant. */
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * What the member earned and missed per UTC calendar day over the last `days` days ending today
 * (every day present, oldest first, zeros included), the totals of those days, and the totals
 * of their whole history (docs/rules.md#earnings).
 *
 * Earned: the incoming transfers of kind purchase or unfreeze (a payment passed up to the member
 * is money they got, so it counts). Missed: the member's missed_earnings records, which are not
 * transfers and move no money. One statement, so one snapshot: the days and the lifetime totals
 * agree even while payments land.
 */
export async function earningsOf(db: Db, userId: string, days: number, now = new Date()) {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const since = new Date(today - (days - 1) * DAY_MS).toISOString();
  const until = new Date(today + DAY_MS).toISOString();
  const perDay = rowsOf<{ source: "earned" | "missed"; day: string; total: string }>(
    await db.execute(sql`
      SELECT 'earned' AS source, to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, sum(t.amount)::text AS total
      FROM transfers t
      WHERE t.to_account = ${userId} AND t.kind IN ${EARNING_KINDS}
        AND t.created_at >= ${since}::timestamptz AND t.created_at < ${until}::timestamptz
      GROUP BY 2
      UNION ALL
      SELECT 'missed', to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), sum(m.amount)::text
      FROM missed_earnings m
      WHERE m.user_id = ${userId} AND m.created_at >= ${since}::timestamptz AND m.created_at < ${until}::timestamptz
      GROUP BY 2
      UNION ALL
      SELECT 'earned', ${LIFETIME}, coalesce(sum(t.amount), 0)::text FROM transfers t WHERE t.to_account = ${userId} AND t.kind IN ${EARNING_KINDS}
      UNION ALL
      SELECT 'missed', ${LIFETIME}, coalesce(sum(m.amount), 0)::text FROM missed_earnings m WHERE m.user_id = ${userId}`),
  );
  const lifetime = { earned: 0n, missed: 0n };

  const byDay = new Map<string, { earned: Cents; missed: Cents }>();
  for (let i = days - 1; i >= 0; i--) byDay.set(dayOf(today - i * DAY_MS), { earned: 0n, missed: 0n });
  for (const row of perDay) {
    const day = row.day === LIFETIME ? lifetime : byDay.get(row.day);
    if (day) day[row.source] += BigInt(row.total);
  }
  const list = [...byDay].map(([date, sums]) => ({ date, ...sums }));
  return {
    days: list,
    totalEarned: list.reduce((sum, d) => sum + d.earned, 0n),
    totalMissed: list.reduce((sum, d) => sum + d.missed, 0n),
    lifetimeEarned: lifetime.earned,
    lifetimeMissed: lifetime.missed,
  };
}
