import { expect, test } from "bun:test";
import type { Harness } from "../../testing/harness";
import { useMoneyHarness } from "../../testing/useHarness";
import { matrixHelpers } from "../../testing/matrix";

let h: Harness;
let m: ReturnType<typeof matrixHelpers>;
useMoneyHarness((made) => {
  h = made;
  m = matrixHelpers(made);
});

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

test("GET /api/user/matrix shows a locked level with empty slots and nothing earned", async () => {
  const user = await m.member(undefined, 0);
  expect(await m.matrix(user, "6p", 2)).toEqual({
    program: "6p",
    level: 2,
    status: "locked",
    slotCount: 6,
    cycles: 0,
    slots: [1, 2, 3, 4, 5, 6].map((slot) => ({ slot, filled: false, user: null, filledAt: null })),
    earned: 0,
  });
});

test("GET /api/user/matrix names who fills each slot of the current cycle, when, and what the owner earned", async () => {
  const owner = await m.member(undefined, 100, "Owner");
  const ann = await m.member(owner, 100, "Ann");
  const bob = await m.member(owner, 100, "Bob");
  await m.bought(owner, "3p", 1);
  const before = Date.now();
  await m.bought(ann, "3p", 1);
  await m.bought(bob, "3p", 1);

  const view = await m.matrix(owner, "3p", 1);
  expect({ ...view, slots: view.slots.map((s: any) => ({ ...s, filledAt: s.filledAt && ISO.test(s.filledAt) })) }).toEqual({
    program: "3p",
    level: 1,
    status: "active",
    slotCount: 3,
    cycles: 0,
    slots: [
      { slot: 1, filled: true, user: { _id: ann.id, name: "Ann" }, filledAt: true },
      { slot: 2, filled: true, user: { _id: bob.id, name: "Bob" }, filledAt: true },
      { slot: 3, filled: false, user: null, filledAt: null },
    ],
    earned: 10,
  });
  // filledAt is when the placement happened (within this test, in order).
  const [first, second] = view.slots.map((s: any) => Date.parse(s.filledAt ?? "0"));
  expect(first).toBeGreaterThanOrEqual(before - 1000);
  expect(second).toBeGreaterThanOrEqual(first);

  // A new cycle starts empty; earnings keep counting across cycles.
  await m.bought(await m.member(owner, 100, "Cid"), "3p", 1);
  const dee = await m.member(owner, 100, "Dee");
  await m.bought(dee, "3p", 1);
  const next = await m.matrix(owner, "3p", 1);
  expect(next.cycles).toBe(1);
  expect(next.slots.map((s: any) => s.user)).toEqual([{ _id: dee.id, name: "Dee" }, null, null]);
  expect(next.earned).toBe(15);
  // The buyer's own view of the same level shows their own (empty) matrix.
  expect((await m.matrix(dee, "3p", 1)).slots.every((s: any) => !s.filled)).toBe(true);
  await h.checkLedger();
});
