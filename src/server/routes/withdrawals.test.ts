import { describe, expect, test } from "bun:test";
import { asc, eq, sql } from "drizzle-orm";
import { transfers } from "../../db/schema";
import { withHarness, type Harness } from "../../testing/harness";
import { useMoneyHarness } from "../../testing/useHarness";

let h: Harness;
useMoneyHarness((made) => (h = made));

const submit = (token: string, body: Record<string, unknown>) => h.call("POST", "/api/user/withdraw", { token, body });
const request = (amount: unknown) => ({ accountType: "USDT TRC20", accountNumber: "TAhg2d6fag37Fz2PC7djKygisJ6aAuGqZh", amount });
const exceeds = { status: 400, body: { msg: "Withdrawal amount cannot exceed your available balance.", code: "exceeds_available" } };

async function funded(amount: number) {
  const user = await h.signUp();
  await h.fund(user.token, amount);
  return user;
}

describe("POST /api/user/withdraw", () => {
  test("POST /api/user/withdraw holds the amount: pendingWithdrawalsTotal rises, the balance stays", async () => {
    const user = await funded(100);
    const res = await submit(user.token, { accountType: "USDT BEP20", accountNumber: "0x52908400098527886E0F7030069857D2E4169EE7", amount: "40.25" });
    expect(res.status).toBe(201);
    expect(res.body.msg).toBe("Withdrawal request submitted successfully. It will be paid once an admin approves it.");
    expect(await h.me(user.token)).toMatchObject({ balance: 100, pendingWithdrawalsTotal: 40.25 });
    const [row] = (await h.call("GET", `/api/admin/withdrawals?search=${encodeURIComponent(user.email)}`, { token: h.adminToken })).body;
    expect(row).toMatchObject({ userEmail: user.email, amount: 40.25, accountType: "USDT BEP20", accountNumber: "0x52908400098527886E0F7030069857D2E4169EE7", status: "pending" });
    await h.checkLedger();
  });

  test("POST /api/user/withdraw takes only a wallet address of the chosen network, checksum included, and keeps it as the network writes it", async () => {
    const user = await funded(100);
    // One character of a good TRON address changed: the shape holds, the checksum does not.
    const broken = "TAhg2d6fag37Fz2PC7djKygisJ6aAuGqZi";
    expect(await submit(user.token, { ...request(10), accountNumber: broken })).toMatchObject({
      status: 400,
      body: { code: "validation", msg: "This TRC20 (TRON) address is not valid: its checksum does not match. Copy it again from your wallet." },
    });
    expect(await submit(user.token, { ...request(10), accountType: "USDT BEP20" })).toMatchObject({ status: 400, body: { code: "validation" } });
    expect(await h.me(user.token)).toMatchObject({ balance: 100, pendingWithdrawalsTotal: 0 });
    // A BEP20 address typed in lower case is kept with its checksum's capitals, as wallets show it.
    expect((await submit(user.token, { accountType: "USDT BEP20", accountNumber: "0x52908400098527886e0f7030069857d2e4169ee7", amount: 10 })).status).toBe(201);
    const [row] = (await h.call("GET", `/api/admin/withdrawals?search=${encodeURIComponent(user.email)}`, { token: h.adminToken })).body;
    expect(row.accountNumber).toBe("0x52908400098527886E0F7030069857D2E4169EE7");
    await h.checkLedger();
  });

  test("POST /api/user/withdraw refuses more than the available balance, counting pending withdrawals", async () => {
    const user = await funded(100);
    expect(await submit(user.token, request(100.01))).toMatchObject(exceeds);
    await h.withdraw(user.token, 40);
    expect(await submit(user.token, request("60.01"))).toMatchObject(exceeds);
    await h.withdraw(user.token, 60);
    expect(await submit(user.token, request(1))).toMatchObject(exceeds);
    expect(await h.me(user.token)).toMatchObject({ balance: 100, pendingWithdrawalsTotal: 100 });
    await h.checkLedger();
  });

  test("POST /api/user/withdraw refuses a user with no balance", async () => {
    const user = await h.signUp();
    expect(await submit(user.token, request(1))).toMatchObject(exceeds);
    expect(await h.me(user.token)).toMatchObject({ balance: 0, pendingWithdrawalsTotal: 0 });
  });

  test("POST /api/user/withdraw refuses bad amounts, networks and addresses with 400 and a msg", async () => {
    const user = await funded(50);
    const cases: [Record<string, unknown>, string][] = [
      [request(0), "Please enter a valid positive withdrawal amount."],
      [request(-5), "Please enter a valid positive withdrawal amount."],
      [request(0.99), "The minimum withdrawal is 1 USDT."],
      [request(10.005), "Amount must have at most 2 decimal places."],
      [request("lots"), "Amount must be a number."],
      [request(undefined), "Amount is required."],
      [{ ...request(5), accountType: "BTC" }, "Please choose USDT TRC20 or USDT BEP20."],
      [{ ...request(5), accountType: undefined }, "Please choose USDT TRC20 or USDT BEP20."],
      [{ ...request(5), accountNumber: "" }, "Wallet address is required."],
      [{ ...request(5), accountNumber: 12345 }, "Wallet address is required."],
    ];
    for (const [body, msg] of cases) {
      const res = await submit(user.token, body);
      expect({ body, status: res.status, answer: res.body }).toEqual({ body, status: 400, answer: { msg, code: "validation" } });
    }
    expect(await h.me(user.token)).toMatchObject({ balance: 50, pendingWithdrawalsTotal: 0 });
    await h.checkLedger();
  });

  test("a pending withdrawal holds money that gifts cannot spend", async () => {
    const user = await funded(100);
    const friend = await h.signUp();
    await h.withdraw(user.token, 90);
    const gift = (amount: number) => h.call("POST", "/api/user/gift", { token: user.token, body: { amount, recipientEmail: friend.email } });
    expect(await gift(10.01)).toMatchObject({ status: 400, body: { msg: "Insufficient balance.", code: "insufficient_balance" } });
    expect((await gift(10)).status).toBe(200);
    expect(await h.me(user.token)).toMatchObject({ balance: 90, pendingWithdrawalsTotal: 90 });
    await h.checkLedger();
  });
});

