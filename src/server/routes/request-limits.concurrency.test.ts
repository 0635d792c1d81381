import { describe, expect, test } from "bun:test";
import { and, count, eq } from "drizzle-orm";
import { EXTERNAL, transfer } from "../../core/ledger";
import { inTransaction } from "../../core/tx";
import { deposits, withdrawals } from "../../db/schema";
import { onPostgres } from "../../testing/db";
import type { Answer, Harness } from "../../testing/harness";
import { useMoneyHarness } from "../../testing/useHarness";
import { randomTronAddress } from "../../testing/chainIds";

/**
 * The pending-request limits (docs/rules.md#limits) under racing requests. PGlite runs one
 * transaction at a time, so these only mean something on real Postgres:
 * TEST_DATABASE_URL=postgres://... bun test src/server/routes/request-limits.concurrency.test.ts
 */
describe.skipIf(!onPostgres)("pending-request limits on Postgres", () => {
  let h: Harness;
  useMoneyHarness((made) => (h = made), { max: 20 });

  const SENDER = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
  const txHash = () => (crypto.randomUUID() + crypto.randomUUID()).replaceAll("-", "");
  const deposit = (token: string) => h.call("POST", "/api/user/deposit", { token, body: { address: SENDER, transactionId: txHash(), amount: 5 } });
  const withdraw = (token: string) =>
    h.call("POST", "/api/user/withdraw", { token, body: { accountType: "USDT TRC20", accountNumber: randomTronAddress(), amount: 1 } });

  async function pending(table: typeof deposits | typeof withdrawals, userId: string) {
    const t = table as typeof deposits;
    const [row] = await h.db.select({ n: count() }).from(t).where(and(eq(t.userId, userId), eq(t.status, "pending")));
    return Number(row!.n);
  }
  const codes = (answers: Answer[]) => {
    const counts: Record<string, number> = {};
    for (const a of answers) counts[`${a.status} ${a.body?.code ?? ""}`.trim()] = (counts[`${a.status} ${a.body?.code ?? ""}`.trim()] ?? 0) + 1;
    return counts;
  };
  const expectNoServerErrors = (answers: Answer[]) => {
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    expect(h.logged).toEqual([]);
  };

  test("two deposit requests at once at 9 pending make 10, never 11", async () => {
    for (let round = 0; round < 5; round++) {
      const member = await h.signUp();
      for (let i = 0; i < 9; i++) expect((await deposit(member.token)).status).toBe(201);
      const answers = await Promise.all([deposit(member.token), deposit(member.token)]);
      expectNoServerErrors(answers);
      expect(codes(answers)).toEqual({ "201": 1, "409 too_many_pending_deposits": 1 });
      expect(await pending(deposits, member.id)).toBe(10);
    }
  });

  test("20 deposit requests at once from one member leave exactly 10 pending; the rest are refused", async () => {
    const member = await h.signUp();
    const answers = await Promise.all(Array.from({ length: 20 }, () => deposit(member.token)));
    expectNoServerErrors(answers);
    expect(codes(answers)).toEqual({ "201": 10, "409 too_many_pending_deposits": 10 });
    expect(await pending(deposits, member.id)).toBe(10);
  });

  test("withdrawal requests at once stop at 3 pending, and hold only what those 3 hold", async () => {
    for (let round = 0; round < 3; round++) {
      const member = await h.signUp();
      await inTransaction(h.db, (tx) => transfer(tx, { from: EXTERNAL, to: member.id, amount: 10_000n, kind: "deposit" }));
      expect((await withdraw(member.token)).status).toBe(201);
      expect((await withdraw(member.token)).status).toBe(201);
      const answers = await Promise.all(Array.from({ length: 10 }, () => withdraw(member.token)));
      expectNoServerErrors(answers);
      expect(codes(answers)).toEqual({ "201": 1, "409 too_many_pending_withdrawals": 9 });
      expect(await pending(withdrawals, member.id)).toBe(3);
      expect(await h.account(member.id)).toEqual({ balance: 10_000n, held: 300n });
    }
    await h.checkLedger();
  });

  test("a decision racing new requests never lets a member past the limit", async () => {
    const member = await h.signUp();
    for (let i = 0; i < 10; i++) expect((await deposit(member.token)).status).toBe(201);
    const [oldest] = (await h.call("GET", `/api/admin/deposits?status=pending&search=${encodeURIComponent(member.email)}&limit=100`, { token: h.adminToken })).body.slice(-1);
    const answers = await Promise.all([h.decide("deposits", oldest._id, "declined"), ...Array.from({ length: 6 }, () => deposit(member.token))]);
    expectNoServerErrors(answers);
    expect(answers[0]!.status).toBe(200);
    // The decline frees one place; a request that counted before it committed is refused.
    const created = answers.slice(1).filter((a) => a.status === 201).length;
    expect(created).toBeLessThanOrEqual(1);
    expect(await pending(deposits, member.id)).toBe(9 + created);
  });
});
