import { expect, test } from "bun:test";
import type { Harness } from "../../testing/harness";
import { useMoneyHarness } from "../../testing/useHarness";
import { matrixHelpers, stepsOf } from "../../testing/matrix";

// docs/rules.md#previews: GET .../purchase/:program/:level/preview and .../unfreeze/... say what
// the action would do now, and change nothing. Level 1 costs $5, unfreezing it $2.50.
let h: Harness;
let m: ReturnType<typeof matrixHelpers>;
useMoneyHarness((made) => {
  h = made;
  m = matrixHelpers(made);
});

const purchase = (program: string, level: number, receiver: string | null, matrix: [string, number, "paid" | "passed_up"] | null, amount = 5) => ({
  action: "purchase",
  program,
  level,
  amount,
  receiver: receiver === null ? null : { name: receiver },
  matrix: matrix && { owner: { name: matrix[0] }, slot: matrix[1], outcome: matrix[2] },
});

test("a purchase preview names the first matrix, its slot and outcome, and who is finally paid: what the purchase then does", async () => {
  const top = await m.member(undefined, 100, "Top");
  const owner = await m.member(top, 100, "Owner");
  const [b1, b2] = [await m.member(owner, 100, "B1"), await m.member(owner, 100, "B2")];

  // Nobody above the top holds the level: the platform.
  expect((await m.preview("purchase", top, "6p", 1)).body).toEqual(purchase("6p", 1, null, null));
  await m.bought(top, "6p", 1);
  expect(await stepsOf(h.db, top.id)).toEqual([[null, null, null, "system"]]);

  // The owner would take the top's slot 1, which passes up: to the platform.
  expect((await m.preview("purchase", owner, "6p", 1)).body).toEqual(purchase("6p", 1, null, ["Top", 1, "passed_up"]));
  await m.bought(owner, "6p", 1);
  expect(await stepsOf(h.db, owner.id)).toEqual([
    [top.id, 1, 1, "pass_up"],
    [null, null, null, "system"],
  ]);

  // B1 takes the owner's slot 1: passed up to the top's slot 2, who is paid.
  const before = [await m.balance(b1), await m.balance(top), (await m.matrix(owner, "6p", 1)).slots];
  const preview = await m.preview("purchase", b1, "6p", 1);
  expect([preview.status, preview.body]).toEqual([200, purchase("6p", 1, "Top", ["Owner", 1, "passed_up"])]);
  // The preview changed nothing.
  expect([await m.balance(b1), await m.balance(top), (await m.matrix(owner, "6p", 1)).slots]).toEqual(before);
  expect((await h.me(b1.token)).packages["6p"].levels[0].status).toBe("locked");
  await m.bought(b1, "6p", 1);
  expect(await stepsOf(h.db, b1.id)).toEqual([
    [owner.id, 1, 1, "pass_up"],
    [top.id, 2, 1, "paid"],
  ]);
  expect(await m.balance(top)).toBe(100);

  // B2: the owner's slot 2, paid.
  expect((await m.preview("purchase", b2, "6p", 1)).body).toEqual(purchase("6p", 1, "Owner", ["Owner", 2, "paid"]));
  await m.bought(b2, "6p", 1);
  expect(await stepsOf(h.db, b2.id)).toEqual([[owner.id, 2, 1, "paid"]]);
  await h.checkLedger();
});

test("a purchase preview refuses as the purchase would, but not for a short balance", async () => {
  const user = await m.member(undefined, 0, "Broke");
  const refused = async (program: string, level: number) => {
    const res = await m.preview("purchase", user, program, level);
    return [res.status, res.body];
  };
  expect(await refused("3p", 2)).toEqual([400, { msg: "Please purchase previous levels first.", code: "level_locked" }]);
  expect(await refused("3p", 13)).toEqual([404, { msg: "Level not found.", code: "level_not_found" }]);
  expect((await refused("9p", 1))[0]).toBe(404);
  // No money: the purchase would be refused, the preview still says where the money would go.
  expect(await refused("3p", 1)).toEqual([200, purchase("3p", 1, null, null)]);
  expect((await m.buy(user, "3p", 1)).body.code).toBe("insufficient_balance");

  await h.fund(user.token, 5);
  await m.bought(user, "3p", 1);
  expect(await refused("3p", 1)).toEqual([400, { msg: "This level is already active.", code: "level_already_active" }]);
  expect(await refused("3p", 2)).toEqual([200, purchase("3p", 2, null, null, 10)]);
  expect((await h.call("GET", "/api/user/packages/purchase/3p/1/preview")).status).toBe(401);
});

test("an unfreeze preview names receiver(user) and the price, refuses a level that is not frozen, and the unfreeze then pays that receiver", async () => {
  const top = await m.member(undefined, 100, "Top");
  const owner = await m.member(top, 100, "Owner");
  await m.bought(top, "3p", 1);
  await m.bought(owner, "3p", 1);
  const notFrozen = { msg: "This level is not frozen.", code: "level_not_frozen" };
  expect([(await m.preview("unfreeze", owner, "3p", 1)).body, (await m.preview("unfreeze", owner, "3p", 2)).body]).toEqual([notFrozen, notFrozen]);
  for (let i = 0; i < 6; i++) await m.bought(await m.member(owner), "3p", 1);
  expect((await m.buy(owner, "3p", 1)).body.code).toBe("level_already_frozen");
  expect((await m.preview("purchase", owner, "3p", 1)).body.code).toBe("level_already_frozen");

  const preview = await m.preview("unfreeze", owner, "3p", 1);
  expect([preview.status, preview.body]).toEqual([200, { action: "unfreeze", program: "3p", level: 1, amount: 2.5, receiver: { name: "Top" }, matrix: null }]);
  const topBefore = await m.balance(top);
  expect((await m.unfreeze(owner, "3p", 1)).status).toBe(200);
  expect(await m.balance(top)).toBe(topBefore + 2.5);
  expect((await m.preview("unfreeze", owner, "3p", 1)).body).toEqual(notFrozen);
  await h.checkLedger();
});