describe("PUT /api/admin/withdrawals/{id}", () => {
  test("PUT /api/admin/withdrawals/{id} accepted takes the full amount: 8% fee to the system, the rest paid out", async () => {
    const user = await funded(100);
    const id = await h.withdraw(user.token, 100);
    const system = (await h.account("system")).balance;
    const external = (await h.account("external")).balance;
    expect(await h.decide("withdrawals", id, "accepted")).toMatchObject({ status: 200, body: { msg: "Request successfully accepted." } });
    expect(await h.me(user.token)).toMatchObject({ balance: 0, pendingWithdrawalsTotal: 0 });
    expect((await h.account("system")).balance).toBe(system + 800n);
    expect((await h.account("external")).balance).toBe(external + 9200n);
    const [row] = (await h.call("GET", `/api/admin/withdrawals?search=${encodeURIComponent(user.email)}`, { token: h.adminToken })).body;
    expect(row).toMatchObject({ _id: id, status: "accepted", amount: 100, fee: 8 });
    await h.checkLedger();
  });

  test("PUT /api/admin/withdrawals/{id} rounds the fee half up to the cent and records both transfers", async () => {
    const user = await funded(50);
    const id = await h.withdraw(user.token, "12.34"); // 8% = 0.9872 -> 0.99
    await h.decide("withdrawals", id, "accepted");
    const moves = await h.db.select().from(transfers).where(eq(transfers.requestId, id)).orderBy(asc(transfers.id));
    expect(moves.map((m) => ({ from: m.fromAccount, to: m.toAccount, amount: m.amount, kind: m.kind }))).toEqual([
      { from: user.id, to: "system", amount: 99n, kind: "fee" },
      { from: user.id, to: "external", amount: 1135n, kind: "withdrawal" },
    ]);
    expect(await h.me(user.token)).toMatchObject({ balance: 37.66, pendingWithdrawalsTotal: 0 });
    await h.checkLedger();
  });

  test("PUT /api/admin/withdrawals/{id} declined releases the hold and moves nothing", async () => {
    const user = await funded(30);
    const id = await h.withdraw(user.token, 30);
    expect(await h.decide("withdrawals", id, "declined")).toMatchObject({ status: 200, body: { msg: "Request successfully declined." } });
    expect(await h.me(user.token)).toMatchObject({ balance: 30, pendingWithdrawalsTotal: 0 });
    expect(await h.db.select().from(transfers).where(eq(transfers.requestId, id))).toEqual([]);
    // The released money can be withdrawn again.
    await h.withdraw(user.token, 30);
    await h.checkLedger();
  });

  test("PUT /api/admin/withdrawals/{id} answers 409 for a request already decided, and moves nothing", async () => {
    const user = await funded(100);
    const accepted = await h.withdraw(user.token, 50);
    const declined = await h.withdraw(user.token, 20);
    await h.decide("withdrawals", accepted, "accepted");
    await h.decide("withdrawals", declined, "declined");
    const before = await h.account(user.id);
    for (const [id, status] of [
      [accepted, "accepted"],
      [accepted, "declined"],
      [declined, "accepted"],
      [declined, "declined"],
    ] as const) {
      const res = await h.decide("withdrawals", id, status);
      expect({ status: res.status, body: res.body }).toEqual({ status: 409, body: { msg: "This request has already been processed.", code: "already_processed" } });
    }
    expect(await h.account(user.id)).toEqual(before);
    expect(await h.me(user.token)).toMatchObject({ balance: 50, pendingWithdrawalsTotal: 0 });
    await h.checkLedger();
  });

  test("PUT /api/admin/withdrawals/{id} answers 404 for an unknown request and 400 for a bad status", async () => {
    const user = await funded(10);
    const id = await h.withdraw(user.token, 10);
    expect(await h.decide("withdrawals", "no-such-request", "accepted")).toMatchObject({ status: 404, body: { msg: "Request not found.", code: "request_not_found" } });
    expect(await h.decide("withdrawals", id, "pending")).toMatchObject({ status: 400, body: { msg: "Status must be accepted or declined." } });
    expect(await h.decide("deposits", id, "accepted")).toMatchObject({ status: 404, body: { msg: "Request not found.", code: "request_not_found" } });
    expect(await h.me(user.token)).toMatchObject({ balance: 10, pendingWithdrawalsTotal: 10 });
    await h.checkLedger();
  });

  test("a deleted user's pending withdrawal can still be decided", async () => {
    const user = await funded(20);
    const id = await h.withdraw(user.token, 20);
    await h.call("DELETE", `/api/admin/users/${user.id}`, { token: h.adminToken });
    expect((await h.decide("withdrawals", id, "accepted")).status).toBe(200);
    expect(await h.account(user.id)).toEqual({ balance: 0n, held: 0n });
    await h.checkLedger();
  });
});

