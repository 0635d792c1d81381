import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import type { Harness } from "../../testing/harness";
import { useMoneyHarness } from "../../testing/useHarness";
import { randomTxId } from "../../testing/chainIds";

// docs/rules.md#requests-as-the-member-sees-them: the admin's reason on a decision, and the
// member's own list of deposit and withdrawal requests.
let h: Harness;
useMoneyHarness((made) => (h = made));

const decide = (kind: "deposits" | "withdrawals", id: string, body: Record<string, unknown>) =>
  h.call("PUT", `/api/admin/${kind}/${id}`, { token: h.adminToken, body });
const requests = (user: { token: string }, page?: number) => h.call("GET", `/api/user/requests${page ? `?page=${page}` : ""}`, { token: user.token });
const auditAfter = async (id: string) => {
  const { entries } = (await h.call("GET", "/api/admin/audit", { token: h.adminToken })).body;
  return entries.find((e: any) => e.targetId === id)?.after;
};

describe("PUT /api/admin/{deposits|withdrawals}/{id} with a reason", () => {
  test("the reason is trimmed and kept on the request and in the audit record; the answer is unchanged", async () => {
    const user = await h.signUp();
    await h.fund(user.token, 50);
    const depositTx = randomTxId();
    const deposit = await h.deposit(user.token, 10, { transactionId: depositTx });
    expect(await decide("deposits", deposit, { status: "declined", reason: "  No such transaction on chain.  " })).toMatchObject({
      status: 200,
      body: { msg: "Request successfully declined." },
    });
    const withdrawal = await h.withdraw(user.token, 20, { accountNumber: "TAX4GjRBUSJpV2nSnuPUdGgpsvG1Qpvcm3" });
    expect(await decide("withdrawals", withdrawal, { status: "accepted", reason: "Paid, tx 0xabc" })).toMatchObject({
      status: 200,
      body: { msg: "Request successfully accepted." },
    });

    const [dep] = (await h.call("GET", `/api/admin/deposits?search=${depositTx}`, { token: h.adminToken })).body;
    expect(dep).toMatchObject({ _id: deposit, status: "declined", reason: "No such transaction on chain." });
    const [wd] = (await h.call("GET", "/api/admin/withdrawals?search=TAX4GjRBUSJpV2nSnuPUdGgpsvG1Qpvcm3", { token: h.adminToken })).body;
    expect(wd).toMatchObject({ _id: withdrawal, status: "accepted", fee: 1.6, reason: "Paid, tx 0xabc" });
    expect(await auditAfter(deposit)).toEqual({ status: "declined", reason: "No such transaction on chain." });
    expect(await auditAfter(withdrawal)).toEqual({ status: "accepted", fee: "1.60", reason: "Paid, tx 0xabc" });
  });

  test("no reason, or a blank one, is none: null on the request and absent from the audit record", async () => {
    const user = await h.signUp();
    const silent = await h.deposit(user.token, 5);
    const blank = await h.deposit(user.token, 5);
    expect((await decide("deposits", silent, { status: "accepted" })).status).toBe(200);
    expect((await decide("deposits", blank, { status: "declined", reason: "   " })).status).toBe(200);
    const listed = (await h.call("GET", `/api/admin/deposits?search=${encodeURIComponent(user.email)}`, { token: h.adminToken })).body;
    expect(listed.filter((d: any) => [silent, blank].includes(d._id)).map((d: any) => d.reason)).toEqual([null, null]);
    expect(await auditAfter(silent)).toEqual({ status: "accepted" });
    expect(await auditAfter(blank)).toEqual({ status: "declined" });
  });

  test("a reason over 200 characters, not text, or with control characters is refused, and nothing is decided", async () => {
    const user = await h.signUp();
    const badTx = randomTxId();
    const id = await h.deposit(user.token, 5, { transactionId: badTx });
    const cases: [unknown, string][] = [
      ["x".repeat(201), "Reason must be at most 200 characters."],
      [42, "Reason must be text."],
      ["line\nbreak", "Reason contains characters that are not allowed."],
      // A right-to-left override would show the member other words than those stored.
      ["wrong \u202etnuocca", "Reason contains characters that are not allowed."],
      ["\u2066isolated\u2069", "Reason contains characters that are not allowed."],
    ];
    for (const [reason, msg] of cases) {
      expect(await decide("deposits", id, { status: "declined", reason })).toMatchObject({ status: 400, body: { msg, code: "validation" } });
    }
    // Right-to-left text with its marks is fine.
    const rtl = "\u200fالمبلغ غير صحيح\u200f";
    const other = await h.deposit(user.token, 5);
    expect((await decide("deposits", other, { status: "declined", reason: rtl })).status).toBe(200);
    // 200 characters after trimming are fine.
    expect((await decide("deposits", id, { status: "declined", reason: ` ${"y".repeat(200)} ` })).status).toBe(200);
    const [row] = (await h.call("GET", `/api/admin/deposits?search=${badTx}`, { token: h.adminToken })).body;
    expect(row.reason).toBe("y".repeat(200));
  });

  test("a replay with the same Idempotency-Key and reason answers the first decision again", async () => {
    const user = await h.signUp();
    const id = await h.deposit(user.token, 5);
    const send = () =>
      h.call("PUT", `/api/admin/deposits/${id}`, { token: h.adminToken, body: { status: "declined", reason: "Duplicate" }, headers: { "Idempotency-Key": "reason-k1" } });
    expect((await send()).status).toBe(200);
    const again = await send();
    expect([again.status, again.headers.get("Idempotent-Replayed")]).toEqual([200, "true"]);
  });
});

