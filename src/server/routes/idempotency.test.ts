import { describe, expect, test } from "bun:test";
import { and, eq, inArray } from "drizzle-orm";
import { deposits, idempotencyKeys, transfers, userLevels } from "../../db/schema";
import { onPostgres } from "../../testing/db";
import type { Harness } from "../../testing/harness";
import { useMoneyHarness } from "../../testing/useHarness";
import { randomTronAddress, randomTxId, TRON_SENDER } from "../../testing/chainIds";

let h: Harness;
useMoneyHarness((made) => (h = made), { max: 20 });

const withKey = (key: string) => ({ "Idempotency-Key": key });

describe("Idempotency-Key on money calls", () => {
  test("POST /api/user/gift with the same key and body is applied once and the first answer replayed", async () => {
    const sender = await h.signUp();
    const recipient = await h.signUp();
    await h.fund(sender.token, 30);
    const body = { amount: 10, recipientEmail: recipient.email };
    const first = await h.call("POST", "/api/user/gift", { token: sender.token, body, headers: withKey("gift-1") });
    const again = await h.call("POST", "/api/user/gift", { token: sender.token, body, headers: withKey("gift-1") });
    expect(first).toMatchObject({ status: 200, body: { msg: "Gift sent successfully!" } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await h.me(sender.token)).balance).toBe(20);
    expect((await h.me(recipient.token)).balance).toBe(10);
  });

  test("the same key with a different body is refused with 422 and moves nothing", async () => {
    const sender = await h.signUp();
    const recipient = await h.signUp();
    await h.fund(sender.token, 30);
    await h.call("POST", "/api/user/gift", { token: sender.token, body: { amount: 5, recipientEmail: recipient.email }, headers: withKey("k") });
    const other = await h.call("POST", "/api/user/gift", {
      token: sender.token,
      body: { amount: 6, recipientEmail: recipient.email },
      headers: withKey("k"),
    });
    expect(other).toMatchObject({ status: 422, body: { msg: "This Idempotency-Key was already used for a different request.", code: "idempotency_conflict" } });
    expect((await h.me(sender.token)).balance).toBe(25);
  });

  test("a key already used is found by a request refused before it runs too: another body is 422, the same one replays its refusal", async () => {
    const sender = await h.signUp();
    const recipient = await h.signUp();
    await h.fund(sender.token, 30);
    await h.call("POST", "/api/user/gift", { token: sender.token, body: { amount: 5, recipientEmail: recipient.email }, headers: withKey("used") });
    // The amount fails validation, before the gift would run: the key's earlier use still answers.
    const invalid = { amount: -1, recipientEmail: recipient.email };
    const reused = await h.call("POST", "/api/user/gift", { token: sender.token, body: invalid, headers: withKey("used") });
    expect(reused).toMatchObject({ status: 422, body: { code: "idempotency_conflict" } });

    const first = await h.call("POST", "/api/user/gift", { token: sender.token, body: invalid, headers: withKey("invalid") });
    expect(first.status).toBe(400);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    const again = await h.call("POST", "/api/user/gift", { token: sender.token, body: invalid, headers: withKey("invalid") });
    expect(again).toMatchObject({ status: 400, body: first.body });
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await h.me(sender.token)).balance).toBe(25);
  });

  test("a refusal is the first answer too: a retry with the key hears it again even after funds arrive", async () => {
    const sender = await h.signUp();
    const recipient = await h.signUp();
    const body = { amount: 5, recipientEmail: recipient.email };
    const refused = await h.call("POST", "/api/user/gift", { token: sender.token, body, headers: withKey("early") });
    expect(refused).toMatchObject({ status: 400, body: { msg: "Insufficient balance.", code: "insufficient_balance" } });
    await h.fund(sender.token, 30);
    const replayed = await h.call("POST", "/api/user/gift", { token: sender.token, body, headers: withKey("early") });
    expect(replayed).toMatchObject({ status: 400, body: { msg: "Insufficient balance.", code: "insufficient_balance" } });
    expect((await h.me(sender.token)).balance).toBe(30);
  });

  test("keys belong to one user: another user's call with the same key is its own", async () => {
    const a = await h.signUp();
    const b = await h.signUp();
    const dep = (token: string, transactionId: string) =>
      h.call("POST", "/api/user/deposit", { token, body: { address: wallet, transactionId, amount: 5 }, headers: withKey("shared") });
    const wallet = randomTronAddress();
    expect((await dep(a.token, randomTxId())).status).toBe(201);
    expect((await dep(b.token, randomTxId())).status).toBe(201);
    const rows = await h.db.select().from(deposits).where(eq(deposits.address, wallet));
    expect(rows.length).toBe(2);
  });

  test("admin decisions with a key: a retried accept credits once and answers 200 again instead of 409", async () => {
    const user = await h.signUp();
    const transactionId = randomTxId();
    await h.call("POST", "/api/user/deposit", { token: user.token, body: { address: TRON_SENDER, transactionId, amount: 40 } });
    const [pending] = (await h.call("GET", `/api/admin/deposits?status=pending&search=${transactionId}`, { token: h.adminToken })).body;
    const accept = () =>
      h.call("PUT", `/api/admin/deposits/${pending._id}`, { token: h.adminToken, body: { status: "accepted" }, headers: withKey("decide-1") });
    expect((await accept()).status).toBe(200);
    expect(await accept()).toMatchObject({ status: 200, body: { msg: "Request successfully accepted." } });
    const credits = await h.db.select().from(transfers).where(and(eq(transfers.requestId, pending._id), eq(transfers.kind, "deposit")));
    expect(credits.length).toBe(1);
    expect((await h.me(user.token)).balance).toBe(40);
  });

  test("POST /api/user/packages/purchase retried with its key buys once and answers the purchase again, not 'already active'", async () => {
    const buyer = await h.signUp();
    await h.fund(buyer.token, 10);
    const buy = () => h.call("POST", "/api/user/packages/purchase/3p/1", { token: buyer.token, headers: withKey("buy-3p-1") });
    expect(await buy()).toMatchObject({ status: 200, body: { msg: "Level purchased successfully!" } });
    expect(await buy()).toMatchObject({ status: 200, body: { msg: "Level purchased successfully!" } });
    expect((await h.me(buyer.token)).balance).toBe(5);
    const plain = await h.call("POST", "/api/user/packages/purchase/3p/1", { token: buyer.token });
    expect(plain).toMatchObject({ status: 400, body: { msg: "This level is already active.", code: "level_already_active" } });
  });

  // The purchase reserves its key in its first statement (KeyReservation), not in one of its own.
  test("a purchase's key sent again for another level is refused with 422 and buys nothing; the same request replays", async () => {
    const buyer = await h.signUp();
    await h.fund(buyer.token, 30);
    const buy = (level: number) => h.call("POST", `/api/user/packages/purchase/3p/${level}`, { token: buyer.token, headers: withKey("levels") });
    expect(await buy(1)).toMatchObject({ status: 200, body: { msg: "Level purchased successfully!" } });
    expect(await buy(2)).toMatchObject({ status: 422, body: { msg: "This Idempotency-Key was already used for a different request.", code: "idempotency_conflict" } });
    const again = await buy(1);
    expect(again).toMatchObject({ status: 200, body: { msg: "Level purchased successfully!" } });
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await h.me(buyer.token)).balance).toBe(25);
    // Level 2 is still to buy.
    expect(await h.call("POST", "/api/user/packages/purchase/3p/2", { token: buyer.token })).toMatchObject({ status: 200 });
    expect((await h.me(buyer.token)).balance).toBe(15);
  });

  test("a purchase refused with its key is the key's answer: the retry hears the refusal even once funded; a new key buys", async () => {
    const buyer = await h.signUp();
    const buy = () => h.call("POST", "/api/user/packages/purchase/3p/1", { token: buyer.token, headers: withKey("too-soon") });
    const refused = { status: 400, body: { msg: "Insufficient balance.", code: "insufficient_balance" } };
    expect(await buy()).toMatchObject(refused);
    await h.fund(buyer.token, 10);
    expect(await buy()).toMatchObject(refused);
    expect((await h.me(buyer.token)).balance).toBe(10);
    const fresh = await h.call("POST", "/api/user/packages/purchase/3p/1", { token: buyer.token, headers: withKey("in-time") });
    expect(fresh).toMatchObject({ status: 200, body: { msg: "Level purchased successfully!" } });
    expect((await h.me(buyer.token)).balance).toBe(5);
  });

  test("a refusal is the key's answer from its own transaction: written with the key's row, answered without Idempotent-Replayed, nothing else kept", async () => {
    const buyer = await h.signUp();
    const sender = await h.signUp();
    const recipient = await h.signUp();
    await h.fund(buyer.token, 10);
    // A purchase refused after its first statement reserved the key (the price changed), and a
    // gift refused inside its savepoint (more than the balance).
    const purchase = await h.call("POST", "/api/user/packages/purchase/3p/1", { token: buyer.token, body: { expectedCost: 4 }, headers: withKey("kept-purchase") });
    const gift = await h.call("POST", "/api/user/gift", { token: sender.token, body: { amount: 5, recipientEmail: recipient.email }, headers: withKey("kept-gift") });
    expect(purchase).toMatchObject({ status: 409, body: { code: "price_changed" } });
    expect(gift).toMatchObject({ status: 400, body: { code: "insufficient_balance" } });
    for (const first of [purchase, gift]) expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    const kept = await h.db
      .select({ key: idempotencyKeys.key, status: idempotencyKeys.status, body: idempotencyKeys.body })
      .from(idempotencyKeys)
      .where(inArray(idempotencyKeys.key, ["kept-purchase", "kept-gift"]))
      .orderBy(idempotencyKeys.key);
    expect(kept.map((k) => [k.key, k.status, JSON.parse(k.body).code])).toEqual([
      ["kept-gift", 400, "insufficient_balance"],
      ["kept-purchase", 409, "price_changed"],
    ]);
    // Nothing of the operations: no level row, no transfer.
    expect(await h.db.select().from(userLevels).where(eq(userLevels.userId, buyer.id))).toEqual([]);
    expect(await h.db.select().from(transfers).where(eq(transfers.fromAccount, sender.id))).toEqual([]);
    const again = await h.call("POST", "/api/user/packages/purchase/3p/1", { token: buyer.token, body: { expectedCost: 4 }, headers: withKey("kept-purchase") });
    expect(again).toMatchObject({ status: 409, body: { code: "price_changed" } });
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await h.me(buyer.token)).balance).toBe(10);
  });

  test.skipIf(!onPostgres)("on Postgres, one key sent at once with a stale and a current price: exactly one of the two runs, the other is 422", async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < 20; round++) {
      const buyer = await h.signUp();
      await h.fund(buyer.token, 10);
      const buy = (expectedCost: number) =>
        h.call("POST", "/api/user/packages/purchase/3p/1", { token: buyer.token, body: { expectedCost }, headers: withKey(`twin-${round}`) });
      const [stale, current] = await Promise.all([buy(4), buy(5)]);
      const outcome = `${stale.status} ${stale.body.code ?? "ok"} / ${current.status} ${current.body.code ?? "ok"}`;
      outcomes.add(outcome);
      // The first to reserve the key runs; the other hears that the key was used for another request.
      expect(["409 price_changed / 422 idempotency_conflict", "422 idempotency_conflict / 200 ok"]).toContain(outcome);
      expect((await h.me(buyer.token)).balance).toBe(outcome.endsWith("200 ok") ? 5 : 10);
    }
    await h.checkLedger();
  });

  test.skipIf(!onPostgres)("on Postgres, one key sent at once with a valid and an invalid withdrawal: the invalid one hears the key's answer, as a retry of it does (it heard a 400 of its own, then 422)", async () => {
    for (let round = 0; round < 15; round++) {
      const member = await h.signUp();
      await h.fund(member.token, 30);
      const good = { accountType: "USDT TRC20", accountNumber: randomTronAddress(), amount: 10 };
      const send = (body: object) => h.call("POST", "/api/user/withdraw", { token: member.token, body, headers: withKey(`valid-and-not-${round}`) });
      const [valid, invalid] = await Promise.all([send(good), Bun.sleep(2).then(() => send({ ...good, amount: "ten" }))]);
      // Whichever the key took first, the other hears it: the same answer on a retry.
      const retried = await send({ ...good, amount: "ten" });
      expect([invalid.status, invalid.body.code]).toEqual([retried.status, retried.body.code]);
      // At most the one withdrawal is held.
      expect((await h.me(member.token)).pendingWithdrawalsTotal).toBe(valid.status < 300 ? 10 : 0);
    }
    await h.checkLedger();
  });

  test("a malformed key is refused with 400", async () => {
    const user = await h.signUp();
    const res = await h.call("POST", "/api/user/withdraw", {
      token: user.token,
      body: { accountType: "USDT TRC20", accountNumber: "TA4Wt1DUCqz6YegbnsmqsWC5uUfbdBqPxm", amount: 1 },
      headers: withKey("has spaces in it"),
    });
    expect(res).toMatchObject({ status: 400, body: { msg: "Idempotency-Key must be 1 to 200 visible ASCII characters.", code: "bad_idempotency_key" } });
  });

  test.skipIf(!onPostgres)("on Postgres, 20 simultaneous gifts with one key move the money once", async () => {
    const sender = await h.signUp();
    const recipient = await h.signUp();
    await h.fund(sender.token, 100);
    const body = { amount: 7, recipientEmail: recipient.email };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => h.call("POST", "/api/user/gift", { token: sender.token, body, headers: withKey("burst") })),
    );
    // Each answer is the first one replayed, or "still running" while it was.
    for (const a of answers) expect([200, 409]).toContain(a.status);
    expect(answers.filter((a) => a.status === 200 && a.headers.get("Idempotent-Replayed") === null).length).toBe(1);
    expect((await h.me(sender.token)).balance).toBe(93);
    expect((await h.me(recipient.token)).balance).toBe(7);
  });

  test.skipIf(!onPostgres)("on Postgres, 20 simultaneous purchases with one key buy the level once", async () => {
    const buyer = await h.signUp();
    await h.fund(buyer.token, 12);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => h.call("POST", "/api/user/packages/purchase/6p/1", { token: buyer.token, headers: withKey("burst-buy") })),
    );
    // Each answer is the first one replayed, or "still running" while it was; never "already active".
    for (const a of answers) expect([200, 409]).toContain(a.status);
    expect(answers.filter((a) => a.status === 200 && a.headers.get("Idempotent-Replayed") === null).length).toBe(1);
    expect((await h.me(buyer.token)).balance).toBe(7);
  });
});