describe("GET /api/admin/withdrawals", () => {
  test("GET /api/admin/withdrawals pages through the whole history, however long: 50 a page by default, the total in X-Total-Count", async () => {
    const user = await h.signUp();
    const tag = `bulk${crypto.randomUUID().slice(0, 8)}`;
    await h.db.execute(sql`
      INSERT INTO withdrawals (id, user_id, amount, account_type, account_number, status, created_at)
      SELECT ${tag} || '-' || g, ${user.id}, 100, 'USDT TRC20', ${tag} || '-wallet-' || g, 'declined', now() - g * interval '1 second'
      FROM generate_series(1, 600) AS g`);
    const list = (query: string) => h.call("GET", `/api/admin/withdrawals?search=${tag}${query}`, { token: h.adminToken });
    const first = await list("");
    expect([first.status, first.body.length, first.headers.get("X-Total-Count")]).toEqual([200, 50, "600"]);
    expect(first.body[0]._id).toBe(`${tag}-1`);
    const last = await list("&limit=100&page=6");
    expect([last.body.length, last.headers.get("X-Total-Count")]).toEqual([100, "600"]);
    expect(last.body[99]._id).toBe(`${tag}-600`);
    expect((await list("&page=12")).body.map((r: { _id: string }) => r._id)).toEqual(Array.from({ length: 50 }, (_, i) => `${tag}-${551 + i}`));
    expect((await list("&page=13")).body).toEqual([]);
    expect((await list("&limit=101")).body).toEqual({ msg: "Limit must be between 1 and 100.", code: "validation" });
    await h.checkLedger();
  });

  test("GET /api/admin/withdrawals lists every request newest first, filtered by status and by search text", async () => {
    await withHarness(async (own) => {
      const ann = await own.signUp({ name: "Ann Withdrawer", email: "ann.wd@test.local" });
      const ben = await own.signUp({ name: "Ben Withdrawer", email: "ben.wd@test.local" });
      await own.fund(ann.token, 100);
      await own.fund(ben.token, 100);
      const a1 = await own.withdraw(ann.token, 10, { accountNumber: "TBADRMJNrGMqCN8EC9FN5kBTqjgyzaXmpH" });
      const b1 = await own.withdraw(ben.token, 20, { accountNumber: "TAybfTctk2dYRQtHnw17P3BZrMrRDfZABg" });
      const a2 = await own.withdraw(ann.token, 30, { accountNumber: "TB4uYQTdo9VgotWFzY8EjPgWr3mhf9by2Y" });
      await own.decide("withdrawals", a1, "accepted");
      await own.decide("withdrawals", b1, "declined");

      const list = await own.call("GET", "/api/admin/withdrawals", { token: own.adminToken });
      expect(list.body.map((r: { _id: string }) => r._id)).toEqual([a2, b1, a1]);
      expect(list.body[2]).toMatchObject({ fee: 0.8, amount: 10 });
      expect(list.body[0]).toMatchObject({ fee: null, amount: 30 });
      const ids = async (query: string) =>
        (await own.call("GET", `/api/admin/withdrawals${query}`, { token: own.adminToken })).body.map((r: { _id: string }) => r._id);
      expect(await ids("?status=pending")).toEqual([a2]);
      expect(await ids("?status=accepted")).toEqual([a1]);
      expect(await ids("?search=ann.wd")).toEqual([a2, a1]);
      expect(await ids("?search=BEN WITHDRAWER")).toEqual([b1]);
      expect(await ids("?search=tb4uyqtdo")).toEqual([a2]);
      expect(await ids("?search=%25")).toEqual([]);
      expect(await ids("?search=_")).toEqual([]);
    });
  });
});

