import { expect, test } from "bun:test";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { missedEarnings, userLevels } from "../db/schema";
import type { Program } from "../db/schema";
import { balanceOf, credit, joinUnder, levelOf, refusalOf, run } from "../testing/domain";
import { useDatabase } from "../testing/useHarness";
import { SYSTEM } from "./ledger";
import { previewPurchase, previewUnfreeze, purchaseLevel, slotRule, unfreezeLevel } from "./matrix";
import { matrixOf } from "./matrixView";
import { deleteUser } from "./users";

// docs/rules.md#slots, #purchase, #cycles-and-freezing and #unfreeze, called directly. Level 1
// costs 5.00 (500 cents) in both programs and unfreezing it 2.50. Every test grows its own branch
// under the admin, who never buys: a walk that reaches the admin pays system. The ledger
// invariants and the referral tree are checked after each test.
let database: Database;
useDatabase((made) => (database = made));

/** A user under `referrer` (the admin when null) with 100.00 to spend. */
async function member(referrer: string | null) {
  const id = await joinUnder(database.db, referrer);
  await credit(database.db, id, 10_000n);
  return id;
}

/** Buys level 1 and answers where the money went, step by step, as [owner, slot, cycle, outcome]. */
async function buy(buyer: string, program: Program, level = 1, cost = 500n * 2n ** BigInt(level - 1)) {
  const result = await run(database.db, (tx) => purchaseLevel(tx, buyer, program, level));
  expect(result.cost).toBe(cost);
  return { payee: result.payee, steps: result.steps.map((s) => [s.ownerId, s.slot, s.cycle, s.outcome]) };
}

const spent = async (id: string) => 10_000n - (await balanceOf(database.db, id));

/** A branch under the admin: top, owner under top, and `partners` users under the owner. */
async function branch(partners: number) {
  const top = await member(null);
  const owner = await member(top);
  const b: string[] = [];
  for (let i = 0; i < partners; i++) b.push(await member(owner));
  return { top, owner, b };
}

test("the slot rules: 3P pays slots 1-2 and completes at 3; 6P passes slot 1 up, pays 2-5 and completes at 6", () => {
  expect([1, 2, 3].map((k) => slotRule("3p", k))).toEqual(["paid", "paid", "complete"]);
  expect([1, 2, 3, 4, 5, 6].map((k) => slotRule("6p", k))).toEqual(["pass_up", "paid", "paid", "paid", "paid", "complete"]);
});

test("3P: slots 1 and 2 pay the owner, slot 3 completes a cycle and passes up, the second completed cycle freezes the level", async () => {
  const { top, owner, b } = await branch(7);

  expect(await buy(top, "3p")).toEqual({ payee: SYSTEM, steps: [[null, null, null, "system"]] });
  expect(await buy(owner, "3p")).toEqual({ payee: top, steps: [[top, 1, 1, "paid"]] });

  // Cycle 1 of the owner's matrix.
  expect(await buy(b[0]!, "3p")).toEqual({ payee: owner, steps: [[owner, 1, 1, "paid"]] });
  expect(await buy(b[1]!, "3p")).toEqual({ payee: owner, steps: [[owner, 2, 1, "paid"]] });
  expect(await levelOf(database.db, owner, "3p", 1)).toEqual(["active", 0, [b[0]!, b[1]!]]);
  expect(await buy(b[2]!, "3p")).toEqual({
    payee: top,
    steps: [
      [owner, 3, 1, "pass_up"],
      [top, 2, 1, "paid"],
    ],
  });
  expect(await levelOf(database.db, owner, "3p", 1)).toEqual(["active", 1, []]);

  // Cycle 2: the same, and its completion freezes the owner's level. The pass-up fills the top's
  // slot 3, which completes the top's first cycle in turn: nobody above the top, so system.
  expect(await buy(b[3]!, "3p")).toEqual({ payee: owner, steps: [[owner, 1, 2, "paid"]] });
  expect(await buy(b[4]!, "3p")).toEqual({ payee: owner, steps: [[owner, 2, 2, "paid"]] });
  expect(await buy(b[5]!, "3p")).toEqual({
    payee: SYSTEM,
    steps: [
      [owner, 3, 2, "pass_up"],
      [top, 3, 1, "pass_up"],
      [null, null, null, "system"],
    ],
  });
  expect(await levelOf(database.db, owner, "3p", 1)).toEqual(["frozen", 2, []]);
  expect(await levelOf(database.db, top, "3p", 1)).toEqual(["active", 1, []]);

  // A frozen level earns nothing: the next partner's money goes past the owner to the top.
  expect(await buy(b[6]!, "3p")).toEqual({ payee: top, steps: [[top, 1, 2, "paid"]] });
  // The owner was paid four slots (20.00) and spent 5.00; the top was paid three and spent 5.00.
  expect(await spent(owner)).toBe(500n - 2_000n);
  expect(await spent(top)).toBe(500n - 1_500n);
});

