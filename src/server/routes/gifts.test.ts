import { describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { SEARCH_PER_MINUTE } from "../../shared/constants";
import { MSG } from "../../shared/messages";
import { adminAudit, transfers } from "../../db/schema";
import { withHarness, type Harness } from "../../testing/harness";
import { useMoneyHarness } from "../../testing/useHarness";

let h: Harness;
useMoneyHarness((made) => (h = made));

const gift = (token: string, body: Record<string, unknown>) => h.call("POST", "/api/user/gift", { token, body });
const adminGift = (id: string, body: Record<string, unknown>, token = h.adminToken) =>
  h.call("POST", `/api/admin/users/${id}/gift`, { token, body });

describe("POST /api/user/gift", () => {
  test("POST /api/user/gift moves the amount from the sender to the recipient", async () => {
    const sender = await h.signUp();
    const recipient = await h.signUp();
    await h.fund(sender.token, 50);
    expect(await gift(sender.token, { amount: "12.50", recipientEmail: recipient.email })).toMatchObject({
      status: 200,
      body: { msg: "Gift sent successfully!" },
    });
    expect(await gift(sender.token, { amount: 0.01, recipientEmail: recipient.email.toUpperCase() })).toMatchObject({ status: 200 });
    expect((await h.me(sender.token)).balance).toBe(37.49);
    expect((await h.me(recipient.token)).balance).toBe(12.51);
    const moves = await h.db.select().from(transfers).where(eq(transfers.toAccount, recipient.id));
    expect(moves.map((m) => [m.fromAccount, m.amount, m.kind])).toEqual([
      [sender.id, 1250n, "gift"],
      [sender.id, 1n, "gift"],
    ]);
    await h.checkLedger();
  });

  test("POST /api/user/gift refuses more than the available balance and moves nothing", async () => {
    const sender = await h.signUp();
    const recipient = await h.signUp();
    const insufficient = { status: 400, body: { msg: "Insufficient balance.", code: "insufficient_balance" } };
    expect(await gift(sender.token, { amount: 1, recipientEmail: recipient.email })).toMatchObject(insufficient);
    await h.fund(sender.token, 20);
    expect(await gift(sender.token, { amount: 20.01, recipientEmail: recipient.email })).toMatchObject(insufficient);
    expect((await gift(sender.token, { amount: 20, recipientEmail: recipient.email })).status).toBe(200);
    expect(await gift(sender.token, { amount: 0.01, recipientEmail: recipient.email })).toMatchObject(insufficient);
    expect((await h.me(sender.token)).balance).toBe(0);
    expect((await h.me(recipient.token)).balance).toBe(20);
    await h.checkLedger();
  });

  test("POST /api/user/gift refuses a gift to yourself, whatever the email's case", async () => {
    const sender = await h.signUp();
    await h.fund(sender.token, 10);
    for (const email of [sender.email, sender.email.toUpperCase()]) {
      expect(await gift(sender.token, { amount: 5, recipientEmail: email })).toMatchObject({
        status: 400,
        body: { msg: "You cannot send a gift to yourself.", code: "gift_to_self" },
      });
    }
    expect((await h.me(sender.token)).balance).toBe(10);
    await h.checkLedger();
  });

  test("POST /api/user/gift answers 404 'Recipient not found.' for an unknown or deleted recipient", async () => {
    const sender = await h.signUp();
    const gone = await h.signUp();
    await h.fund(sender.token, 10);
    await h.call("DELETE", `/api/admin/users/${gone.id}`, { token: h.adminToken });
    for (const email of ["nobody@test.local", gone.email]) {
      expect(await gift(sender.token, { amount: 5, recipientEmail: email })).toMatchObject({ status: 404, body: { msg: "Recipient not found.", code: "recipient_not_found" } });
    }
    expect((await h.me(sender.token)).balance).toBe(10);
    expect(await h.account(gone.id)).toEqual({ balance: 0n, held: 0n });
    await h.checkLedger();
  });

  test("gifts to emails nobody has count as searches: past SEARCH_PER_MINUTE every gift waits, the recipient found or not, and a keyed one can be sent again later", async () => {
    const prober = await h.signUp();
    const member = await h.signUp();
    const insufficient = { status: 400, body: { code: "insufficient_balance" } };
    // An empty balance: a known email answers "insufficient", an unknown one "not found".
    expect(await gift(prober.token, { amount: "0.01", recipientEmail: member.email })).toMatchObject(insufficient);
    for (let i = 0; i < SEARCH_PER_MINUTE - 1; i++) {
      expect(await gift(prober.token, { amount: "0.01", recipientEmail: `nobody-${i}@test.local` })).toMatchObject({ status: 404, body: { code: "recipient_not_found" } });
    }
    // Searches and misses share the minute's budget: this search is the last one.
    expect((await h.call("GET", "/api/user/search?search=nobody", { token: prober.token })).status).toBe(200);
    const throttled = { status: 429, body: { code: "throttled", msg: MSG.tooManySearches } };
    for (const recipientEmail of [member.email, "nobody-else@test.local"]) {
      expect(await gift(prober.token, { amount: "0.01", recipientEmail })).toMatchObject(throttled);
    }
    const keyed = () => h.call("POST", "/api/user/gift", { token: prober.token, body: { amount: "0.01", recipientEmail: member.email }, headers: { "Idempotency-Key": "gift-after-wait" } });
    expect(await keyed()).toMatchObject(throttled);
    // A minute later: the same key is answered anew (a 429 is not kept as the key's answer).
    await h.db.execute(sql`UPDATE throttle_hits SET created_at = created_at - interval '61 seconds' WHERE bucket = 'user_search'`);
    expect(await keyed()).toMatchObject(insufficient);
    // Another member was never held up.
    await h.fund(member.token, 1);
    expect(await gift(member.token, { amount: "0.01", recipientEmail: prober.email })).toMatchObject({ status: 200 });
    await h.checkLedger();
  });

  test("POST /api/user/gift refuses bad amounts and a missing or invalid email with 400", async () => {
    const sender = await h.signUp();
    const recipient = await h.signUp();
    await h.fund(sender.token, 10);
    const cases: [Record<string, unknown>, string][] = [
      // The spec's sentence for a zero or negative amount; the other problems say which they are,
      // in the words of every amount field (a deposit's, a withdrawal's).
      [{ amount: 0, recipientEmail: recipient.email }, "Please enter a valid positive amount."],
      [{ amount: -1, recipientEmail: recipient.email }, "Please enter a valid positive amount."],
      [{ amount: 1.005, recipientEmail: recipient.email }, "Amount must have at most 2 decimal places."],
      [{ amount: "1.234", recipientEmail: recipient.email }, "Amount must have at most 2 decimal places."],
      [{ amount: "1,5", recipientEmail: recipient.email }, "Amount must be a number."],
      [{ recipientEmail: recipient.email }, "Amount is required."],
      [{ amount: 1 }, "Email is required."],
      [{ amount: 1, recipientEmail: "not-an-email" }, "Please enter a valid email address."],
      [{ amount: 1, recipientEmail: recipient.email, recipientId: recipient.id }, "Name the recipient by recipientEmail or by recipientId, not both."],
    ];
    for (const [body, msg] of cases) {
      const res = await gift(sender.token, body);
      expect({ body, status: res.status, answer: res.body }).toEqual({ body, status: 400, answer: { msg, code: "validation" } });
    }
    expect((await h.me(sender.token)).balance).toBe(10);
    expect((await h.me(recipient.token)).balance).toBe(0);
    await h.checkLedger();
  });
});

describe("POST /api/user/gift by recipientId", () => {
  test("a search result's _id names the recipient: the member picking a name (email masked) still sends the gift", async () => {
    const sender = await h.signUp();
    const tag = `Gifted${crypto.randomUUID().slice(0, 5)}`;
    const recipient = await h.signUp({ name: `${tag} Person` });
    await h.fund(sender.token, 20);
    const found = await h.call("GET", `/api/user/search?search=${tag}`, { token: sender.token });
    expect(found.body).toEqual([{ _id: recipient.id, name: `${tag} Person`, email: `${recipient.email[0]}***@${recipient.email.split("@")[1]}` }]);
    expect(await gift(sender.token, { amount: "7.50", recipientId: found.body[0]._id })).toMatchObject({ status: 200, body: { msg: "Gift sent successfully!" } });
    expect((await h.me(sender.token)).balance).toBe(12.5);
    expect((await h.me(recipient.token)).balance).toBe(7.5);
    const [move] = await h.db.select().from(transfers).where(eq(transfers.toAccount, recipient.id));
    expect(move).toMatchObject({ fromAccount: sender.id, amount: 750n, kind: "gift" });
    await h.checkLedger();
  });

  test("an unknown, deleted or own id is refused at the recipientId field, and moves nothing", async () => {
    const sender = await h.signUp();
    const gone = await h.signUp();
    await h.fund(sender.token, 10);
    await h.call("DELETE", `/api/admin/users/${gone.id}`, { token: h.adminToken });
    const notFound = { status: 404, body: { msg: "Recipient not found.", code: "recipient_not_found", field: "recipientId" } };
    for (const recipientId of ["no-such-user", gone.id, "x".repeat(65), "bad\u0000id"]) {
      const res = await gift(sender.token, { amount: 1, recipientId });
      expect({ recipientId, status: res.status, body: res.body }).toEqual({ recipientId, ...notFound });
    }
    expect(await gift(sender.token, { amount: 1, recipientId: sender.id })).toMatchObject({
      status: 400,
      body: { msg: "You cannot send a gift to yourself.", code: "gift_to_self", field: "recipientId" },
    });
    // By email, the same refusals name that field.
    expect(await gift(sender.token, { amount: 1, recipientEmail: "nobody@test.local" })).toMatchObject({ status: 404, body: { field: "recipientEmail" } });
    expect((await h.me(sender.token)).balance).toBe(10);
    await h.checkLedger();
  });

  test("ids nobody has count against the searches, as unknown emails do: past SEARCH_PER_MINUTE every gift waits", async () => {
    const prober = await h.signUp();
    const member = await h.signUp();
    for (let i = 0; i < SEARCH_PER_MINUTE; i++) {
      expect(await gift(prober.token, { amount: "0.01", recipientId: `guess-${i}` })).toMatchObject({ status: 404, body: { code: "recipient_not_found" } });
    }
    const throttled = { status: 429, body: { code: "throttled", msg: MSG.tooManySearches } };
    expect(await gift(prober.token, { amount: "0.01", recipientId: member.id })).toMatchObject(throttled);
    expect(await gift(prober.token, { amount: "0.01", recipientEmail: member.email })).toMatchObject(throttled);
    expect((await h.call("GET", "/api/user/search?search=anyone", { token: prober.token })).status).toBe(429);
    await h.checkLedger();
  });

  test("a gift above the available balance is refused at the amount field, and a replay with the same key says the same", async () => {
    const sender = await h.signUp();
    const recipient = await h.signUp();
    await h.fund(sender.token, 5);
    const keyed = () =>
      h.call("POST", "/api/user/gift", { token: sender.token, body: { amount: "5.01", recipientId: recipient.id }, headers: { "Idempotency-Key": `over-${sender.id}` } });
    const refused = { status: 400, body: { msg: "Insufficient balance.", code: "insufficient_balance", field: "amount" } };
    const first = await keyed();
    expect({ status: first.status, body: first.body }).toEqual(refused);
    const again = await keyed();
    expect({ status: again.status, body: again.body, replayed: again.headers.get("Idempotent-Replayed") }).toEqual({ ...refused, replayed: "true" });
    expect((await h.me(sender.token)).balance).toBe(5);
    await h.checkLedger();
  });
});

describe("POST /api/admin/users/{id}/gift", () => {
  test("POST /api/admin/users/{id}/gift pays the user from system funds", async () => {
    const user = await h.signUp();
    const system = (await h.account("system")).balance;
    const admin = await h.me(h.adminToken);
    expect(await adminGift(user.id, { amount: "7.25" })).toMatchObject({ status: 200, body: { msg: "Gift sent successfully from system funds!" } });
    expect((await h.me(user.token)).balance).toBe(7.25);
    expect((await h.account("system")).balance).toBe(system - 725n);
    expect((await h.me(h.adminToken)).balance).toBe(admin.balance);
    const [move] = await h.db.select().from(transfers).where(eq(transfers.toAccount, user.id));
    expect(move).toMatchObject({ fromAccount: "system", amount: 725n, kind: "admin_gift" });
    await h.checkLedger();
  });

  test("POST /api/admin/users/{id}/gift answers 404 for an unknown or deleted user and 400 for a bad amount", async () => {
    const gone = await h.signUp();
    const user = await h.signUp();
    await h.call("DELETE", `/api/admin/users/${gone.id}`, { token: h.adminToken });
    expect(await adminGift("no-such-user", { amount: 5 })).toMatchObject({ status: 404, body: { msg: "User not found.", code: "user_not_found" } });
    expect(await adminGift(gone.id, { amount: 5 })).toMatchObject({ status: 404, body: { msg: "User not found.", code: "user_not_found" } });
    expect(await adminGift(user.id, { amount: 0 })).toMatchObject({ status: 400, body: { msg: "Please enter a valid positive amount." } });
    expect(await adminGift(user.id, { amount: 2.999 })).toMatchObject({ status: 400, body: { msg: "Amount must have at most 2 decimal places." } });
    expect(await adminGift(user.id, {})).toMatchObject({ status: 400, body: { msg: "Amount is required." } });
    expect(await h.account(gone.id)).toEqual({ balance: 0n, held: 0n });
    expect((await h.me(user.token)).balance).toBe(0);
    await h.checkLedger();
  });
});

describe("POST /api/admin/users/{id}/gift: members only, at most ADMIN_GIFT_MAX", () => {
  const toAdmin = { msg: "Gifts from system funds go to members only, not to admin accounts.", code: "gift_to_admin" };

  test("a gift to an admin account, the root or a promoted one, is refused with 400 'gift_to_admin' and moves nothing", async () => {
    const rootId: string = (await h.me(h.adminToken))._id;
    const promoted = await h.signUp();
    await h.promote(promoted.id);
    const system = await h.account("system");
    const audits = (await h.db.select().from(adminAudit)).length;
    expect(await adminGift(rootId, { amount: 5 })).toMatchObject({ status: 400, body: toAdmin });
    expect(await adminGift(promoted.id, { amount: 5 })).toMatchObject({ status: 400, body: toAdmin });
    expect(await h.account(rootId)).toMatchObject({ balance: 0n });
    expect(await h.account(promoted.id)).toMatchObject({ balance: 0n });
    expect(await h.account("system")).toEqual(system);
    expect((await h.db.select().from(adminAudit)).length).toBe(audits);
    // A member may still receive one.
    const member = await h.signUp();
    expect((await adminGift(member.id, { amount: 5 })).status).toBe(200);
  });

  test("a gift above ADMIN_GIFT_MAX (10,000 by default) is refused with 400 'admin_gift_too_large', naming the maximum", async () => {
    const member = await h.signUp();
    // The refusal is about the amount: the form shows it there.
    expect(await adminGift(member.id, { amount: "10000.01" })).toMatchObject({
      status: 400,
      body: { msg: "A gift from system funds can be at most 10,000 USDT.", code: "admin_gift_too_large", field: "amount" },
    });
    expect(await adminGift(member.id, { amount: 250_000 })).toMatchObject({ status: 400, body: { code: "admin_gift_too_large" } });
    expect((await h.me(member.token)).balance).toBe(0);
    expect((await adminGift(member.id, { amount: "10000" })).status).toBe(200);
    expect((await h.me(member.token)).balance).toBe(10_000);
  });

  test("ADMIN_GIFT_MAX sets the maximum", async () => {
    await withHarness(
      async (own) => {
        const member = await own.signUp();
        const give = (amount: string) => own.call("POST", `/api/admin/users/${member.id}/gift`, { token: own.adminToken, body: { amount } });
        expect(await give("25.51")).toMatchObject({ status: 400, body: { msg: "A gift from system funds can be at most 25.50 USDT.", code: "admin_gift_too_large" } });
        expect((await give("25.50")).status).toBe(200);
        expect((await own.me(member.token)).balance).toBe(25.5);
      },
      { config: { adminGiftMax: 2_550n } },
    );
  });
});

describe("GET /api/user/search", () => {
  test("GET /api/user/search finds users by the start of a word of the name or by the whole email, case-insensitively, answering only _id, name and email", async () => {
    const me = await h.signUp();
    const zed = await h.signUp({ name: "Zebulon Searchable", email: `zeb-${crypto.randomUUID().slice(0, 6)}@finder.test` });
    const byName = await h.call("GET", "/api/user/search?search=zEBUL", { token: me.token });
    // A name match shows the email masked (docs/rules.md#gifts).
    expect(byName).toMatchObject({ status: 200, body: [{ _id: zed.id, name: "Zebulon Searchable", email: "z***@finder.test" }] });
    expect(Object.keys(byName.body[0]).sort()).toEqual(["_id", "email", "name"]);
    const bySecondWord = await h.call("GET", "/api/user/search?search=SEARCHA", { token: me.token });
    expect(bySecondWord.body.map((u: { _id: string }) => u._id)).toEqual([zed.id]);
    const byEmail = await h.call("GET", `/api/user/search?search=${encodeURIComponent(zed.email.toUpperCase())}`, { token: me.token });
    expect(byEmail.body).toEqual([{ _id: zed.id, name: "Zebulon Searchable", email: zed.email }]);
    // A domain, or any other part of an email, lists no one.
    expect((await h.call("GET", "/api/user/search?search=FINDER.TEST", { token: me.token })).body).toEqual([]);
  });

  test("GET /api/user/search needs at least 3 characters", async () => {
    const me = await h.signUp();
    for (const query of ["", "?search=", "?search=ab", "?search=%20ab%20"]) {
      const res = await h.call("GET", `/api/user/search${query}`, { token: me.token });
      expect({ query, status: res.status, body: res.body }).toEqual({
        query,
        status: 400,
        body: { msg: "Type at least 3 characters to search for a user.", code: "validation" },
      });
    }
  });

  test("GET /api/user/search answers at most 10 users, never the searcher nor a deleted user", async () => {
    const tag = `crowd${crypto.randomUUID().slice(0, 6)}`;
    const crowd = [];
    for (let i = 0; i < 14; i++) crowd.push(await h.signUp({ name: `${tag} ${String(i).padStart(2, "0")}` }));
    await h.call("DELETE", `/api/admin/users/${crowd[0]!.id}`, { token: h.adminToken });
    const res = await h.call("GET", `/api/user/search?search=${tag}`, { token: crowd[1]!.token });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(10);
    const ids = res.body.map((u: { _id: string }) => u._id);
    expect(ids).not.toContain(crowd[0]!.id);
    expect(ids).not.toContain(crowd[1]!.id);
  });

  test("GET /api/user/search treats % and _ as plain characters", async () => {
    const me = await h.signUp();
    const odd = await h.signUp({ name: "Mr 100%_Sure" });
    const search = async (text: string) =>
      (await h.call("GET", `/api/user/search?search=${encodeURIComponent(text)}`, { token: me.token })).body.map((u: { _id: string }) => u._id);
    expect(await search("%%%")).toEqual([]);
    expect(await search("___")).toEqual([]);
    expect(await search("100%_")).toEqual([odd.id]);
    expect(await search("1_0")).toEqual([]);
    expect(await search("\\\\\\")).toEqual([]);
  });
});
