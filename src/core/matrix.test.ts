import { expect, test } from "bun:test";
import type { Database } from "../db/client";
import type { Program } from "../db/schema";
import { balanceOf, credit, joinUnder, levelOf, refusalOf, run } from "../testing/domain";
import { useDatabase } from "../testing/useHarness";
import { SYSTEM } from "./ledger";
import { purchaseLevel, slotRule, unfreezeLevel } from "./matrix";

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
async function buy(buyer: string, program: Program, level = 1) {
  const result = await run(database.db, (tx) => purchaseLevel(tx, buyer, program, level));
  expect(result.cost).toBe(500n * 2n ** BigInt(level - 1));
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
  expect(await run(database.db, (tx) => unfreezeLevel(tx, owner, "3p", 1))).toEqual({ payee: top, amount: 250n });
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
  expect(await run(database.db, (tx) => unfreezeLevel(tx, top, "3p", 1))).toEqual({ payee: SYSTEM, amount: 250n });
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
