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

const levelStatus = async (user: { token: string }, program: string, level: number) =>
  (await h.me(user.token)).packages[program].levels[level - 1].status as string;

async function withdraw(user: { token: string }, amount: number) {
  const res = await h.call("POST", "/api/user/withdraw", { token: user.token, body: { accountType: "USDT TRC20", accountNumber: "TA9pkx4DFxrEw8JZzUtyDrh2uAat1LDuJL", amount } });
  expect(res.status).toBe(201);
}

/** A user whose 3P level 1 is frozen (six buyers below filled two cycles). */
async function frozenOwner() {
  const owner = await m.member();
  await m.bought(owner, "3p", 1);
  for (let i = 0; i < 6; i++) await m.bought(await m.member(owner), "3p", 1);
  expect(await levelStatus(owner, "3p", 1)).toBe("frozen");
  return owner;
}

test("POST /api/user/packages/purchase refuses a level whose previous level is locked", async () => {
  const user = await m.member();
  expect((await m.buy(user, "3p", 2)).body).toEqual({ msg: "Please purchase previous levels first.", code: "level_locked" });
  expect((await m.buy(user, "6p", 3)).status).toBe(400);
  await m.bought(user, "3p", 1);
  await m.bought(user, "3p", 2);
  expect((await m.buy(user, "6p", 2)).body).toEqual({ msg: "Please purchase previous levels first.", code: "level_locked" });
  expect(await m.balance(user)).toBe(85);
  expect([await levelStatus(user, "3p", 2), await levelStatus(user, "6p", 2)]).toEqual(["active", "locked"]);
  await h.checkLedger();
});

test("POST /api/user/packages/purchase refuses a level that is already active or frozen", async () => {
  const user = await m.member();
  await m.bought(user, "6p", 1);
  const again = await m.buy(user, "6p", 1);
  expect([again.status, again.body]).toEqual([400, { msg: "This level is already active.", code: "level_already_active" }]);
  expect(await m.balance(user)).toBe(95);

  const owner = await frozenOwner();
  const before = await m.balance(owner);
  expect((await m.buy(owner, "3p", 1)).body).toEqual({ msg: "This level is already frozen.", code: "level_already_frozen" });
  expect(await m.balance(owner)).toBe(before);
  await h.checkLedger();
});

test("POST /api/user/packages/purchase refuses when the balance is short and changes nothing", async () => {
  const user = await m.member(undefined, 4.99);
  const res = await m.buy(user, "3p", 1);
  expect([res.status, res.body]).toEqual([400, { msg: "Insufficient balance.", code: "insufficient_balance" }]);
  expect([await m.balance(user), await levelStatus(user, "3p", 1)]).toEqual([4.99, "locked"]);
  await h.checkLedger();
});

test("POST /api/user/packages/purchase counts money held by a pending withdrawal as unavailable", async () => {
  const user = await m.member(undefined, 10);
  await withdraw(user, 6); // available: 4
  expect((await m.buy(user, "3p", 1)).body).toEqual({ msg: "Insufficient balance.", code: "insufficient_balance" });
  expect(await levelStatus(user, "3p", 1)).toBe("locked");
  await h.fund(user.token, 1); // available: 5, exactly the cost
  await m.bought(user, "3p", 1);
  const me = await h.me(user.token);
  expect([me.balance, me.pendingWithdrawalsTotal]).toEqual([6, 6]);
  await h.checkLedger();
});

test("POST /api/user/packages/unfreeze refuses a level that is not frozen", async () => {
  const user = await m.member();
  expect((await m.unfreeze(user, "3p", 1)).body).toEqual({ msg: "This level is not frozen.", code: "level_not_frozen" });
  await m.bought(user, "3p", 1);
  const res = await m.unfreeze(user, "3p", 1);
  expect([res.status, res.body]).toEqual([400, { msg: "This level is not frozen.", code: "level_not_frozen" }]);
  expect(await m.balance(user)).toBe(95);
  await h.checkLedger();
});

test("POST /api/user/packages/unfreeze refuses when the available balance is below unfreezeCost", async () => {
  const owner = await frozenOwner(); // balance 115
  await withdraw(owner, 113); // available: 2, unfreezeCost 2.50
  expect((await m.unfreeze(owner, "3p", 1)).body).toEqual({ msg: "Insufficient balance.", code: "insufficient_balance" });
  expect([await levelStatus(owner, "3p", 1), await m.balance(owner)]).toEqual(["frozen", 115]);
  await h.checkLedger();
});

test("unknown programs and levels answer 404 on purchase, unfreeze and matrix", async () => {
  const user = await m.member(undefined, 0);
  for (const path of ["packages/purchase/9p/1", "packages/purchase/3p/13", "packages/unfreeze/6p/0", "packages/purchase/3p/abc"]) {
    const res = await h.call("POST", `/api/user/${path}`, { token: user.token });
    expect(res.status).toBe(404);
  }
  expect((await m.buy(user, "3p", 13)).body).toEqual({ msg: "Level not found.", code: "level_not_found" });
  expect((await h.call("GET", "/api/user/matrix/3p/13", { token: user.token })).status).toBe(404);
  expect((await h.call("GET", "/api/user/matrix/1p/1", { token: user.token })).status).toBe(404);
});

test("purchase, unfreeze and matrix need a signed-in user", async () => {
  expect((await h.call("POST", "/api/user/packages/purchase/3p/1")).status).toBe(401);
  expect((await h.call("POST", "/api/user/packages/unfreeze/3p/1")).status).toBe(401);
  expect((await h.call("GET", "/api/user/matrix/3p/1")).status).toBe(401);
});
