import { expect, test } from "bun:test";
import type { Harness } from "../../testing/harness";
import { useMoneyHarness } from "../../testing/useHarness";
import { matrixHelpers, stepsOf } from "../../testing/matrix";

// docs/rules.md#slot-outcomes and #lifetime-cycles through GET /api/user/matrix. Level 1 costs
// $5 in both programs, unfreezing it $2.50. The admin (root) never buys: a walk that reaches it
// pays `system`, shown to members as "System".
let h: Harness;
let m: ReturnType<typeof matrixHelpers>;
useMoneyHarness((made) => {
  h = made;
  m = matrixHelpers(made);
});

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const empty = (slot: number) => ({ slot, filled: false, user: null, filledAt: null, outcome: null, amount: null, to: null });
/** A filled slot as the answer has it, `filledAt` replaced by whether it is an ISO time. */
const filled = (slot: number, user: { id: string; name: string }, outcome: "paid" | "passed_up", to: string | null = null, amount = 5) => ({
  slot,
  filled: true,
  user: { _id: user.id, name: user.name },
  filledAt: true,
  outcome,
  amount,
  to: to === null ? null : { name: to },
});
const slotsOf = (view: any) => view.slots.map((s: any) => ({ ...s, filledAt: s.filledAt === null ? null : ISO.test(s.filledAt) }));

test("GET /api/user/matrix shows a locked level with empty slots, nothing earned or missed, and only its first cycle", async () => {
  const user = await m.member(undefined, 0);
  expect(await m.matrix(user, "6p", 2)).toEqual({
    program: "6p",
    level: 2,
    status: "locked",
    slotCount: 6,
    cycles: 0,
    slots: [1, 2, 3, 4, 5, 6].map(empty),
    earned: 0,
    cycle: 1,
    cyclesCompleted: 0,
    missed: 0,
    unfreezeCost: 5,
  });
  expect(await m.matrix(user, "6p", 2, 1)).toEqual(await m.matrix(user, "6p", 2));
  const beyond = await h.call("GET", "/api/user/matrix/6p/2?cycle=2", { token: user.token });
  expect([beyond.status, beyond.body]).toEqual([404, { msg: "Cycle not found.", code: "cycle_not_found" }]);
  // Any whole number past the current cycle, however large, is a cycle not found.
  for (const beyondAll of ["1000001", "9007199254740991"]) {
    expect((await h.call("GET", `/api/user/matrix/6p/2?cycle=${beyondAll}`, { token: user.token })).body.code).toBe("cycle_not_found");
  }
  // Decimal digits only: what JavaScript would read as 1 in other spellings is no cycle number.
  for (const bad of ["0", "-1", "1.5", "abc", "0x1", "1e0", "1.0", "%201%20", "+1", "", "99999999999999999"]) {
    const res = await h.call("GET", `/api/user/matrix/6p/2?cycle=${bad}`, { token: user.token });
    expect([bad, res.status, res.body]).toEqual([bad, 400, { msg: "Cycle must be a whole number from 1.", code: "validation" }]);
  }
  expect((await h.call("GET", "/api/user/partners?page=2.0", { token: user.token })).status).toBe(400);
  expect((await h.call("GET", "/api/user/matrix/6p/0x2", { token: user.token })).status).toBe(404);
});

