import { expect, test } from "bun:test";
import { and, count, eq } from "drizzle-orm";
import { EXTERNAL, transfer } from "../../core/ledger";
import { inTransaction } from "../../core/tx";
import { deposits, withdrawals } from "../../db/schema";
import type { Harness } from "../../testing/harness";
import { useMoneyHarness } from "../../testing/useHarness";
import { randomTronAddress } from "../../testing/chainIds";

// docs/rules.md#limits: at most 10 pending deposits and 3 pending withdrawals per member.
let h: Harness;
useMoneyHarness((made) => (h = made));

const tooManyDeposits = {
  status: 409,
  body: {
    msg: "You already have 10 deposit requests waiting for approval. Please wait until an admin has decided one before submitting another.",
    code: "too_many_pending_deposits",
  },
};
const tooManyWithdrawals = {
  status: 409,
  body: {
    msg: "You already have 3 withdrawal requests waiting for approval. Please wait until an admin has decided one before requesting another.",
    code: "too_many_pending_withdrawals",
  },
};

/** Money in, straight through the ledger (cents). */
const credit = (userId: string, amount: bigint) => inTransaction(h.db, (tx) => transfer(tx, { from: EXTERNAL, to: userId, amount, kind: "deposit" }));

/** A well-formed TRC20 deposit: a real TRON address and a fresh 64-hex transaction ID. */
const SENDER = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const txHash = () => (crypto.randomUUID() + crypto.randomUUID()).replaceAll("-", "");
const depositBody = (amount = 5) => ({ address: SENDER, transactionId: txHash(), amount });
const depositRequest = (token: string, amount = 5) => h.call("POST", "/api/user/deposit", { token, body: depositBody(amount) });

/** Submits a deposit request and answers its id, found through the admin list. */
async function depositId(token: string) {
  const body = depositBody();
  expect((await h.call("POST", "/api/user/deposit", { token, body })).status).toBe(201);
  const [found] = (await h.call("GET", `/api/admin/deposits?search=${body.transactionId}`, { token: h.adminToken })).body;
  return found._id as string;
}
const withdrawalRequest = (token: string, amount = 1) =>
  h.call("POST", "/api/user/withdraw", { token, body: { accountType: "USDT TRC20", accountNumber: randomTronAddress(), amount } });

async function pending(table: typeof deposits | typeof withdrawals, userId: string) {
  const t = table as typeof deposits;
  const [row] = await h.db.select({ n: count() }).from(t).where(and(eq(t.userId, userId), eq(t.status, "pending")));
  return Number(row!.n);
}

test("a flood of deposit requests stops at 10 pending: the rest are refused with 409 'too_many_pending_deposits' and stored nowhere", async () => {
  const member = await h.signUp();
  const answers = [];
  for (let i = 0; i < 30; i++) answers.push(await depositRequest(member.token));
  expect(answers.slice(0, 10).every((a) => a.status === 201)).toBe(true);
  for (const refused of answers.slice(10)) expect({ status: refused.status, body: refused.body }).toEqual(tooManyDeposits);
  expect(await pending(deposits, member.id)).toBe(10);
  // Another member is not held back by this one.
  const other = await h.signUp();
  expect((await depositRequest(other.token)).status).toBe(201);
});

test("a decided deposit frees its place: accepted or declined, only pending requests count", async () => {
  const member = await h.signUp();
  const ids = [];
  for (let i = 0; i < 10; i++) ids.push(await depositId(member.token));
  expect(await depositRequest(member.token)).toMatchObject(tooManyDeposits);
  expect((await h.decide("deposits", ids[0]!, "accepted")).status).toBe(200);
  expect((await depositRequest(member.token)).status).toBe(201);
  expect(await depositRequest(member.token)).toMatchObject(tooManyDeposits);
  expect((await h.decide("deposits", ids[1]!, "declined")).status).toBe(200);
  expect((await depositRequest(member.token)).status).toBe(201);
  expect(await depositRequest(member.token)).toMatchObject(tooManyDeposits);
  expect(await pending(deposits, member.id)).toBe(10);
});

test("a refused deposit request is replayed as refused under its Idempotency-Key, even once there is room", async () => {
  const member = await h.signUp();
  const ids = [];
  for (let i = 0; i < 10; i++) ids.push(await depositId(member.token));
  const key = { "Idempotency-Key": `limit-${crypto.randomUUID()}` };
  const body = depositBody();
  const first = await h.call("POST", "/api/user/deposit", { token: member.token, headers: key, body });
  expect(first).toMatchObject(tooManyDeposits);
  expect((await h.decide("deposits", ids[0]!, "declined")).status).toBe(200);
  const again = await h.call("POST", "/api/user/deposit", { token: member.token, headers: key, body });
  expect(again).toMatchObject(tooManyDeposits);
  expect(again.headers.get("Idempotent-Replayed")).toBe("true");
  // A new action (a new key) goes through.
  expect((await h.call("POST", "/api/user/deposit", { token: member.token, headers: { "Idempotency-Key": crypto.randomUUID() }, body })).status).toBe(201);
});

test("withdrawal requests stop at 3 pending with 409 'too_many_pending_withdrawals', holding nothing more; a decision frees a place", async () => {
  const member = await h.signUp();
  await credit(member.id, 10_000n);
  for (let i = 0; i < 3; i++) expect((await withdrawalRequest(member.token, 10)).status).toBe(201);
  expect(await withdrawalRequest(member.token, 10)).toMatchObject(tooManyWithdrawals);
  expect(await h.me(member.token)).toMatchObject({ balance: 100, pendingWithdrawalsTotal: 30 });
  expect(await pending(withdrawals, member.id)).toBe(3);
  // Beyond the available balance the balance speaks first, as before.
  expect(await withdrawalRequest(member.token, 80)).toMatchObject({ status: 400, body: { code: "exceeds_available" } });
  const [oldest] = (await h.call("GET", `/api/admin/withdrawals?status=pending&search=${encodeURIComponent(member.email)}`, { token: h.adminToken })).body;
  expect((await h.decide("withdrawals", oldest._id, "declined")).status).toBe(200);
  expect((await withdrawalRequest(member.token, 10)).status).toBe(201);
  expect(await withdrawalRequest(member.token, 10)).toMatchObject(tooManyWithdrawals);
  expect(await h.me(member.token)).toMatchObject({ balance: 100, pendingWithdrawalsTotal: 30 });
});
