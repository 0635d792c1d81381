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

const get = (user: { token: string }, path: string) => h.call("GET", `/api/user/${path}`, { token: user.token });
/** The fields a test can predict, newest first. */
const entries = (body: any) =>
  body.transactions.map((t: any) => [t.kind, t.amount, t.counterparty?.name ?? null, t.balanceAfter, t.program, t.level]);

test("GET /api/user/partners lists direct partners newest first with their team sizes, without deleted users", async () => {
  const user = await m.member(undefined, 0);
  const a = await m.member(user, 0, "A");
  const b = await m.member(user, 0, "B");
  const c = await m.member(user, 0, "C");
  const d = await m.member(user, 0, "D");
  const a1 = await m.member(a, 0);
  await m.member(a, 0);
  await m.member(a1, 0);
  expect((await h.call("DELETE", `/api/admin/users/${d.id}`, { token: h.adminToken })).status).toBe(200);

  const res = await get(user, "partners");
  expect(res.status).toBe(200);
  expect({ ...res.body, partners: res.body.partners.map((p: any) => [p._id, p.name, p.partners]) }).toEqual({
    partners: [
      [c.id, "C", 0],
      [b.id, "B", 0],
      [a.id, "A", 3],
    ],
    page: 1,
    totalPages: 1,
    directPartners: 3,
    totalPartners: 6,
  });
  expect(Number.isNaN(Date.parse(res.body.partners[0].joinedAt))).toBe(false);
});

test("GET /api/user/partners pages by 20", async () => {
  const user = await m.member(undefined, 0);
  const joined = [];
  for (let i = 0; i < 21; i++) joined.push((await m.member(user, 0)).id);
  const first = (await get(user, "partners?page=1")).body;
  const second = (await get(user, "partners?page=2")).body;
  expect([first.partners.length, second.partners.length, first.totalPages, second.page]).toEqual([20, 1, 2, 2]);
  expect(second.partners[0]._id).toBe(joined[0]); // the oldest comes last
  expect((await get(user, "partners?page=3")).body.partners).toEqual([]);
  expect((await get(user, "partners?page=0")).status).toBe(400);
});

test("GET /api/user/transactions reads the ledger from the caller's side, newest first", async () => {
  const top = await m.member(undefined, 100, "Top");
  const owner = await m.member(top, 100, "Owner");
  const below = await m.member(owner, 100, "Below");
  const direct = await m.member(top, 100, "Direct");
  await m.bought(top, "6p", 1); // system
  await m.bought(owner, "6p", 1); // top's slot 1: passed up to system
  await m.bought(below, "6p", 1); // owner's slot 1: passed up to top's slot 2
  await m.bought(direct, "6p", 1); // top's slot 3: paid
  const gift = (from: { token: string }, to: { email: string }, amount: number) =>
    h.call("POST", "/api/user/gift", { token: from.token, body: { amount, recipientEmail: to.email } });
  expect((await gift(top, direct, 10)).status).toBe(200);
  expect((await gift(direct, top, 3)).status).toBe(200);
  expect((await h.call("POST", `/api/admin/users/${top.id}/gift`, { token: h.adminToken, body: { amount: 7 } })).status).toBe(200);
  const asked = await h.call("POST", "/api/user/withdraw", { token: top.token, body: { accountType: "USDT TRC20", accountNumber: "TTopOut", amount: 20 } });
  expect(asked.status).toBe(201);
  const [request] = (await h.call("GET", "/api/admin/withdrawals?status=pending&search=TTopOut", { token: h.adminToken })).body;
  expect((await h.call("PUT", `/api/admin/withdrawals/${request._id}`, { token: h.adminToken, body: { status: "accepted" } })).status).toBe(200);

  const res = await get(top, "transactions");
  expect([res.status, res.body.page, res.body.totalPages]).toEqual([200, 1, 1]);
  expect(entries(res.body)).toEqual([
    ["withdrawal", -18.4, null, 85, null, null],
    ["fee", -1.6, "System", 103.4, null, null],
    ["gift_in", 7, "System", 105, null, null],
    ["gift_in", 3, "Direct", 98, null, null],
    ["gift_out", -10, "Direct", 95, null, null],
    ["earning", 5, "Direct", 105, "6p", 1],
    ["pass_up", 5, "Below", 100, "6p", 1],
    ["purchase", -5, "System", 95, "6p", 1],
    ["deposit", 100, null, 100, null, null],
  ]);
  const [withdrawal, fee] = res.body.transactions;
  expect([withdrawal.requestId, fee.requestId]).toEqual([request._id, request._id]);
  expect(typeof res.body.transactions.at(-1).requestId).toBe("string");
  expect(Number.isNaN(Date.parse(withdrawal.createdAt))).toBe(false);
  expect(Number(withdrawal.id)).toBeGreaterThan(Number(fee.id));
  await h.checkLedger();
});

test("GET /api/user/transactions shows an unfreeze as paid by the frozen user and earned by its receiver", async () => {
  const top = await m.member(undefined, 100, "Top");
  const owner = await m.member(top, 100, "Owner");
  await m.bought(top, "3p", 1);
  await m.bought(owner, "3p", 1);
  for (let i = 0; i < 6; i++) await m.bought(await m.member(owner), "3p", 1);
  expect((await m.unfreeze(owner, "3p", 1)).status).toBe(200);

  expect(entries((await get(owner, "transactions")).body)[0]).toEqual(["unfreeze", -2.5, "Top", 112.5, "3p", 1]);
  expect(entries((await get(top, "transactions")).body)[0]).toEqual(["earning", 2.5, "Owner", 107.5, "3p", 1]);
  await h.checkLedger();
});

test("GET /api/user/transactions pages by 20, newest first", async () => {
  const user = await m.member(undefined, 0);
  for (let i = 1; i <= 25; i++) {
    const res = await h.call("POST", `/api/admin/users/${user.id}/gift`, { token: h.adminToken, body: { amount: i } });
    expect(res.status).toBe(200);
  }
  const first = (await get(user, "transactions?page=1")).body;
  const second = (await get(user, "transactions?page=2")).body;
  expect([first.transactions.length, second.transactions.length, first.totalPages]).toEqual([20, 5, 2]);
  expect(first.transactions.map((t: any) => t.amount)).toEqual(Array.from({ length: 20 }, (_, i) => 25 - i));
  expect(second.transactions.map((t: any) => t.amount)).toEqual([5, 4, 3, 2, 1]);
  expect(second.transactions.at(-1).balanceAfter).toBe(1);
  expect((await get(user, "transactions?page=3")).body.transactions).toEqual([]);
});
