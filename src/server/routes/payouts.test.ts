import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { rowsOf } from "../../db/client";
import { onPostgres } from "../../testing/db";
import { MSG } from "../../shared/messages";
import { randomBep20Address, randomTxId, TRON_SENDER } from "../../testing/chainIds";
import type { Harness } from "../../testing/harness";
import { useMoneyHarness } from "../../testing/useHarness";

let h: Harness;
useMoneyHarness((made) => (h = made));

const decide = (kind: "deposits" | "withdrawals", id: string, body: Record<string, unknown>) =>
  h.call("PUT", `/api/admin/${kind}/${id}`, { token: h.adminToken, body });
const listed = async (id: string) => {
  const all = (await h.call("GET", "/api/admin/withdrawals?limit=100", { token: h.adminToken })).body;
  return all.find((w: { _id: string }) => w._id === id);
};

describe("the payout's transaction ID of an accepted withdrawal", () => {
  test("recorded when accepting, in the network's own spelling; the admin list, the audit trail and the member's requests show it", async () => {
    const member = await h.signUp();
    await h.fund(member.token, 100);
    const onTron = await h.withdraw(member.token, 20, { accountType: "USDT TRC20" });
    const onBsc = await h.withdraw(member.token, 10, { accountType: "USDT BEP20" });
    const tronTx = randomTxId();
    const bscTx = randomTxId();
    expect(await decide("withdrawals", onTron, { status: "accepted", transactionId: ` ${tronTx.toUpperCase()} ` })).toMatchObject({
      status: 200,
      body: { msg: "Request successfully accepted." },
    });
    expect((await decide("withdrawals", onBsc, { status: "accepted", transactionId: `0x${bscTx}` })).status).toBe(200);
    expect(await listed(onTron)).toMatchObject({ status: "accepted", payoutTransactionId: tronTx });
    expect(await listed(onBsc)).toMatchObject({ status: "accepted", payoutTransactionId: `0x${bscTx}` });

    const { entries } = (await h.call("GET", "/api/admin/audit", { token: h.adminToken })).body;
    expect(entries.find((e: { targetId: string }) => e.targetId === onTron)).toMatchObject({ actor: "admin", after: { status: "accepted", payoutTransactionId: tronTx } });

    const mine = (await h.call("GET", "/api/user/requests?type=withdrawal", { token: member.token })).body.items;
    expect(mine.map((r: { _id: string; network: string; transactionId: string | null }) => [r._id, r.network, r.transactionId])).toEqual([
      [onBsc, "BEP20", `0x${bscTx}`],
      [onTron, "TRC20", tronTx],
    ]);
  });

  test("optional: without one, nothing is recorded", async () => {
    const member = await h.signUp();
    await h.fund(member.token, 50);
    const id = await h.withdraw(member.token, 5);
    expect((await decide("withdrawals", id, { status: "accepted", transactionId: "  " })).status).toBe(200);
    expect(await listed(id)).toMatchObject({ status: "accepted", payoutTransactionId: null });
  });

  test("an ID of the other network, a look-alike, or one given with a decline or a deposit is refused, and nothing is decided", async () => {
    const member = await h.signUp();
    await h.fund(member.token, 100);
    const onTron = await h.withdraw(member.token, 20, { accountType: "USDT TRC20" });
    const onBsc = await h.withdraw(member.token, 10, { accountType: "USDT BEP20" });
    const deposit = await h.deposit(member.token, 5);
    const id = randomTxId();
    const refusals: [string, "deposits" | "withdrawals", Record<string, unknown>, string | RegExp][] = [
      [onTron, "withdrawals", { status: "accepted", transactionId: `0x${id}` }, /without 0x/],
      [onBsc, "withdrawals", { status: "accepted", transactionId: id }, /starts with 0x/],
      [onTron, "withdrawals", { status: "accepted", transactionId: `${id}\u200b` }, /invisible character/],
      [onTron, "withdrawals", { status: "accepted", transactionId: id.slice(2) }, /has 62/],
      [onTron, "withdrawals", { status: "declined", transactionId: id }, MSG.payoutOnAcceptOnly],
      [deposit, "deposits", { status: "accepted", transactionId: id }, MSG.payoutOnAcceptOnly],
    ];
    for (const [target, kind, body, msg] of refusals) {
      const res = await decide(kind, target, body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 400, code: "validation" });
      expect(res.body.msg).toMatch(msg);
    }
    expect(await listed(onTron)).toMatchObject({ status: "pending", payoutTransactionId: null });
    expect(await listed(onBsc)).toMatchObject({ status: "pending" });
    expect((await h.me(member.token)).balance).toBe(100);
  });

  test("one payout transaction, one withdrawal: an ID recorded on another withdrawal, or held by a pending or accepted deposit, on either network, is refused and nothing is decided", async () => {
    const duplicate = { status: 400, body: { msg: "This transaction ID has already been submitted.", code: "duplicate_transaction" } };
    const member = await h.signUp();
    const other = await h.signUp();
    await h.fund(member.token, 100);
    await h.fund(other.token, 100);
    const first = await h.withdraw(member.token, 50, { accountType: "USDT TRC20" });
    const onTron = await h.withdraw(other.token, 20, { accountType: "USDT TRC20" });
    const onBsc = await h.withdraw(other.token, 20, { accountType: "USDT BEP20" });
    const payout = randomTxId();
    expect((await decide("withdrawals", first, { status: "accepted", transactionId: payout })).status).toBe(200);
    expect(await decide("withdrawals", onTron, { status: "accepted", transactionId: payout.toUpperCase() })).toMatchObject(duplicate);
    expect(await decide("withdrawals", onBsc, { status: "accepted", transactionId: `0x${payout}` })).toMatchObject(duplicate);
    // A member's deposit claims a transaction (pending, then accepted): it is no payout of ours.
    const claimed = randomTxId();
    const deposit = await h.deposit(member.token, 5, { network: "BEP20", address: randomBep20Address(), transactionId: `0x${claimed}` });
    expect(await decide("withdrawals", onTron, { status: "accepted", transactionId: claimed })).toMatchObject(duplicate);
    expect((await h.decide("deposits", deposit, "accepted")).status).toBe(200);
    expect(await decide("withdrawals", onBsc, { status: "accepted", transactionId: `0x${claimed}` })).toMatchObject(duplicate);
    expect(await listed(onTron)).toMatchObject({ status: "pending", payoutTransactionId: null });
    expect(await listed(onBsc)).toMatchObject({ status: "pending", payoutTransactionId: null });
    expect((await h.me(other.token)).balance).toBe(100); // the two still held, not paid out
    // A declined deposit frees its transaction.
    const freed = randomTxId();
    expect((await h.decide("deposits", await h.deposit(other.token, 5, { address: TRON_SENDER, transactionId: freed }), "declined")).status).toBe(200);
    expect((await decide("withdrawals", onTron, { status: "accepted", transactionId: freed })).status).toBe(200);
    expect(await listed(onTron)).toMatchObject({ status: "accepted", payoutTransactionId: freed });
    await h.checkLedger();
  });
});