test("GET /api/user/matrix names who fills each slot of the current cycle, when, what it paid, and what the owner earned", async () => {
  const owner = await m.member(undefined, 100, "Owner");
  const ann = await m.member(owner, 100, "Ann");
  const bob = await m.member(owner, 100, "Bob");
  await m.bought(owner, "3p", 1);
  const before = Date.now();
  await m.bought(ann, "3p", 1);
  await m.bought(bob, "3p", 1);

  const view = await m.matrix(owner, "3p", 1);
  expect({ ...view, slots: slotsOf(view) }).toEqual({
    program: "3p",
    level: 1,
    status: "active",
    slotCount: 3,
    cycles: 0,
    slots: [filled(1, ann, "paid"), filled(2, bob, "paid"), empty(3)],
    earned: 10,
    cycle: 1,
    cyclesCompleted: 0,
    missed: 0,
    unfreezeCost: 2.5,
  });
  // filledAt is when the placement happened (within this test, in order).
  const [first, second] = view.slots.map((s: any) => Date.parse(s.filledAt ?? "0"));
  expect(first).toBeGreaterThanOrEqual(before - 1000);
  expect(second).toBeGreaterThanOrEqual(first);

  // A new cycle starts empty; earnings keep counting across cycles.
  const cid = await m.member(owner, 100, "Cid");
  await m.bought(cid, "3p", 1);
  const dee = await m.member(owner, 100, "Dee");
  await m.bought(dee, "3p", 1);
  const next = await m.matrix(owner, "3p", 1);
  expect([next.cycles, next.cycle, next.cyclesCompleted]).toEqual([1, 2, 1]);
  expect(next.slots.map((s: any) => s.user)).toEqual([{ _id: dee.id, name: "Dee" }, null, null]);
  expect(next.earned).toBe(15);
  // The completed cycle is still there as cycle 1: Cid's slot 3 passed the money up, and with
  // nobody above the owner holding the level, it went to the platform.
  expect(slotsOf(await m.matrix(owner, "3p", 1, 1))).toEqual([filled(1, ann, "paid"), filled(2, bob, "paid"), filled(3, cid, "passed_up", "System")]);
  expect((await h.call("GET", "/api/user/matrix/3p/1?cycle=3", { token: owner.token })).status).toBe(404);
  // The buyer's own view of the same level shows their own (empty) matrix.
  expect((await m.matrix(dee, "3p", 1)).slots.every((s: any) => !s.filled)).toBe(true);
  await h.checkLedger();
});

test("3P: a completed cycle browsed as cycle 1 says who took each slot, when, what it paid, and who got the passed-up slot 3", async () => {
  const top = await m.member(undefined, 100, "Top");
  const owner = await m.member(top, 100, "Owner");
  const [a, b, c] = [await m.member(owner, 100, "A"), await m.member(owner, 100, "B"), await m.member(owner, 100, "C")];
  await m.bought(top, "3p", 1);
  await m.bought(owner, "3p", 1); // top's slot 1
  for (const x of [a, b, c]) await m.bought(x, "3p", 1); // c: owner's slot 3, passed up to top's slot 2

  const current = await m.matrix(owner, "3p", 1);
  expect([current.status, current.cycle, current.cyclesCompleted, current.cycles, current.earned]).toEqual(["active", 2, 1, 1, 10]);
  expect(slotsOf(current)).toEqual([empty(1), empty(2), empty(3)]);
  const first = await m.matrix(owner, "3p", 1, 1);
  expect({ ...first, slots: slotsOf(first) }).toEqual({
    ...current,
    slots: [filled(1, a, "paid"), filled(2, b, "paid"), filled(3, c, "passed_up", "Top")],
    cycle: 1,
  });
  const times = first.slots.map((s: any) => Date.parse(s.filledAt));
  expect([...times].sort((x, y) => x - y)).toEqual(times);
  expect(slotsOf(await m.matrix(top, "3p", 1))).toEqual([filled(1, owner, "paid"), filled(2, c, "paid"), empty(3)]);
});

