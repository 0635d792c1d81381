import { expect, test } from "bun:test";
import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "../db/client";
import { missedEarnings, userLevels, users } from "../db/schema";
import { onPostgres } from "../testing/db";
import { credit, joinUnder, levelOf, run } from "../testing/domain";
import { useDatabase } from "../testing/useHarness";
import { handOverWhereDue } from "./chains";
import { purchaseLevel } from "./matrix";
import { inTransaction } from "./tx";
import { registerUser } from "./users";

// docs/rules.md#missed-earnings where transactions meet, on real Postgres (PGlite runs one
// connection, so nothing races there):
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres bun test src/core/missed.test.ts
let database: Database;
useDatabase((made) => (database = made));

async function member(referrer: string | null, name?: string) {
  const id = await joinUnder(database.db, referrer, { name });
  await credit(database.db, id, 10_000n);
  return id;
}
const buy = (id: string) => run(database.db, (tx) => purchaseLevel(tx, id, "3p", 1));

/** The missed earnings recorded for `userId`, as [buyer, reason]. */
async function missedBy(userId: string) {
  const rows = await database.db.select().from(missedEarnings).where(eq(missedEarnings.userId, userId)).orderBy(missedEarnings.id);
  return rows.map((r) => [r.buyerId, r.reason]);
}

/** A transaction held open after `work`, until `commit()` (or `abort()`). */
function heldOpen(work: Parameters<typeof inTransaction>[1]) {
  let release!: (ok: boolean) => void;
  const gate = new Promise<boolean>((resolve) => (release = resolve));
  let ready!: () => void;
  const started = new Promise<void>((resolve) => (ready = resolve));
  const done = inTransaction(database.db, async (tx) => {
    await work(tx);
    ready();
    if (!(await gate)) throw new Error("aborted on purpose");
  });
  return { started, done, commit: () => release(true) };
}

test.skipIf(!onPostgres)("a receiver that froze after the walk read it is passed by and recorded once, and the walk goes on above it", async () => {
  const top = await member(null);
  const c = await member(top);
  const partners: string[] = [];
  for (let i = 0; i < 6; i++) partners.push(await member(c));
  const buyer = await member(c);
  await buy(top); // system
  await buy(c); // top's slot 1
  for (const p of partners.slice(0, 5)) await buy(p); // c: a cycle completed (up to top's slot 2), then slots 1 and 2
  expect(await levelOf(database.db, c, "3p", 1)).toEqual(["active", 1, [partners[3]!, partners[4]!]]);

  // The 6th partner completes c's second cycle: c freezes, in a transaction held open...
  const freezing = heldOpen((tx) => purchaseLevel(tx, partners[5]!, "3p", 1));
  await freezing.started;
  // ...while the buyer's walk reads c as active (the freeze is not committed) and waits for its row.
  const purchase = buy(buyer);
  await Bun.sleep(300);
  freezing.commit();
  await freezing.done;
  const result = await purchase;
  // c's locked row says frozen: the walk went on above c, and c was passed by (once).
  expect([result.payee, result.steps.map((s) => [s.ownerId, s.slot, s.outcome])]).toEqual([top, [[top, 1, "paid"]]]);
  expect(result.missed).toEqual([{ userId: c, reason: "frozen" }]);
  expect(await missedBy(c)).toEqual([[buyer, "frozen"]]);
});

test.skipIf(!onPostgres)("recording missed earnings does not wait for a chain takeover that moves the frozen users to another chain", async () => {
  // j - m - m1 - m2 - b0 continues j's chain; `buyer` is m2's second partner (a chain of their own).
  const j = await member(null, "j");
  const m = await member(j, "m");
  const m1 = await member(m, "m1");
  const m2 = await member(m1, "m2");
  await member(m2, "b0"); // continues the chain below m2
  const buyer = await member(m2, "buyer");
  for (const id of [j, m, m1, m2]) await buy(id);
  // Stands in for two completed cycles each: m, m1 and m2 are frozen.
  await database.db
    .update(userLevels)
    .set({ status: "frozen", cycles: 2, slots: [] })
    .where(and(inArray(userLevels.userId, [m, m1, m2]), eq(userLevels.program, "3p"), eq(userLevels.level, 1)));
  // A line under j, one short of outgrowing m's branch (5 users) more than twice over.
  const line = [await joinUnder(database.db, j)];
  for (let i = 1; i < 10; i++) line.push(await joinUnder(database.db, line.at(-1)!));
  const chainOf = async (id: string) => (await database.db.select({ c: users.chainId }).from(users).where(eq(users.id, id)))[0]!.c;
  expect(await chainOf(m)).toBe(await chainOf(j));

  // The 11th sign-up calls for handing j's chain over to the line; the takeover (a transaction of
  // its own, chains.ts) moves m, m1, m2 and b0 to a chain of their own (their users and
  // user_levels rows are updated), and stays open...
  const [ref] = await database.db.select({ r: users.referralId }).from(users).where(eq(users.id, line.at(-1)!));
  const n11 = await run(database.db, (tx) => registerUser(tx, { name: "n11", email: "n11@missed.test", passwordHash: "x", referralId: ref!.r }));
  const takeover = heldOpen(async (tx) => {
    await handOverWhereDue(tx, n11.id);
    const [moved] = await tx.select({ c: users.chainId }).from(users).where(eq(users.id, m));
    expect(moved!.c).toBe(m);
  });
  await takeover.started;
  // ...while the buyer's purchase passes m2, m1 and m by and records them: the foreign keys' KEY
  // SHARE locks on their users rows do not conflict with the takeover's FOR NO KEY UPDATE (chain_id
  // is not a key column), so the purchase commits without waiting.
  const outcome = await Promise.race([buy(buyer).then((r) => r), Bun.sleep(5_000).then(() => "waited")]);
  takeover.commit();
  await takeover.done;
  expect(outcome).not.toBe("waited");
  if (typeof outcome === "string") return;
  expect([outcome.payee, outcome.missed.map((r) => r.userId)]).toEqual([j, [m2, m1, m]]);
  expect(await chainOf(m)).toBe(m);
  expect(await missedBy(m)).toEqual([[buyer, "frozen"]]);
});