test("6P: slot 1 passes up, slots 2-5 pay the owner, slot 6 completes a cycle and passes up; two cycles freeze the level", async () => {
  const { top, owner, b } = await branch(12);

  expect(await buy(top, "6p")).toEqual({ payee: SYSTEM, steps: [[null, null, null, "system"]] });
  // The owner takes the top's slot 1, which passes up: nobody above the top, so system.
  expect(await buy(owner, "6p")).toEqual({
    payee: SYSTEM,
    steps: [
      [top, 1, 1, "pass_up"],
      [null, null, null, "system"],
    ],
  });

  for (const cycle of [1, 2]) {
    const [first, ...middle] = b.slice((cycle - 1) * 6, cycle * 6 - 1);
    const last = b[cycle * 6 - 1]!;
    // Slot 1 passes up to the top's next slot (2, then 4), which pays.
    expect(await buy(first!, "6p")).toEqual({
      payee: top,
      steps: [
        [owner, 1, cycle, "pass_up"],
        [top, cycle * 2, 1, "paid"],
      ],
    });
    for (const [i, buyer] of middle.entries()) expect(await buy(buyer, "6p")).toEqual({ payee: owner, steps: [[owner, i + 2, cycle, "paid"]] });
    // Slot 6 completes the cycle and passes up to the top's slot 3, then 5: paid.
    expect(await buy(last, "6p")).toEqual({
      payee: top,
      steps: [
        [owner, 6, cycle, "pass_up"],
        [top, cycle * 2 + 1, 1, "paid"],
      ],
    });
    expect(await levelOf(database.db, owner, "6p", 1)).toEqual(cycle === 1 ? ["active", 1, []] : ["frozen", 2, []]);
  }
  expect(await spent(owner)).toBe(500n - 8n * 500n);
  expect(await spent(top)).toBe(500n - 4n * 500n);
});

test("unfreezing pays the unfreeze price to receiver(user), or to system when there is none, and starts the level again", async () => {
  const { top, owner } = await branch(0);
  await buy(top, "3p");
  await buy(owner, "3p");
  expect(await refusalOf(run(database.db, (tx) => unfreezeLevel(tx, owner, "3p", 1)))).toBe("level_not_frozen");
  for (let i = 0; i < 6; i++) await buy(await member(owner), "3p");
  expect(await levelOf(database.db, owner, "3p", 1)).toEqual(["frozen", 2, []]);

  const topBefore = await balanceOf(database.db, top);
  const ownerBefore = await balanceOf(database.db, owner);
  expect(await run(database.db, (tx) => unfreezeLevel(tx, owner, "3p", 1))).toEqual({ payee: top, amount: 250n, missed: [] });
  expect(await balanceOf(database.db, top)).toBe(topBefore + 250n);
  expect(await balanceOf(database.db, owner)).toBe(ownerBefore - 250n);
  expect(await levelOf(database.db, owner, "3p", 1)).toEqual(["active", 0, []]);
  // Active again: the next partner pays the owner.
  expect((await buy(await member(owner), "3p")).payee).toBe(owner);

  // The top completed one cycle (the owner's second pass-up); three partners of its own complete
  // the second, which freezes it. Above the top is the admin, who owns no level: the unfreeze
  // price goes to system.
  for (let i = 0; i < 3; i++) await buy(await member(top), "3p");
  expect(await levelOf(database.db, top, "3p", 1)).toEqual(["frozen", 2, []]);
  expect(await run(database.db, (tx) => unfreezeLevel(tx, top, "3p", 1))).toEqual({ payee: SYSTEM, amount: 250n, missed: [] });
});

