import { describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { inTransaction } from "../../core/tx";
import { rowsOf } from "../../db/client";
import { users } from "../../db/schema";
import { deleteUser } from "../../core/users";
import { onPostgres } from "../../testing/db";
import type { Answer, Harness } from "../../testing/harness";
import { useMoneyHarness } from "../../testing/useHarness";
import { randomBep20Address, randomTxId, TRON_SENDER } from "../../testing/chainIds";

/**
 * Races between requests. PGlite runs one transaction at a time, so these only mean something
 * on real Postgres: TEST_DATABASE_URL=postgres://... bun test src/server/routes/concurrency.test.ts
 */
describe.skipIf(!onPostgres)("concurrency on Postgres", () => {
  let h: Harness;
  useMoneyHarness((made) => (h = made), { max: 20 });

  const statuses = (answers: Answer[]) => {
    const counts: Record<string, number> = {};
    for (const a of answers) counts[`${a.status} ${a.body?.msg ?? ""}`.trim()] = (counts[`${a.status} ${a.body?.msg ?? ""}`.trim()] ?? 0) + 1;
    return counts;
  };
  const expectNoServerErrors = (answers: Answer[]) => {
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    expect(h.logged).toEqual([]);
  };

  test("50 parallel gifts from a balance that covers 20: exactly 20 succeed, the rest are refused", async () => {
    const sender = await h.signUp();
    const recipients = await Promise.all(Array.from({ length: 5 }, () => h.signUp()));
    await h.fund(sender.token, 100);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        h.call("POST", "/api/user/gift", { token: sender.token, body: { amount: 5, recipientEmail: recipients[i % 5]!.email } }),
      ),
    );
    expectNoServerErrors(answers);
    expect(statuses(answers)).toEqual({ "200 Gift sent successfully!": 20, "400 Insufficient balance.": 30 });
    expect((await h.me(sender.token)).balance).toBe(0);
    const received = await Promise.all(recipients.map(async (r) => (await h.me(r.token)).balance as number));
    expect(received.reduce((a, b) => a + b, 0)).toBe(100);
    await h.checkLedger();
  });

  test("50 parallel gifts between two users in both directions never deadlock into a 500", async () => {
    const a = await h.signUp();
    const b = await h.signUp();
    await h.fund(a.token, 30);
    await h.fund(b.token, 30);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => {
        const [from, to] = i % 2 ? [a, b] : [b, a];
        return h.call("POST", "/api/user/gift", { token: from.token, body: { amount: 3, recipientEmail: to.email } });
      }),
    );
    expectNoServerErrors(answers);
    expect(answers.every((x) => x.status === 200 || (x.status === 400 && x.body.msg === "Insufficient balance."))).toBe(true);
    expect((await h.me(a.token)).balance + (await h.me(b.token)).balance).toBe(60);
    await h.checkLedger();
  });

  test("two admins accepting one deposit at once credit it once: one 200, one 409", async () => {
    const other = await h.signUp();
    await h.promote(other.id);
    for (let round = 0; round < 10; round++) {
      const user = await h.signUp();
      const id = await h.deposit(user.token, 10);
      const second = round % 2 ? "accepted" : "declined";
      const answers = await Promise.all([h.decide("deposits", id, "accepted"), h.decide("deposits", id, second, other.token)]);
      expectNoServerErrors(answers);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      expect(answers.find((a) => a.status === 409)!.body).toEqual({ msg: "This request has already been processed.", code: "already_processed" });
      const winner = answers[0]!.status === 200 ? "accepted" : second;
      expect((await h.me(user.token)).balance).toBe(winner === "accepted" ? 10 : 0);
    }
    await h.checkLedger();
  });

  test("two admins deciding one withdrawal at once take the money once: one 200, one 409", async () => {
    const other = await h.signUp();
    await h.promote(other.id);
    for (let round = 0; round < 10; round++) {
      const user = await h.signUp();
      await h.fund(user.token, 50);
      const id = await h.withdraw(user.token, 50);
      const answers = await Promise.all([h.decide("withdrawals", id, "accepted"), h.decide("withdrawals", id, round % 2 ? "accepted" : "declined", other.token)]);
      expectNoServerErrors(answers);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const me = await h.me(user.token);
      expect(me.pendingWithdrawalsTotal).toBe(0);
      expect([0, 50]).toContain(me.balance);
    }
    await h.checkLedger();
  });

  test("a withdrawal and gifts racing for one balance never leave the available balance below 0", async () => {
    for (let round = 0; round < 5; round++) {
      const user = await h.signUp();
      const friend = await h.signUp();
      await h.fund(user.token, 100);
      const gifts = Array.from({ length: 12 }, () =>
        h.call("POST", "/api/user/gift", { token: user.token, body: { amount: 10, recipientEmail: friend.email } }),
      );
      const withdrawals = [60, 30].map((amount) =>
        h.call("POST", "/api/user/withdraw", { token: user.token, body: { accountType: "USDT TRC20", accountNumber: TRON_SENDER, amount } }),
      );
      const answers = await Promise.all([...withdrawals, ...gifts]);
      expectNoServerErrors(answers);
      const [w60, w30] = answers;
      const held = (w60!.status === 201 ? 60 : 0) + (w30!.status === 201 ? 30 : 0);
      const giftsSent = answers.slice(2).filter((a) => a.status === 200).length * 10;
      const me = await h.me(user.token);
      expect(me).toMatchObject({ balance: 100 - giftsSent, pendingWithdrawalsTotal: held });
      expect(me.balance - me.pendingWithdrawalsTotal).toBeGreaterThanOrEqual(0);
      // Nothing was refused that would have fitted: the available balance only ever shrinks, so
      // after a refusal it stays below the amount refused.
      const available = me.balance - me.pendingWithdrawalsTotal;
      if (giftsSent < 120) expect(available).toBeLessThan(10);
      if (w30!.status !== 201) expect(available).toBeLessThan(30);
      if (w60!.status !== 201) expect(available).toBeLessThan(60);
      expect((await h.me(friend.token)).balance).toBe(giftsSent);
      await h.checkLedger();
    }
  });

  test("accepting a withdrawal while gifts spend the rest keeps every invariant", async () => {
    const user = await h.signUp();
    const friend = await h.signUp();
    await h.fund(user.token, 100);
    const id = await h.withdraw(user.token, 50);
    const answers = await Promise.all([
      h.decide("withdrawals", id, "accepted"),
      ...Array.from({ length: 10 }, () => h.call("POST", "/api/user/gift", { token: user.token, body: { amount: 7, recipientEmail: friend.email } })),
    ]);
    expectNoServerErrors(answers);
    expect(answers[0]!.status).toBe(200);
    const sent = answers.slice(1).filter((a) => a.status === 200).length;
    expect(sent).toBe(7); // 50 available: seven gifts of 7
    expect(await h.me(user.token)).toMatchObject({ balance: 1, pendingWithdrawalsTotal: 0 });
    await h.checkLedger();
  });

  test("parallel withdrawals from one balance hold no more than it", async () => {
    const user = await h.signUp();
    await h.fund(user.token, 100);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        h.call("POST", "/api/user/withdraw", { token: user.token, body: { accountType: "USDT BEP20", accountNumber: randomBep20Address(), amount: 30 } }),
      ),
    );
    expectNoServerErrors(answers);
    expect(statuses(answers)).toEqual({
      "201 Withdrawal request submitted successfully. It will be paid once an admin approves it.": 3,
      "400 Withdrawal amount cannot exceed your available balance.": 7,
    });
    expect(await h.me(user.token)).toMatchObject({ balance: 100, pendingWithdrawalsTotal: 90 });
    await h.checkLedger();
  });

  test("the same transaction ID submitted in parallel is accepted once", async () => {
    const users = await Promise.all(Array.from({ length: 4 }, () => h.signUp()));
    for (let round = 0; round < 5; round++) {
      const transactionId = randomTxId();
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          h.call("POST", "/api/user/deposit", { token: users[i % 4]!.token, body: { address: TRON_SENDER, transactionId, amount: 10 } }),
        ),
      );
      expectNoServerErrors(answers);
      expect(statuses(answers)).toEqual({
        "201 Deposit request submitted successfully. It will be credited once an admin approves it.": 1,
        "400 This transaction ID has already been submitted.": 7,
      });
    }
  });

  test("two parallel registrations with the same email: one succeeds, the other is refused, no 500", async () => {
    for (let round = 0; round < 10; round++) {
      const email = `twin${round}-${crypto.randomUUID().slice(0, 8)}@test.local`;
      const body = (e: string) => ({ name: "Twin", email: e, password: "secret", referralId: h.adminReferralId });
      const answers = await Promise.all([
        h.call("POST", "/api/auth/register", { body: body(email) }),
        h.call("POST", "/api/auth/register", { body: body(round % 2 ? email.toUpperCase() : email) }),
      ]);
      expectNoServerErrors(answers);
      expect(statuses(answers)).toEqual({
        "201 Registration successful! Please log in.": 1,
        "409 A user with this email already exists.": 1,
      });
    }
    const listed = await h.call("GET", "/api/admin/users?search=twin&limit=100", { token: h.adminToken });
    expect(listed.body.users).toHaveLength(10);
    // Everyone in this database registered below the admin, and nobody was deleted.
    const everyone = (await h.call("GET", "/api/admin/users?limit=100", { token: h.adminToken })).body.users;
    expect((await h.me(h.adminToken)).totalPartners).toBe(everyone.length - 1);
  });

  /** Deletes a user in a transaction kept open while `during` starts its requests. */
  async function whileDeleting<T>(userId: string, during: () => Promise<T>): Promise<T> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let deleted!: () => void;
    const deletedNow = new Promise<void>((resolve) => (deleted = resolve));
    const deletion = inTransaction(h.db, async (tx) => {
      await deleteUser(tx, userId);
      deleted();
      await held;
    });
    await deletedNow;
    const requests = during();
    // Long enough for the requests to reach the database and wait on the deletion's lock.
    await Bun.sleep(300);
    release();
    await deletion;
    return requests;
  }

  test("a registration racing the deletion of its sponsor is refused once the deletion commits", async () => {
    const sponsor = await h.signUp();
    const res = await whileDeleting(sponsor.id, () =>
      h.call("POST", "/api/auth/register", {
        body: { name: "Late", email: `late-${crypto.randomUUID().slice(0, 8)}@test.local`, password: "secret", referralId: sponsor.myReferralId },
      }),
    );
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { msg: "Invalid referral ID.", code: "invalid_referral", field: "referralId" } });
    expectNoServerErrors([res]);
  });

  test("money a user sends, spends or asks for while being deleted stays put once the deletion commits", async () => {
    const user = await h.signUp();
    const friend = await h.signUp();
    await h.fund(user.token, 50);
    // A level to unfreeze.
    expect((await h.call("POST", "/api/user/packages/purchase/3p/1", { token: user.token })).status).toBe(200);
    await h.db.execute(sql`UPDATE user_levels SET status = 'frozen', cycles = 2 WHERE user_id = ${user.id} AND program = '3p' AND level = 1`);
    const before = await h.account(user.id);
    const answers = await whileDeleting(user.id, () =>
      Promise.all([
        h.call("POST", "/api/user/gift", { token: user.token, body: { amount: 10, recipientEmail: friend.email } }),
        h.call("POST", "/api/user/withdraw", { token: user.token, body: { accountType: "USDT TRC20", accountNumber: "TAnyuZwQdnuFeTeMPikrgLBfrz1raq19iW", amount: 10 } }),
        h.call("POST", "/api/user/packages/purchase/6p/1", { token: user.token }),
        h.call("POST", "/api/user/packages/purchase/6p/1", { token: user.token, headers: { "Idempotency-Key": "while-deleted" } }),
        h.call("POST", "/api/user/packages/unfreeze/3p/1", { token: user.token }),
        h.call("POST", "/api/user/deposit", { token: user.token, body: { address: TRON_SENDER, transactionId: randomTxId(), amount: 20 } }),
      ]),
    );
    for (const res of answers) expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: { msg: "Token is not valid", code: "bad_token" } });
    expect(await h.account(user.id)).toEqual(before);
    expect((await h.me(friend.token)).balance).toBe(0);
    const [{ levels, requests }] = rowsOf<{ levels: number; requests: number }>(
      await h.db.execute(sql`SELECT (SELECT count(*)::int FROM user_levels WHERE user_id = ${user.id} AND status = 'active') AS levels,
        (SELECT count(*)::int FROM deposits WHERE user_id = ${user.id} AND status = 'pending')
          + (SELECT count(*)::int FROM withdrawals WHERE user_id = ${user.id} AND status = 'pending') AS requests`),
    ) as [{ levels: number; requests: number }];
    expect({ levels, requests }).toEqual({ levels: 0, requests: 0 });
    expectNoServerErrors(answers);
    await h.checkLedger();
  });

  test("many parallel registrations under one sponsor count every partner once, and exactly one continues the sponsor's chain", async () => {
    const sponsor = await h.signUp();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        h.call("POST", "/api/auth/register", {
          body: { name: `Crowd ${i}`, email: `crowd${i}-${crypto.randomUUID().slice(0, 6)}@test.local`, password: "secret", referralId: sponsor.myReferralId },
        }),
      ),
    );
    expectNoServerErrors(answers);
    expect(answers.every((a) => a.status === 201)).toBe(true);
    expect(await h.me(sponsor.token)).toMatchObject({ totalPartners: 30, directPartners: 30 });
    const [sponsorRow] = await h.db.select({ id: users.id, chainId: users.chainId }).from(users).where(eq(users.referralId, sponsor.myReferralId));
    const partners = await h.db.select({ chainId: users.chainId }).from(users).where(eq(users.referrerId, sponsorRow!.id));
    expect(partners.filter((p) => p.chainId === sponsorRow!.chainId).length).toBe(1);
    // (afterEach checks the rest of the tree: depths, links, and the level rows' copies.)
  });
});
