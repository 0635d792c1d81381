import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { rowsOf } from "../../db/client";
import { onPostgres } from "../../testing/db";
import { createHarness, type Harness } from "../../testing/harness";
import { matrixHelpers, systemBalance } from "../../testing/matrix";

// PGlite runs one connection, so races only exist on real Postgres:
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres bun test src/server/routes/packages.concurrency.test.ts
let h: Harness;
beforeAll(async () => {
  if (onPostgres) h = await createHarness({ max: 20 });
});
afterAll(() => h?.close());

test.skipIf(!onPostgres)("40 partners of one referrer buying 3P and 6P level 1 at the same moment fill the matrices as if one by one", async () => {
  const m = matrixHelpers(h);
  const admin = { token: h.adminToken };
  await h.fund(h.adminToken, 100);
  await m.bought(admin, "3p", 1); // the root: system
  await m.bought(admin, "6p", 1);
  const referrer = await m.member();
  await m.bought(referrer, "3p", 1); // admin's 3P slot 1: paid
  await m.bought(referrer, "6p", 1); // admin's 6P slot 1: passed up to system
  const buyers = [];
  for (let i = 0; i < 40; i++) buyers.push(await m.member(referrer, 10));
  const systemBefore = await systemBalance(h.db);

  const answers = await Promise.all(buyers.flatMap((b) => [m.buy(b, "3p", 1), m.buy(b, "6p", 1)]));
  expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));

  // Whatever the order, one by one gives (rules in docs/matrix-rules.md):
  // 3P: referrer paid by its entrants 1, 2, 4, 5; entrants 3 and 6 pass up to the admin (slots 2
  //     and 3), and 6 freezes it. Then the admin: slots 1, 2 paid, 3 frozen; the rest to system.
  // 6P: referrer entrants 1 and 7 pass up, 2-5 and 8-11 paid, 6 and 12 pass up; frozen after
  //     12. The admin gets those 4 in slots 2-5, then 6 completes, 1 passes up, 2-5 paid, 6
  //     freezes; the rest to system.
  const state = async (who: { token: string }, program: string) => {
    const v = await m.matrix(who, program, 1);
    return [v.status, v.cycles, v.slots.filter((s: { filled: boolean }) => s.filled).length, v.earned];
  };
  expect(await state(referrer, "3p")).toEqual(["frozen", 2, 0, 20]);
  expect(await state(admin, "3p")).toEqual(["frozen", 2, 0, 20]); // 5 from the referrer + 3 entrants
  expect(await state(referrer, "6p")).toEqual(["frozen", 2, 0, 40]);
  expect(await state(admin, "6p")).toEqual(["frozen", 2, 0, 40]);
  // 80 purchases of $5: $20 + $40 to the referrer, $15 + $40 to the admin, the rest to system.
  expect(await systemBalance(h.db)).toBe(systemBefore + (400n - 115n) * 100n);

  const outcomes = rowsOf<{ program: string; outcome: string; n: number }>(
    await h.db.execute(sql`SELECT program, outcome, count(*)::int AS n FROM placements
      WHERE buyer_id IN (SELECT id FROM users WHERE referrer_id = ${referrer.id}) GROUP BY 1, 2 ORDER BY 1, 2`),
  );
  expect(outcomes.map((o) => [o.program, o.outcome, o.n])).toEqual([
    ["3p", "paid", 7],
    ["3p", "pass_up", 4],
    ["3p", "system", 33],
    ["6p", "paid", 16],
    ["6p", "pass_up", 7],
    ["6p", "system", 24],
  ]);
  for (const b of buyers.slice(0, 3)) expect(await m.balance(b)).toBe(0);
  await h.checkLedger();
});