test("a purchase is refused for a locked previous level, a level held already, or a short available balance", async () => {
  const top = await member(null);
  const poor = await joinUnder(database.db, top);
  await credit(database.db, poor, 499n);
  expect(await refusalOf(run(database.db, (tx) => purchaseLevel(tx, top, "3p", 2)))).toBe("level_locked");
  await buy(top, "3p");
  expect(await refusalOf(run(database.db, (tx) => purchaseLevel(tx, top, "3p", 1)))).toBe("level_already_active");
  expect(await refusalOf(run(database.db, (tx) => purchaseLevel(tx, poor, "3p", 1)))).toBe("insufficient_balance");
  expect(await levelOf(database.db, poor, "3p", 1)).toBeNull();
  expect(await balanceOf(database.db, poor)).toBe(499n);
});

/** Stands in for two completed cycles (what the tests above do with six buyers): the level is frozen. */
async function freeze(...ids: string[]) {
  await database.db
    .update(userLevels)
    .set({ status: "frozen", cycles: 2, slots: [] })
    .where(and(inArray(userLevels.userId, ids), eq(userLevels.program, "3p"), eq(userLevels.level, 1)));
}

/** The missed earnings recorded for `userId`, oldest first, as [buyer, program, level, amount, reason]. */
async function missedBy(userId: string) {
  const rows = await database.db.select().from(missedEarnings).where(eq(missedEarnings.userId, userId)).orderBy(missedEarnings.id);
  return rows.map((r) => [r.buyerId, r.program, r.level, r.amount, r.reason]);
}

test("missed earnings: every frozen user a walk passes (the purchase's and each pass-up's) gets one record, a deleted one none; a referrer without the level gets not_active", async () => {
  // admin - top - f2 - d - o - f1 - buyer, and p1 under o. Each buys 3P level 1 in that order:
  // top pays system, then each pays the one above them (slot 1); p1 takes o's slot 2.
  const top = await member(null);
  const f2 = await member(top);
  const d = await member(f2);
  const o = await member(d);
  const f1 = await member(o);
  const p1 = await member(o);
  const buyer = await member(f1);
  for (const id of [top, f2, d, o, f1, p1]) await buy(id, "3p");
  expect(await levelOf(database.db, o, "3p", 1)).toEqual(["active", 0, [f1, p1]]);
  await freeze(f1, f2, d);
  await run(database.db, (tx) => deleteUser(tx, d));

  // The preview says what the purchase then does: o's slot 3 completes o's cycle and passes up.
  const preview = await previewPurchase(database.db, buyer, "3p", 1);
  expect([preview.matrix?.owner.id, preview.matrix?.slot, preview.matrix?.outcome, preview.receiver?.id, preview.amount]).toEqual([o, 3, "passed_up", top, 500n]);

  // The walk from the buyer passes f1 (frozen) to reach o; o's slot 3 completes its cycle, and
  // the walk from o passes d (frozen, but deleted: nothing) and f2 (frozen) to reach top.
  const result = await run(database.db, (tx) => purchaseLevel(tx, buyer, "3p", 1));
  expect([result.payee, result.steps.map((s) => [s.ownerId, s.slot, s.outcome])]).toEqual([
    top,
    [
      [o, 3, "pass_up"],
      [top, 2, "paid"],
    ],
  ]);
  expect(result.missed).toEqual([
    { userId: f1, reason: "frozen" },
    { userId: f2, reason: "frozen" },
  ]);
  expect(await missedBy(f1)).toEqual([[buyer, "3p", 1, 500n, "frozen"]]);
  expect(await missedBy(f2)).toEqual([[buyer, "3p", 1, 500n, "frozen"]]);
  expect(await missedBy(d)).toEqual([]);
  expect(await missedBy(o)).toEqual([]);
  expect((await matrixOf(database.db, f2, "3p", 1)).missed).toBe(500n);

  // r never buys: their partner's purchase passes them by as not_active, once per level bought.
  const r = await member(top);
  const q = await member(r);
  const gone = await member(r);
  await buy(q, "3p"); // receiver(q) is top, slot 3: top's cycle completes, up to system
  await buy(q, "3p", 2); // nobody above has level 2
  expect(await missedBy(r)).toEqual([
    [q, "3p", 1, 500n, "not_active"],
    [q, "3p", 2, 1_000n, "not_active"],
  ]);
  // ...but not once deleted; and a referrer with the level misses nothing.
  await run(database.db, (tx) => deleteUser(tx, r));
  await buy(gone, "3p");
  expect(await missedBy(r)).toHaveLength(2);
  await buy(await member(top), "3p");
  expect(await missedBy(top)).toEqual([]);
});

