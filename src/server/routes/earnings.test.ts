import { expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { rowsOf } from "../../db/client";
import type { Harness } from "../../testing/harness";
import { onPostgres } from "../../testing/db";
import { matrixHelpers } from "../../testing/matrix";
import { useMoneyHarness } from "../../testing/useHarness";

// docs/rules.md#earnings: earned (incoming purchase and unfreeze transfers) and missed (the
// missed_earnings records) per UTC day, checked against the ledger and the records themselves.
let h: Harness;
let m: ReturnType<typeof matrixHelpers>;
useMoneyHarness((made) => {
  h = made;
  m = matrixHelpers(made);
});

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const today = () => dayOf(Date.now());
const cents = (dollars: number) => Math.round(dollars * 100);
const earnings = (user: { token: string }, query = "") => h.call("GET", `/api/user/earnings${query}`, { token: user.token });

/** Cents per UTC day, straight from the tables: what the member was paid, and what they missed. */
async function fromTables(userId: string) {
  const earned = rowsOf<{ day: string; total: string }>(
    await h.db.execute(sql`
      SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, sum(amount)::text AS total
      FROM transfers WHERE to_account = ${userId} AND kind IN ('purchase', 'unfreeze') GROUP BY 1`),
  );
  const missed = rowsOf<{ day: string; total: string }>(
    await h.db.execute(sql`
      SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, sum(amount)::text AS total
      FROM missed_earnings WHERE user_id = ${userId} GROUP BY 1`),
  );
  const asMap = (rows: { day: string; total: string }[]) => new Map(rows.map((r) => [r.day, Number(r.total)]));
  return { earned: asMap(earned), missed: asMap(missed) };
}

const sum = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);

test("GET /api/user/earnings: every day of the window, oldest first, each equal to the ledger and the missed records of that day", async () => {
  const top = await m.member(undefined, 100, "Top");
  const owner = await m.member(top, 100, "Owner");
  const below = await m.member(owner, 100, "Below");
  const direct = await m.member(top, 100, "Direct");
  await m.bought(top, "6p", 1);
  await m.bought(owner, "6p", 1);
  await m.bought(below, "6p", 1); // passed up to top: money top got
  await m.bought(direct, "6p", 1); // paid to top
  await m.bought(top, "3p", 1);
  await m.bought(owner, "3p", 1); // paid to top
  for (let i = 0; i < 6; i++) await m.bought(await m.member(owner, 5), "3p", 1);
  expect((await m.unfreeze(owner, "3p", 1)).status).toBe(200); // paid to top
  // Money that is not earned: a deposit (already), a gift.
  expect((await h.call("POST", "/api/user/gift", { token: direct.token, body: { amount: 4, recipientEmail: top.email } })).status).toBe(200);

  // Spread top's earnings over days: 3 days ago, 40 days ago (outside a 30-day window), today.
  const incoming = rowsOf<{ id: string }>(
    await h.db.execute(sql`SELECT id::text AS id FROM transfers WHERE to_account = ${top.id} AND kind IN ('purchase', 'unfreeze') ORDER BY id`),
  );
  expect(incoming.length).toBeGreaterThanOrEqual(4);
  await h.db.execute(sql`UPDATE transfers SET created_at = now() - interval '3 days' WHERE id = ${incoming[0]!.id}::bigint`);
  await h.db.execute(sql`UPDATE transfers SET created_at = now() - interval '40 days' WHERE id = ${incoming[1]!.id}::bigint`);
  // Missed records, as the purchase would write them (the writer lives in src/core/missed.ts).
  await h.db.execute(sql`
    INSERT INTO missed_earnings (user_id, buyer_id, program, level, amount, reason, created_at) VALUES
      (${top.id}, ${owner.id}, '3p', 2, 1000, 'not_active', now()),
      (${top.id}, ${owner.id}, '3p', 2, 250, 'not_active', now()),
      (${top.id}, ${below.id}, '6p', 1, 500, 'frozen', now() - interval '3 days'),
      (${top.id}, ${below.id}, '6p', 1, 700, 'frozen', now() - interval '100 days'),
      (${owner.id}, ${below.id}, '6p', 1, 900, 'frozen', now())`);

  const res = await earnings(top);
  expect(res.status).toBe(200);
  const body = res.body;
  // 30 days by default, consecutive, ending today.
  expect(body.days.map((d: any) => d.date)).toEqual(Array.from({ length: 30 }, (_, i) => dayOf(Date.now() - (29 - i) * DAY_MS)));
  expect(body.days.at(-1).date).toBe(today());

  const tables = await fromTables(top.id);
  for (const d of body.days) {
    expect({ date: d.date, earned: cents(d.earned), missed: cents(d.missed) }).toEqual({
      date: d.date,
      earned: tables.earned.get(d.date) ?? 0,
      missed: tables.missed.get(d.date) ?? 0,
    });
  }
  const inWindow = (map: Map<string, number>) => sum([...map].filter(([day]) => body.days.some((d: any) => d.date === day)).map(([, v]) => v));
  expect(cents(body.totalEarned)).toBe(inWindow(tables.earned));
  expect(cents(body.totalMissed)).toBe(inWindow(tables.missed));
  expect(cents(body.lifetimeEarned)).toBe(sum(tables.earned.values()));
  expect(cents(body.lifetimeMissed)).toBe(sum(tables.missed.values()));
  // The window leaves out what is older; lifetime keeps it.
  expect(body.lifetimeEarned).toBeGreaterThan(body.totalEarned);
  expect(cents(body.lifetimeMissed) - cents(body.totalMissed)).toBeGreaterThanOrEqual(700);
  expect(cents(body.totalMissed)).toBeGreaterThanOrEqual(1750);

  // Earned is what the statement calls earnings and pass-ups: the same transfers, seen from the member's side.
  const statement: any[] = [];
  for (let page = 1; ; page++) {
    const answer = (await h.call("GET", `/api/user/transactions?page=${page}`, { token: top.token })).body;
    statement.push(...answer.transactions);
    if (page >= answer.totalPages) break;
  }
  expect(cents(body.lifetimeEarned)).toBe(sum(statement.filter((t) => t.kind === "earning" || t.kind === "pass_up").map((t) => cents(t.amount))));
  expect(statement.some((t) => t.kind === "pass_up")).toBe(true);

  // A shorter window: today alone.
  const one = (await earnings(top, "?days=1")).body;
  expect(one.days).toEqual([{ date: today(), earned: (tables.earned.get(today()) ?? 0) / 100, missed: (tables.missed.get(today()) ?? 0) / 100 }]);
  expect([one.totalEarned, one.totalMissed, one.lifetimeEarned]).toEqual([one.days[0].earned, one.days[0].missed, body.lifetimeEarned]);
});

