import { expect, test } from "bun:test";
import { EXTERNAL, SYSTEM, transfer } from "../../core/ledger";
import { inTransaction } from "../../core/tx";
import { MAX_AMOUNT, MAX_BALANCE } from "../../shared/constants";
import type { Harness } from "../../testing/harness";
import { useMoneyHarness } from "../../testing/useHarness";
import { randomTxId, TRON_SENDER } from "../../testing/chainIds";
import { matrixHelpers } from "../../testing/matrix";
import { eq } from "drizzle-orm";
import { placements, userLevels } from "../../db/schema";

// docs/rules.md#money: one amount is at most 1,000,000.00 in every field, and no balance passes
// MAX_BALANCE; both are refusals (400), never a 500. The harness checks the ledger after each test.
// Admin gifts up to the largest amount: ADMIN_GIFT_MAX raised to it (its own test is in gifts.test.ts).
let h: Harness;
useMoneyHarness((made) => (h = made), { config: { adminGiftMax: MAX_AMOUNT } });

const TOO_MUCH = "Amount must be at most 1,000,000 USDT.";
const LIMIT = { msg: "This would take a balance past the maximum of 100,000,000,000 USDT.", code: "balance_limit" };

test("every amount field refuses more than 1,000,000.00 with 400 'validation' and a clear message", async () => {
  const user = await h.signUp();
  const other = await h.signUp();
  await h.fund(user.token, 100);
  const over = ["1000000.01", 1_000_001, "9999999999999"];
  for (const amount of over) {
    // A withdrawal above a small balance hears the spec's sentence first.
    const withdrawal = await h.call("POST", "/api/user/withdraw", { token: user.token, body: { accountType: "USDT TRC20", accountNumber: "TAF8dttxK5iPKbvYC626aDBytrWANpLRXp", amount } });
    expect({ amount, status: withdrawal.status, body: withdrawal.body }).toEqual({
      amount,
      status: 400,
      body: { msg: "Withdrawal amount cannot exceed your available balance.", code: "exceeds_available", field: "amount" },
    });
    const answers = [
      await h.call("POST", "/api/user/deposit", { token: user.token, body: { address: TRON_SENDER, transactionId: randomTxId(), amount } }),
      await h.call("POST", "/api/user/gift", { token: user.token, body: { amount, recipientEmail: other.email } }),
      await h.call("POST", `/api/admin/users/${user.id}/gift`, { token: h.adminToken, body: { amount } }),
    ];
    for (const res of answers) expect({ amount, status: res.status, body: res.body }).toEqual({ amount, status: 400, body: { msg: TOO_MUCH, code: "validation" } });
    const cost = await h.call("PATCH", "/api/programs/3p/levels/1", { token: h.adminToken, body: { cost: amount, unfreezeCost: 1 } });
    expect(cost).toMatchObject({ status: 400, body: { msg: "Cost must be at most 1,000,000 USDT.", code: "validation" } });
    const unfreeze = await h.call("PATCH", "/api/programs/3p/levels/1", { token: h.adminToken, body: { cost: 1, unfreezeCost: amount } });
    expect(unfreeze).toMatchObject({ status: 400, body: { msg: "Unfreeze cost must be at most 1,000,000 USDT.", code: "validation" } });
  }
  // Exactly 1,000,000.00 is an amount like any other.
  expect((await h.call("POST", `/api/admin/users/${user.id}/gift`, { token: h.adminToken, body: { amount: "1000000.00" } })).status).toBe(200);
  expect((await h.me(user.token)).balance).toBe(1_000_100);
  // Once the balance covers it, a withdrawal is held to the same limit, and nothing is held.
  const large = await h.call("POST", "/api/user/withdraw", { token: user.token, body: { accountType: "USDT TRC20", accountNumber: "TAF8dttxK5iPKbvYC626aDBytrWANpLRXp", amount: "1000000.01" } });
  expect(large).toMatchObject({ status: 400, body: { msg: TOO_MUCH, code: "validation" } });
  expect(await h.me(user.token)).toMatchObject({ balance: 1_000_100, pendingWithdrawalsTotal: 0 });
  // Give it back, so the operator's account is where the next test finds it.
  await inTransaction(h.db, (tx) => transfer(tx, { from: user.id, to: SYSTEM, amount: MAX_AMOUNT, kind: "gift" }));
});