test("missed earnings: an unfreeze records the frozen users its walk passes, with the unfreeze price", async () => {
  const top = await member(null);
  const f = await member(top);
  const u = await member(f);
  for (const id of [top, f, u]) await buy(id, "3p");
  await freeze(f, u);
  const preview = await previewUnfreeze(database.db, u, "3p", 1);
  expect([preview.action, preview.receiver?.id, preview.matrix, preview.amount]).toEqual(["unfreeze", top, null, 250n]);
  expect(await run(database.db, (tx) => unfreezeLevel(tx, u, "3p", 1))).toEqual({ payee: top, amount: 250n, missed: [{ userId: f, reason: "frozen" }] });
  expect(await missedBy(f)).toEqual([[u, "3p", 1, 250n, "frozen"]]);
});

test("missed earnings: nothing is recorded when the amount moved is 0", async () => {
  await database.db.execute(sql`UPDATE program_levels SET cost = 0, unfreeze_cost = 0 WHERE program = '3p' AND level = 1`);
  try {
    const top = await member(null);
    const f = await member(top);
    const u = await member(f);
    for (const id of [top, f, u]) await buy(id, "3p", 1, 0n);
    await freeze(f, u);
    const idle = await member(f);
    await buy(await member(idle), "3p", 1, 0n); // idle has no level; f is frozen
    await run(database.db, (tx) => unfreezeLevel(tx, u, "3p", 1));
    expect([await missedBy(f), await missedBy(idle)]).toEqual([[], []]);
  } finally {
    await database.db.execute(sql`UPDATE program_levels SET cost = 500, unfreeze_cost = 250 WHERE program = '3p' AND level = 1`);
  }
});

test("previews refuse as the action would, but not for the balance, and change nothing", async () => {
  const top = await member(null);
  const broke = await joinUnder(database.db, top);
  await buy(top, "3p");
  expect(await refusalOf(previewPurchase(database.db, top, "3p", 1))).toBe("level_already_active");
  expect(await refusalOf(previewPurchase(database.db, top, "3p", 3))).toBe("level_locked");
  expect(await refusalOf(previewPurchase(database.db, top, "3p", 13))).toBe("level_not_found");
  expect(await refusalOf(previewUnfreeze(database.db, top, "3p", 1))).toBe("level_not_frozen");
  expect(await refusalOf(previewUnfreeze(database.db, top, "3p", 2))).toBe("level_not_frozen");
  // No money: the purchase would be refused, the preview still says where the money would go.
  const preview = await previewPurchase(database.db, broke, "3p", 1);
  expect([preview.matrix?.owner.id, preview.matrix?.slot, preview.matrix?.outcome, preview.receiver?.id]).toEqual([top, 1, "paid", top]);
  expect(await levelOf(database.db, top, "3p", 1)).toEqual(["active", 0, []]);
  expect(await levelOf(database.db, broke, "3p", 1)).toBeNull();
  await freeze(top);
  expect(await refusalOf(previewPurchase(database.db, top, "3p", 1))).toBe("level_already_frozen");
  // Above the top is the admin, who owns no level: the unfreeze would pay system.
  expect((await previewUnfreeze(database.db, top, "3p", 1)).receiver).toBeNull();
});