describe("POST /api/user/withdrawals/:id/cancel", () => {
  const cancel = (token: string, id: string) => h.call("POST", `/api/user/withdrawals/${id}/cancel`, { token });

  test("a pending withdrawal cancelled by its member gives the held amount back at once; the ledger does not move", async () => {
    const user = await funded(100);
    const id = await h.withdraw(user.token, 40);
    expect(await h.me(user.token)).toMatchObject({ balance: 100, pendingWithdrawalsTotal: 40 });
    const before = await h.db.select().from(transfers);
    expect(await cancel(user.token, id)).toMatchObject({ status: 200, body: { msg: "Withdrawal cancelled. The amount is available in your balance again." } });
    expect(await h.me(user.token)).toMatchObject({ balance: 100, pendingWithdrawalsTotal: 0 });
    expect(await h.db.select().from(transfers)).toHaveLength(before.length);
    const [mine] = (await h.call("GET", "/api/user/requests?type=withdrawal", { token: user.token })).body.items;
    expect(mine).toMatchObject({ status: "declined", cancelled: true, reason: "Cancelled by the member.", address: expect.stringMatching(/^T/), net: null });
    const [listed] = (await h.call("GET", `/api/admin/withdrawals?search=${encodeURIComponent(user.email)}`, { token: h.adminToken })).body;
    expect(listed).toMatchObject({ status: "declined", cancelled: true });
    // Twice, or an admin deciding it afterwards: already decided, nothing moves.
    expect(await cancel(user.token, id)).toMatchObject({ status: 409, body: { code: "already_processed" } });
    expect(await h.decide("withdrawals", id, "accepted")).toMatchObject({ status: 409, body: { code: "already_processed" } });
    await h.checkLedger();
  });

  test("a decided withdrawal cannot be cancelled; another member's, or an unknown one, is not found", async () => {
    const user = await funded(100);
    const other = await funded(10);
    const accepted = await h.withdraw(user.token, 20);
    await h.decide("withdrawals", accepted, "accepted");
    expect(await cancel(user.token, accepted)).toMatchObject({ status: 409, body: { code: "already_processed" } });
    const pending = await h.withdraw(user.token, 30);
    expect(await cancel(other.token, pending)).toMatchObject({ status: 404, body: { code: "request_not_found" } });
    expect(await cancel(user.token, "no-such-request")).toMatchObject({ status: 404, body: { code: "request_not_found" } });
    expect(await h.call("POST", `/api/user/withdrawals/${pending}/cancel`)).toMatchObject({ status: 401 });
    // The pending one shows where it goes and what arrives: the amount less the fee it will have.
    const items = (await h.call("GET", "/api/user/requests?type=withdrawal", { token: user.token })).body.items;
    expect(items.map((r: { status: string; net: number | null; fee: number | null }) => [r.status, r.fee, r.net])).toEqual([
      ["pending", null, 27.6],
      ["accepted", 1.6, 18.4],
    ]);
    expect(await h.me(user.token)).toMatchObject({ pendingWithdrawalsTotal: 30 });
    await h.checkLedger();
  });

  test("a cancel racing an admin's accept ends one way only, and the ledger moves once", async () => {
    for (let round = 0; round < 5; round++) {
      const user = await funded(50);
      const id = await h.withdraw(user.token, 50);
      const [cancelled, accepted] = await Promise.all([cancel(user.token, id), h.decide("withdrawals", id, "accepted")]);
      expect([cancelled.status, accepted.status].sort()).toEqual([200, 409]);
      const moved = await h.db.select().from(transfers).where(eq(transfers.requestId, id));
      expect(moved).toHaveLength(cancelled.status === 200 ? 0 : 2);
      expect((await h.me(user.token)).balance).toBe(cancelled.status === 200 ? 50 : 0);
      await h.checkLedger();
    }
  });
});