describe("GET /api/user/requests", () => {
  test("lists the caller's deposits and withdrawals in every state, newest first, with reason, method and fee", async () => {
    const user = await h.signUp();
    const other = await h.signUp();
    await h.fund(user.token, 100); // an accepted deposit, no reason
    await h.fund(other.token, 10); // someone else's: never listed
    const declined = await h.deposit(user.token, 7);
    await decide("deposits", declined, { status: "declined", reason: "Not received" });
    const paid = await h.withdraw(user.token, 20, { accountType: "USDT BEP20" });
    await decide("withdrawals", paid, { status: "accepted" });
    const refused = await h.withdraw(user.token, 5);
    await decide("withdrawals", refused, { status: "declined", reason: "Wrong network" });
    const waiting = await h.withdraw(user.token, 3, { accountType: "USDT TRC20" });
    const pendingDeposit = await h.deposit(user.token, 9);

    const res = await requests(user);
    expect([res.status, res.body.page, res.body.totalPages]).toEqual([200, 1, 1]);
    const items = res.body.items;
    expect(items.map((r: any) => [r.type, r.amount, r.status, r.reason, r.method, r.fee])).toEqual([
      ["deposit", 9, "pending", null, null, null],
      ["withdrawal", 3, "pending", null, "USDT TRC20", null],
      ["withdrawal", 5, "declined", "Wrong network", "USDT TRC20", null],
      ["withdrawal", 20, "accepted", null, "USDT BEP20", 1.6],
      ["deposit", 7, "declined", "Not received", null, null],
      ["deposit", 100, "accepted", null, null, null],
    ]);
    expect(items.slice(0, 5).map((r: any) => r._id)).toEqual([pendingDeposit, waiting, refused, paid, declined]);
    // Decided ones carry when; pending ones do not.
    expect(items.map((r: any) => r.decidedAt === null)).toEqual([true, true, false, false, false, false]);
    for (const r of items) expect(Number.isNaN(Date.parse(r.createdAt))).toBe(false);
    expect((await requests(other)).body.items.map((r: any) => r.amount)).toEqual([10]);
  });

  test("merges both tables by time, then id, and pages by 20", async () => {
    const user = await h.signUp();
    // 13 deposits and 12 withdrawals, interleaved in time; two share a second to test the tie-break.
    await h.db.execute(sql`
      INSERT INTO deposits (id, user_id, amount, address, transaction_id, status, created_at)
      SELECT 'd-' || lpad(g::text, 2, '0'), ${user.id}, g * 100, 'TW', 'page-tx-' || g, 'declined', timestamptz '2026-01-01' + (2 * g) * interval '1 minute'
      FROM generate_series(1, 13) AS g`);
    await h.db.execute(sql`
      INSERT INTO withdrawals (id, user_id, amount, account_type, account_number, status, created_at)
      SELECT 'w-' || lpad(g::text, 2, '0'), ${user.id}, g * 100, 'USDT TRC20', 'TW', 'declined', timestamptz '2026-01-01' + (2 * g + 1) * interval '1 minute'
      FROM generate_series(1, 12) AS g`);
    await h.db.execute(sql`UPDATE withdrawals SET created_at = timestamptz '2026-01-01' + 26 * interval '1 minute' WHERE id = 'w-12'`);
    // d-13 and w-12 now share a time: the larger id ('w-12') comes first.
    const expected = ["w-12", "d-13"];
    for (let g = 11; g >= 1; g--) expected.push(`d-${String(g + 1).padStart(2, "0")}`, `w-${String(g).padStart(2, "0")}`);
    expected.push("d-01");
    const first = (await requests(user, 1)).body;
    const second = (await requests(user, 2)).body;
    expect([first.totalPages, first.items.length, second.items.length]).toEqual([2, 20, 5]);
    expect([...first.items, ...second.items].map((r: any) => r._id)).toEqual(expected);
    expect((await requests(user, 3)).body.items).toEqual([]);
    expect((await h.call("GET", "/api/user/requests?page=0", { token: user.token })).status).toBe(400);
    expect((await requests(await h.signUp())).body).toEqual({ items: [], page: 1, totalPages: 1 });

    // ?type= keeps one table: its own order and its own page count.
    const deposits = (await h.call("GET", "/api/user/requests?type=deposit", { token: user.token })).body;
    expect([deposits.totalPages, deposits.items.map((r: any) => r._id)]).toEqual([1, expected.filter((id) => id.startsWith("d-"))]);
    const withdrawals = (await h.call("GET", "/api/user/requests?type=withdrawal", { token: user.token })).body;
    expect(withdrawals.items.map((r: any) => r._id)).toEqual(expected.filter((id) => id.startsWith("w-")));
    expect(await h.call("GET", "/api/user/requests?type=gift", { token: user.token })).toMatchObject({
      status: 400,
      body: { msg: "Type must be deposit or withdrawal.", code: "validation" },
    });
  });
});