test("repeated large admin gifts reach the maximum balance and are refused with 400 'balance_limit', never a 500", async () => {
  const user = await h.signUp();
  // Most of the way there in one move, as a deposit (the API would need 100,000 of the largest amount).
  const start = MAX_BALANCE - 3n * MAX_AMOUNT - 50n;
  await inTransaction(h.db, (tx) => transfer(tx, { from: EXTERNAL, to: user.id, amount: start, kind: "deposit" }));
  const gift = (amount: string) => h.call("POST", `/api/admin/users/${user.id}/gift`, { token: h.adminToken, body: { amount } });

  for (let i = 0; i < 3; i++) expect((await gift("1000000")).status).toBe(200);
  for (let i = 0; i < 3; i++) expect(await gift("1000000")).toMatchObject({ status: 400, body: LIMIT });
  expect(await gift("0.51")).toMatchObject({ status: 400, body: LIMIT });
  expect((await gift("0.50")).status).toBe(200);
  expect((await h.account(user.id)).balance).toBe(MAX_BALANCE);
  expect(await gift("0.01")).toMatchObject({ status: 400, body: LIMIT });
  // Full is full for every kind of credit: a deposit accepted, a member's gift.
  const deposit = await h.deposit(user.token, 1);
  expect(await h.decide("deposits", deposit, "accepted")).toMatchObject({ status: 400, body: LIMIT });
  const friend = await h.signUp();
  await h.fund(friend.token, 5);
  expect(await h.call("POST", "/api/user/gift", { token: friend.token, body: { amount: 1, recipientEmail: user.email } })).toMatchObject({ status: 400, body: LIMIT });
  // The refusals moved nothing and logged nothing; the harness checks the ledger after the test.
  expect((await h.account(user.id)).balance).toBe(MAX_BALANCE);
  expect((await h.account(friend.id)).balance).toBe(500n);
  expect(h.logged).toEqual([]);

  // Spending brings it under the maximum again.
  expect(await h.decide("deposits", deposit, "declined")).toMatchObject({ status: 200 });
  await inTransaction(h.db, (tx) => transfer(tx, { from: user.id, to: EXTERNAL, amount: 100n, kind: "withdrawal" }));
  expect((await gift("1.00")).status).toBe(200);
  await inTransaction(h.db, async (tx) => {
    await transfer(tx, { from: user.id, to: EXTERNAL, amount: start, kind: "withdrawal" });
    await transfer(tx, { from: user.id, to: SYSTEM, amount: MAX_BALANCE - start, kind: "gift" });
  });
});

test("a purchase whose payee is at the maximum balance is refused with 400 'balance_limit' and leaves nothing behind, though its money statement went out with the COMMIT", async () => {
  const m = matrixHelpers(h);
  const referrer = await m.member();
  await m.bought(referrer, "3p", 1);
  const buyer = await m.member(referrer, 20);
  // The referrer's balance to the maximum: from `external` as far as its own floor (minus the
  // maximum) allows, the rest from `system`.
  const full = MAX_BALANCE - (await h.account(referrer.id)).balance;
  const fromExternal = MAX_BALANCE + (await h.account(EXTERNAL)).balance;
  await inTransaction(h.db, async (tx) => {
    await transfer(tx, { from: EXTERNAL, to: referrer.id, amount: fromExternal, kind: "deposit" });
    await transfer(tx, { from: SYSTEM, to: referrer.id, amount: full - fromExternal, kind: "admin_gift" });
  });
  const noticesBefore = (await h.call("GET", "/api/user/notifications", { token: referrer.token })).body;

  // The activation finds the buyer able to pay; the money statement, sent last with the events
  // read and the COMMIT (sendWithCommit, src/core/tx.ts), is refused: the whole purchase is undone.
  const key = crypto.randomUUID();
  const buy = (headers: Record<string, string>) => h.call("POST", "/api/user/packages/purchase/3p/1", { token: buyer.token, headers });
  expect(await buy({ "Idempotency-Key": key })).toMatchObject({ status: 400, body: LIMIT });
  expect(await buy({})).toMatchObject({ status: 400, body: LIMIT });
  // The key's answer is the refusal.
  const replayed = await buy({ "Idempotency-Key": key });
  expect([replayed.status, replayed.body, replayed.headers.get("Idempotent-Replayed")]).toEqual([400, LIMIT, "true"]);

  expect(await h.db.select().from(userLevels).where(eq(userLevels.userId, buyer.id))).toEqual([]);
  expect(await h.db.select().from(placements).where(eq(placements.buyerId, buyer.id))).toEqual([]);
  expect((await h.account(buyer.id)).balance).toBe(2000n);
  expect((await h.account(referrer.id)).balance).toBe(MAX_BALANCE);
  expect((await m.matrix(referrer, "3p", 1)).slots.filter((slot: { user: unknown }) => slot.user !== null)).toEqual([]);
  expect((await h.call("GET", "/api/user/notifications", { token: referrer.token })).body).toEqual(noticesBefore);
  expect(h.logged).toEqual([]);

  // Once the referrer has room, the same purchase goes through.
  await inTransaction(h.db, async (tx) => {
    await transfer(tx, { from: referrer.id, to: EXTERNAL, amount: fromExternal, kind: "withdrawal" });
    await transfer(tx, { from: referrer.id, to: SYSTEM, amount: full - fromExternal, kind: "gift" });
  });
  await m.bought(buyer, "3p", 1);
});