describe("refusals of a withdrawal name the field they are about", () => {
  test("an address whose checksum fails names accountNumber; an amount above the available balance, however written, names amount", async () => {
    const user = await funded(100);
    const broken = "TAhg2d6fag37Fz2PC7djKygisJ6aAuGqZi";
    const checksum = await submit(user.token, { ...request(10), accountNumber: broken });
    expect(checksum.body).toEqual({
      code: "validation",
      msg: "This TRC20 (TRON) address is not valid: its checksum does not match. Copy it again from your wallet.",
      field: "accountNumber",
    });
    // Above the balance: by the hold, and by the schema (too many digits to be any balance).
    for (const amount of [100.01, "99999999999999"]) {
      const res = await submit(user.token, request(amount));
      expect({ amount, status: res.status, body: res.body }).toEqual({ amount, status: 400, body: { ...exceeds.body, field: "amount" } });
    }
    // A problem the form's own schema finds first is answered as before, without a field.
    expect((await submit(user.token, request("1.234"))).body).toEqual({ code: "validation", msg: "Amount must have at most 2 decimal places." });
    expect(await h.me(user.token)).toMatchObject({ balance: 100, pendingWithdrawalsTotal: 0 });
    await h.checkLedger();
  });

  test("a cancel sent again with its Idempotency-Key is replayed, not refused: the client's retry after a lost answer", async () => {
    const user = await funded(30);
    const id = await h.withdraw(user.token, 30);
    const keyed = () => h.call("POST", `/api/user/withdrawals/${id}/cancel`, { token: user.token, headers: { "Idempotency-Key": `cancel-${id}` } });
    expect(await keyed()).toMatchObject({ status: 200, body: { msg: "Withdrawal cancelled. The amount is available in your balance again." } });
    const again = await keyed();
    expect([again.status, again.headers.get("Idempotent-Replayed")]).toEqual([200, "true"]);
    expect(await h.me(user.token)).toMatchObject({ balance: 30, pendingWithdrawalsTotal: 0 });
    await h.checkLedger();
  });
});