test("6P: slots 1 to 6 say which were paid and where each passed-up slot went, the platform included", async () => {
  const top = await m.member(undefined, 100, "Top");
  const owner = await m.member(top, 100, "Owner");
  const b = [];
  for (let i = 1; i <= 6; i++) b.push(await m.member(owner, 100, `B${i}`));
  await m.bought(top, "6p", 1); // system
  await m.bought(owner, "6p", 1); // top's slot 1: passed up, nobody above: system
  for (const x of b) await m.bought(x, "6p", 1);
  // B1: owner's slot 1, passed up to top's slot 2 (paid). B2-B5: paid. B6: owner's slot 6
  // completes the cycle, passed up to top's slot 3 (paid).
  expect(await stepsOf(h.db, b[5]!.id)).toEqual([
    [owner.id, 6, 1, "pass_up"],
    [top.id, 3, 1, "paid"],
  ]);

  const cycle1 = await m.matrix(owner, "6p", 1, 1);
  expect(slotsOf(cycle1)).toEqual([
    filled(1, b[0]!, "passed_up", "Top"),
    filled(2, b[1]!, "paid"),
    filled(3, b[2]!, "paid"),
    filled(4, b[3]!, "paid"),
    filled(5, b[4]!, "paid"),
    filled(6, b[5]!, "passed_up", "Top"),
  ]);
  expect([cycle1.cycle, cycle1.cyclesCompleted, cycle1.cycles, cycle1.earned]).toEqual([1, 1, 1, 20]);
  const above = await m.matrix(top, "6p", 1);
  expect(slotsOf(above)).toEqual([filled(1, owner, "passed_up", "System"), filled(2, b[0]!, "paid"), filled(3, b[5]!, "paid"), empty(4), empty(5), empty(6)]);
  expect([above.cycle, above.cyclesCompleted, above.earned]).toEqual([1, 0, 10]);
});

test("cycles keep their lifetime numbers across a freeze and an unfreeze", async () => {
  const top = await m.member(undefined, 100, "Top");
  const owner = await m.member(top, 100, "Owner");
  const p = [];
  for (let i = 1; i <= 7; i++) p.push(await m.member(owner, 100, `P${i}`));
  await m.bought(top, "3p", 1);
  await m.bought(owner, "3p", 1); // top's slot 1
  for (const x of p.slice(0, 6)) await m.bought(x, "3p", 1);
  // P3 completed cycle 1 and went up to top's slot 2; P6 completed cycle 2 (the owner froze) and
  // went up to top's slot 3, which completed top's cycle: on up to the platform.
  const cycle1 = [filled(1, p[0]!, "paid"), filled(2, p[1]!, "paid"), filled(3, p[2]!, "passed_up", "Top")];
  const cycle2 = [filled(1, p[3]!, "paid"), filled(2, p[4]!, "paid"), filled(3, p[5]!, "passed_up", "System")];

  // Frozen: the last completed cycle is shown; there is no cycle 3 yet.
  const frozen = await m.matrix(owner, "3p", 1);
  expect([frozen.status, frozen.cycle, frozen.cyclesCompleted, frozen.cycles, frozen.earned, frozen.unfreezeCost]).toEqual(["frozen", 2, 2, 2, 20, 2.5]);
  expect(slotsOf(frozen)).toEqual(cycle2);
  expect(slotsOf(await m.matrix(owner, "3p", 1, 1))).toEqual(cycle1);
  expect((await h.call("GET", "/api/user/matrix/3p/1?cycle=3", { token: owner.token })).body.code).toBe("cycle_not_found");

  // Unfrozen: the level starts again (cycles 0), but the numbering goes on: cycle 3.
  expect((await m.unfreeze(owner, "3p", 1)).status).toBe(200);
  const restarted = await m.matrix(owner, "3p", 1);
  expect([restarted.status, restarted.cycle, restarted.cyclesCompleted, restarted.cycles]).toEqual(["active", 3, 2, 0]);
  expect(slotsOf(restarted)).toEqual([empty(1), empty(2), empty(3)]);
  await m.bought(p[6]!, "3p", 1);
  // The placement row counts within the activation (cycle 1); the member sees lifetime cycle 3.
  expect(await stepsOf(h.db, p[6]!.id)).toEqual([[owner.id, 1, 1, "paid"]]);
  expect(slotsOf(await m.matrix(owner, "3p", 1))).toEqual([filled(1, p[6]!, "paid"), empty(2), empty(3)]);
  expect(slotsOf(await m.matrix(owner, "3p", 1, 1))).toEqual(cycle1);
  expect(slotsOf(await m.matrix(owner, "3p", 1, 2))).toEqual(cycle2);
  expect((await m.matrix(owner, "3p", 1, 3)).cycle).toBe(3);
  expect((await h.call("GET", "/api/user/matrix/3p/1?cycle=4", { token: owner.token })).status).toBe(404);
  await h.checkLedger();
});