describe.skipIf(!onPostgres)("on Postgres, the transaction ID's lock", () => {
  test("a deposit's accept and a payout naming its transaction ID, at once, never deadlock: the ID's lock comes before every account's in both", async () => {
    const depositor = await h.signUp();
    const payee = await h.signUp();
    await h.fund(payee.token, 100);
    const txId = randomTxId();
    const deposit = await h.deposit(depositor.token, 5, { transactionId: txId });
    const withdrawal = await h.withdraw(payee.token, 20, { accountType: "USDT TRC20" });
    const deadlocks = async () => {
      await h.db.execute(sql`SELECT pg_stat_clear_snapshot()`);
      const [row] = rowsOf<{ n: number }>(await h.db.execute(sql`SELECT deadlocks::int AS n FROM pg_stat_database WHERE datname = current_database()`));
      return Number(row!.n);
    };
    const before = await deadlocks();
    // The depositor's account held a moment: the deposit's accept waits there with what it took
    // before it, while the payout takes the accounts it needs, then the transaction ID's lock.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const blocker = h.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT id FROM accounts WHERE id = ${depositor.id} FOR UPDATE`);
      await released;
    });
    await Bun.sleep(100);
    const accept = decide("deposits", deposit, { status: "accepted" });
    await Bun.sleep(200);
    const payout = decide("withdrawals", withdrawal, { status: "accepted", transactionId: txId });
    await Bun.sleep(200);
    release();
    await blocker;
    const answers = [await accept, await payout].map((res) => `${res.status} ${res.body.code ?? "ok"}`);
    // One of the two has the ID; the other is refused as its duplicate, nothing of it done.
    expect(answers.sort()).toEqual(["200 ok", "400 duplicate_transaction"]);
    await Bun.sleep(1_000); // the statistics reach pg_stat_database within a second
    expect((await deadlocks()) - before).toBe(0);
    await h.checkLedger();
  });
});