test("GET /api/user/earnings of a member who earned nothing: every day zero; bad windows are refused", async () => {
  const user = await m.member(undefined, 50);
  const body = (await earnings(user, "?days=7")).body;
  expect(body).toEqual({
    days: Array.from({ length: 7 }, (_, i) => ({ date: dayOf(Date.now() - (6 - i) * DAY_MS), earned: 0, missed: 0 })),
    totalEarned: 0,
    totalMissed: 0,
    lifetimeEarned: 0,
    lifetimeMissed: 0,
  });
  expect((await earnings(user, "?days=365")).body.days).toHaveLength(365);
  for (const days of ["0", "366", "1.5", "x", "-3"]) {
    expect(await earnings(user, `?days=${days}`)).toMatchObject({ status: 400, body: { msg: "Days must be a whole number from 1 to 365.", code: "validation" } });
  }
  expect((await h.call("GET", "/api/user/earnings")).status).toBe(401);
});

test.skipIf(!onPostgres)("on Postgres, read while payments land, the days and the lifetime totals agree (one snapshot)", async () => {
  const m = matrixHelpers(h);
  const mismatches: string[] = [];
  for (let round = 0; round < 4; round++) {
    // A member whose whole history is today: today's total is the lifetime total, at every moment.
    const owner = await m.member(undefined, 100);
    await m.bought(owner, "3p", 1);
    await m.bought(owner, "6p", 1);
    const buyers = [];
    for (let i = 0; i < 8; i++) buyers.push(await m.member(owner, 10));
    let buying = true;
    const read = async () => {
      while (buying) {
        const e = (await h.call("GET", "/api/user/earnings?days=30", { token: owner.token })).body;
        if (e.totalEarned !== e.lifetimeEarned || e.totalMissed !== e.lifetimeMissed) mismatches.push(`${e.totalEarned} of ${e.lifetimeEarned}`);
      }
    };
    const readers = [read(), read()];
    await Promise.all(buyers.flatMap((b) => [m.buy(b, "3p", 1), m.buy(b, "6p", 1)]));
    buying = false;
    await Promise.all(readers);
  }
  expect(mismatches).toEqual([]);
});
