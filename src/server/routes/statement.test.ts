import { expect, test } from "bun:test";
import { sql } from "drizzle-orm";
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

test("GET /api/user/partners lists direct partners newest first with their team sizes; one who left is listed, marked deleted, their team still counted", async () => {
  const user = await m.member(undefined, 0);
  const a = await m.member(user, 0, "A");
  const b = await m.member(user, 0, "B");
  const c = await m.member(user, 0, "C");
  const d = await m.member(user, 0, "D");
  const a1 = await m.member(a, 0);
  await m.member(a, 0);
  await m.member(a1, 0);
  await m.member(d, 0);
  expect((await h.call("DELETE", `/api/admin/users/${d.id}`, { token: h.adminToken })).status).toBe(200);

  const res = await get(user, "partners");
  expect(res.status).toBe(200);
  expect({ ...res.body, partners: res.body.partners.map((p: any) => [p._id, p.name, p.partners, p.deleted]) }).toEqual({
    partners: [
      [d.id, "D", 1, true],
      [c.id, "C", 0, false],
      [b.id, "B", 0, false],
      [a.id, "A", 3, false],
    ],
    page: 1,
    totalPages: 1,
    hasMore: false,
    // D no longer counts; D's partner does, and is reached through D's branch.
    directPartners: 3,
    totalPartners: 7,
  });
  expect((await get(user, `partners?of=${d.id}`)).body).toMatchObject({ partners: [{ deleted: false }], directPartners: 1, totalPartners: 1 });
  // A branch whose only partner left still opens (hasPartners), one level down too.
  const e = (await get(user, `partners?of=${d.id}`)).body.partners[0]._id;
  expect((await h.call("DELETE", `/api/admin/users/${e}`, { token: h.adminToken })).status).toBe(200);
  expect((await get(user, "partners")).body.partners[0]).toMatchObject({ name: "D", deleted: true, directPartners: 0, hasPartners: true });
  expect((await get(user, `partners?of=${d.id}`)).body.partners).toMatchObject([{ _id: e, deleted: true, hasPartners: false }]);
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

test("GET /api/user/partners?after= pages from the last partner seen: partners who join between two pages are not repeated, and one who leaves stays in place", async () => {
  const user = await m.member(undefined, 0);
  const joined = [];
  for (let i = 0; i < 22; i++) joined.push((await m.member(user, 0)).id);
  const first = (await get(user, "partners?page=1")).body;
  const lastSeen = first.partners.at(-1)._id;
  expect(lastSeen).toBe(joined[2]);
  const second = async () => (await get(user, `partners?page=2&after=${lastSeen}`)).body;
  // A partner of the first page leaves: still listed (marked deleted), so nothing moves.
  expect((await h.call("DELETE", `/api/admin/users/${joined[10]}`, { token: h.adminToken })).status).toBe(200);
  expect((await get(user, "partners?page=2")).body.partners.map((p: any) => p._id)).toEqual([joined[1], joined[0]]);
  expect((await second()).partners.map((p: any) => p._id)).toEqual([joined[1], joined[0]]);
  expect((await second()).page).toBe(2);
  // Two more join: by offset, the second page repeats the first's last two rows; after it, nothing is repeated.
  await m.member(user, 0);
  await m.member(user, 0);
  expect((await get(user, "partners?page=2")).body.partners.map((p: any) => p._id)).toEqual([joined[3], joined[2], joined[1], joined[0]]);
  expect((await second()).partners.map((p: any) => p._id)).toEqual([joined[1], joined[0]]);
  // A deleted partner still marks its place.
  expect((await get(user, `partners?page=2&after=${joined[10]}`)).body.partners.map((p: any) => p._id)).toEqual(joined.slice(0, 10).reverse());
  // Someone who is not a partner of the list: as an unknown partner.
  const stranger = await m.member(undefined, 0);
  expect(await get(user, `partners?page=2&after=${stranger.id}`)).toMatchObject({ status: 404, body: { code: "partner_not_found" } });
});

test("GET /api/user/partners says whether partners follow the page (hasMore), from the rows themselves: partners who left since the first page cannot end the list early", async () => {
  const user = await m.member(undefined, 0);
  const joined = [];
  for (let i = 0; i < 41; i++) joined.push((await m.member(user, 0)).id);
  const first = (await get(user, "partners?page=1")).body;
  expect([first.partners.length, first.totalPages, first.hasMore]).toEqual([20, 3, true]);
  // Two partners of the first page leave: still listed (marked), so the pages stay three.
  for (const id of [joined[39], joined[38]]) expect((await h.call("DELETE", `/api/admin/users/${id}`, { token: h.adminToken })).status).toBe(200);
  const second = (await get(user, `partners?page=2&after=${first.partners.at(-1)._id}`)).body;
  // The pages count the partners who left too: they are still listed.
  expect([second.partners.length, second.totalPages, second.hasMore]).toEqual([20, 3, true]);
  const third = (await get(user, `partners?page=3&after=${second.partners.at(-1)._id}`)).body;
  expect([third.partners.map((p: any) => p._id), third.hasMore]).toEqual([[joined[0]], false]);
  // Exactly a page: nothing follows.
  const twenty = await m.member(undefined, 0);
  for (let i = 0; i < 20; i++) await m.member(twenty, 0);
  expect((await get(twenty, "partners?page=1")).body).toMatchObject({ totalPages: 1, hasMore: false });
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
  const asked = await h.call("POST", "/api/user/withdraw", { token: top.token, body: { accountType: "USDT TRC20", accountNumber: "TARkPnaSRKSg6ZAUbJGMGvBstELj7VS3Br", amount: 20 } });
  expect(asked.status).toBe(201);
  const [request] = (await h.call("GET", "/api/admin/withdrawals?status=pending&search=TARkPnaSRKSg6ZAUbJGMGvBstELj7VS3Br", { token: h.adminToken })).body;
  expect((await h.call("PUT", `/api/admin/withdrawals/${request._id}`, { token: h.adminToken, body: { status: "accepted" } })).status).toBe(200);

  const res = await get(top, "transactions");
  expect([res.status, res.body.page, res.body.totalPages]).toEqual([200, 1, 1]);
  expect(entries(res.body)).toEqual([
    ["withdrawal", -18.4, null, 85, null, null],
    ["fee", -1.6, "System", 103.4, null, null],
    ["gift_in", 7, "the platform", 105, null, null],
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

test("GET /api/user/transactions and the CSV show an admin gift as a gift from the platform, not from a member named System", async () => {
  const user = await m.member(undefined, 10, "Gifted");
  const friend = await m.member(undefined, 10, "Friend");
  expect((await h.call("POST", `/api/admin/users/${user.id}/gift`, { token: h.adminToken, body: { amount: 7 } })).status).toBe(200);
  expect((await h.call("POST", "/api/user/gift", { token: friend.token, body: { amount: 2, recipientEmail: user.email } })).status).toBe(200);
  const rows = (await get(user, "transactions")).body.transactions;
  expect(rows.map((t: any) => [t.kind, t.amount, t.counterparty?.name ?? null, t.fromPlatform])).toEqual([
    ["gift_in", 2, "Friend", false],
    ["gift_in", 7, "the platform", true],
    ["deposit", 10, null, false],
  ]);
  const lines = readCsv((await get(user, "transactions.csv")).body).slice(1);
  expect(lines.map((fields) => [fields[1], fields[2], fields[3]])).toEqual([
    ["gift_in", "2.00", "Friend"],
    ["gift_in", "7.00", "the platform"],
    ["deposit", "10.00", ""],
  ]);
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

// Filters and the CSV (docs/rules.md#statement)

/** Every row of the statement through the pages, as the member reads it. */
async function wholeStatement(user: { token: string }, query = "") {
  const rows: any[] = [];
  for (let page = 1; ; page++) {
    const body = (await get(user, `transactions?page=${page}${query}`)).body;
    rows.push(...body.transactions);
    if (page >= body.totalPages) return rows;
  }
}

/** A small RFC 4180 reader: the CSV's lines as arrays of fields. */
function readCsv(text: string): string[][] {
  const lines: string[][] = [];
  let fields: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") fields.push(field), (field = "");
    else if (ch === "\r" && text[i + 1] === "\n") {
      fields.push(field);
      lines.push(fields);
      (fields = []), (field = ""), i++;
    } else field += ch;
  }
  expect([field, fields]).toEqual(["", []]); // the text ends with a line end
  return lines;
}

const dollars = (amount: number) => (amount < 0 ? "-" : "") + (Math.abs(Math.round(amount * 100)) / 100).toFixed(2);
/** A statement row as the CSV must write it. */
const asCsv = (t: any) => [
  t.createdAt,
  t.kind,
  dollars(t.amount),
  t.counterparty?.name ?? "",
  t.program ?? "",
  t.level === null ? "" : String(t.level),
  dollars(t.balanceAfter),
  t.requestId ?? "",
  t.id,
];

/** A member whose statement has every kind: the first test's story, plus an unfreeze paid to them. */
async function everyKind() {
  const top = await m.member(undefined, 100, "Top");
  const owner = await m.member(top, 100, "Owner");
  const below = await m.member(owner, 100, "Below");
  const direct = await m.member(top, 100, "Direct");
  await m.bought(top, "6p", 1);
  await m.bought(owner, "6p", 1);
  await m.bought(below, "6p", 1); // passed up to top
  await m.bought(direct, "6p", 1); // paid to top
  await m.bought(top, "3p", 1);
  await m.bought(owner, "3p", 1);
  for (let i = 0; i < 6; i++) await m.bought(await m.member(owner, 5), "3p", 1);
  expect((await m.unfreeze(owner, "3p", 1)).status).toBe(200); // an earning of top's
  const gift = (from: { token: string }, to: { email: string }, amount: number) =>
    h.call("POST", "/api/user/gift", { token: from.token, body: { amount, recipientEmail: to.email } });
  expect((await gift(top, direct, 10)).status).toBe(200);
  expect((await gift(direct, top, 3)).status).toBe(200);
  expect((await h.call("POST", `/api/admin/users/${top.id}/gift`, { token: h.adminToken, body: { amount: 7 } })).status).toBe(200);
  expect((await h.decide("withdrawals", await h.withdraw(top.token, 20), "accepted")).status).toBe(200);
  return { top, owner, below, direct };
}

test("GET /api/user/transactions?kind= keeps the rows of that kind as the member reads them, earning and pass_up apart", async () => {
  const { top, owner } = await everyKind();
  const all = await wholeStatement(top);
  expect(new Set(all.map((t) => t.kind))).toEqual(new Set(["deposit", "withdrawal", "fee", "gift_in", "gift_out", "purchase", "earning", "pass_up"]));
  for (const kind of ["deposit", "withdrawal", "fee", "gift_in", "gift_out", "purchase", "unfreeze", "earning", "pass_up"]) {
    const res = await get(top, `transactions?kind=${kind}`);
    expect(res.status).toBe(200);
    expect({ kind, rows: res.body.transactions }).toEqual({ kind, rows: all.filter((t) => t.kind === kind) });
  }
  // Admin gifts and members' gifts are both gift_in; an unfreeze paid to the member is an earning.
  expect((await get(top, "transactions?kind=gift_in")).body.transactions.map((t: any) => [t.amount, t.counterparty.name, t.fromPlatform])).toEqual([
    [7, "the platform", true],
    [3, "Direct", false],
  ]);
  expect((await get(top, "transactions?kind=earning")).body.transactions.map((t: any) => [t.amount, t.counterparty.name, t.program])).toEqual([
    [2.5, "Owner", "3p"],
    [5, "Owner", "3p"],
    [5, "Direct", "6p"],
  ]);
  // The one who unfroze reads it as an unfreeze.
  const ownerAll = await wholeStatement(owner);
  expect((await get(owner, "transactions?kind=unfreeze")).body.transactions).toEqual(ownerAll.filter((t) => t.kind === "unfreeze"));
  expect((await get(owner, "transactions?kind=unfreeze")).body.transactions.map((t: any) => [t.amount, t.counterparty.name])).toEqual([[-2.5, "Top"]]);
  expect((await get(top, "transactions?kind=nonsense")).body).toEqual({
    msg: "Kind must be one of deposit, withdrawal, fee, gift_in, gift_out, purchase, unfreeze, earning or pass_up.",
    code: "validation",
  });
});

test("GET /api/user/transactions?from=&to= keeps the UTC days from and to, both included, and pages what it keeps", async () => {
  const user = await m.member(undefined, 0);
  for (let i = 1; i <= 30; i++) {
    expect((await h.call("POST", `/api/admin/users/${user.id}/gift`, { token: h.adminToken, body: { amount: i } })).status).toBe(200);
  }
  // Gift i happened on 2026-03-i (the last instant of the day for odd i, the first for even i).
  await h.db.execute(sql`
    UPDATE transfers SET created_at = CASE WHEN amount % 200 = 100
      THEN timestamptz '2026-03-01' + (amount / 100) * interval '1 day' - interval '1 millisecond'
      ELSE timestamptz '2026-03-01' + (amount / 100 - 1) * interval '1 day' END
    WHERE to_account = ${user.id}`);
  const amounts = async (query: string) => (await wholeStatement(user, query)).map((t) => t.amount);
  expect(await amounts("&from=2026-03-05&to=2026-03-07")).toEqual([7, 6, 5]);
  expect(await amounts("&from=2026-03-29")).toEqual([30, 29]);
  expect(await amounts("&to=2026-03-02")).toEqual([2, 1]);
  expect(await amounts("&from=2026-03-10&to=2026-03-10")).toEqual([10]);
  expect(await amounts("&from=2026-04-01")).toEqual([]);
  const kept = (await get(user, "transactions?from=2026-03-03&to=2026-03-30&kind=gift_in&page=2")).body;
  expect([kept.totalPages, kept.transactions.map((t: any) => t.amount)]).toEqual([2, [10, 9, 8, 7, 6, 5, 4, 3]]);
  expect((await get(user, "transactions?from=2026-03-02&to=2026-03-01")).body).toEqual({ msg: "From must be on or before To.", code: "validation" });
  expect((await get(user, "transactions?from=2026-02-30")).body).toEqual({ msg: "From must be a date (YYYY-MM-DD).", code: "validation" });
  expect((await get(user, "transactions?to=yesterday")).status).toBe(400);
  // Days at the edges of the calendar are no trouble.
  expect(await amounts("&from=0000-01-01&to=9999-12-31")).toHaveLength(30);
});

test("GET /api/user/transactions?tz= keeps the days as the member's time zone has them (the dates the dashboard shows), summer time included; the CSV too", async () => {
  const user = await m.member(undefined, 0);
  for (const amount of [1, 2, 3]) expect((await h.call("POST", `/api/admin/users/${user.id}/gift`, { token: h.adminToken, body: { amount } })).status).toBe(200);
  // 23:30 UTC on 4 March is 5 March in Tokyo (UTC+9); Berlin's clocks go forward on 29 March.
  await h.db.execute(sql`
    UPDATE transfers SET created_at = CASE amount
      WHEN 100 THEN timestamptz '2026-03-04 23:30Z'
      WHEN 200 THEN timestamptz '2026-03-28 23:30Z'
      ELSE timestamptz '2026-03-29 22:30Z' END
    WHERE to_account = ${user.id}`);
  const amounts = async (query: string) => (await wholeStatement(user, query)).map((t) => t.amount);
  expect(await amounts("&from=2026-03-05&to=2026-03-05")).toEqual([]);
  expect(await amounts("&from=2026-03-05&to=2026-03-05&tz=Asia/Tokyo")).toEqual([1]);
  expect(await amounts("&from=2026-03-04&to=2026-03-04&tz=Asia/Tokyo")).toEqual([]);
  expect(await amounts("&from=2026-03-04&to=2026-03-04&tz=UTC")).toEqual([1]);
  // In Berlin, 28 March 23:30 UTC is 29 March 00:30 (UTC+1); 29 March 22:30 UTC is 30 March 00:30 (UTC+2 by then).
  expect(await amounts("&from=2026-03-29&to=2026-03-29&tz=Europe/Berlin")).toEqual([2]);
  expect(await amounts("&from=2026-03-30&tz=Europe/Berlin")).toEqual([3]);
  expect(await amounts("&to=2026-03-28&tz=America/New_York")).toEqual([2, 1]);
  const csv = (await get(user, "transactions.csv?from=2026-03-05&to=2026-03-05&tz=Asia/Tokyo")).body as string;
  expect(readCsv(csv)).toHaveLength(2);
  for (const tz of ["Mars/Olympus_Mons", "x".repeat(65), ""]) {
    expect((await get(user, `transactions?from=2026-03-05&tz=${encodeURIComponent(tz)}`)).body).toEqual({ msg: "Time zone must be a time zone name such as Europe/Berlin.", code: "validation" });
  }
  expect(await amounts("&from=0000-01-01&to=9999-12-31&tz=Pacific/Kiritimati")).toHaveLength(3);
});

test("GET /api/user/transactions.csv: a header, then exactly the statement's rows, in order, every page of them", async () => {
  const { top } = await everyKind();
  for (let i = 0; i < 15; i++) {
    expect((await h.call("POST", `/api/admin/users/${top.id}/gift`, { token: h.adminToken, body: { amount: "0.05" } })).status).toBe(200);
  }
  const res = await get(top, "transactions.csv");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
  expect(res.headers.get("content-disposition")).toBe('attachment; filename="statement.csv"');
  const [header, ...lines] = readCsv(res.body);
  expect(header).toEqual(["date", "kind", "amount", "counterparty", "program", "level", "balance_after", "request_id", "transaction_id"]);
  const rows = await wholeStatement(top);
  expect(rows.length).toBeGreaterThan(20);
  expect(lines).toEqual(rows.map(asCsv));
  // Same filters as the statement.
  const earnings = readCsv((await get(top, "transactions.csv?kind=earning")).body).slice(1);
  expect(earnings).toEqual(rows.filter((t) => t.kind === "earning").map(asCsv));
  expect(readCsv((await get(top, "transactions.csv?from=2000-01-01&to=2000-01-02")).body)).toEqual([header!]);
  expect((await get(top, "transactions.csv?from=2026-03-02&to=2026-03-01")).body).toEqual({ msg: "From must be on or before To.", code: "validation" });
  expect((await h.call("GET", "/api/user/transactions.csv")).status).toBe(401);
});

test("GET /api/user/transactions.csv quotes what must be quoted and never lets a name become a formula", async () => {
  const user = await m.member(undefined, 0, "Plain");
  const names = ['=HYPERLINK("http://evil.test","x")', "-2+3", "+1", "@SUM(A1)", 'Smith, "Jr"'];
  for (const name of names) {
    const sender = await m.member(undefined, 5, name);
    expect((await h.call("POST", "/api/user/gift", { token: sender.token, body: { amount: 1, recipientEmail: user.email } })).status).toBe(200);
  }
  const plain = await m.member(undefined, 5);
  expect((await h.call("POST", "/api/user/gift", { token: user.token, body: { amount: 2, recipientEmail: plain.email } })).status).toBe(200);
  const text: string = (await get(user, "transactions.csv")).body;
  const lines = text.split("\r\n");
  expect(lines.at(-1)).toBe("");
  // Raw text: the sender's name quoted and neutralised, amounts written as plain numbers, negative ones too.
  expect(lines[1]).toContain(`,gift_out,-2.00,${plain.name},,,3.00,,`);
  expect(lines[2]).toContain(`,gift_in,1.00,"Smith, ""Jr""",,,5.00,,`);
  expect(lines[6]).toContain(`,gift_in,1.00,"'=HYPERLINK(""http://evil.test"",""x"")",,,1.00,,`);
  expect(readCsv(text).slice(1).map((fields) => fields[3])).toEqual([plain.name, `Smith, "Jr"`, "'@SUM(A1)", "'+1", "'-2+3", `'=HYPERLINK("http://evil.test","x")`]);
});

// The team, branch by branch (docs/rules.md#team)

test("GET /api/user/partners gives each partner their own direct partners and highest active level per program", async () => {
  const user = await m.member(undefined, 0);
  const a = await m.member(user, 100, "A");
  const b = await m.member(user, 0, "B");
  await m.member(a, 0);
  await m.member(a, 0);
  const a3 = await m.member(a, 0);
  await m.member(a3, 0);
  await m.bought(a, "3p", 1);
  await m.bought(a, "3p", 2);
  await m.bought(a, "6p", 1);
  // A frozen level is not active: a level the member bought but that froze does not count.
  await h.db.execute(sql`UPDATE user_levels SET status = 'frozen' WHERE user_id = ${a.id} AND program = '3p' AND level = 2`);
  const res = (await get(user, "partners")).body;
  expect(res.partners.map((p: any) => [p.name, p.partners, p.directPartners, p.levels])).toEqual([
    ["B", 0, 0, { "3p": 0, "6p": 0 }],
    ["A", 4, 3, { "3p": 1, "6p": 1 }],
  ]);
  expect([res.directPartners, res.totalPartners]).toEqual([2, 6]);
  await h.db.execute(sql`UPDATE user_levels SET status = 'active' WHERE user_id = ${a.id} AND program = '3p' AND level = 2`);
  expect((await get(user, "partners")).body.partners[1].levels).toEqual({ "3p": 2, "6p": 1 });
  expect(b.id).toBe(res.partners[0]._id);
});

test("GET /api/user/partners?of= opens a branch of the caller's team at any depth, and no one else's", async () => {
  const outsider = await m.member(undefined, 0, "Outsider");
  const outsiderPartner = await m.member(outsider, 0, "Outsider's partner");
  const top = await m.member(undefined, 0, "Top");
  const user = await m.member(top, 0, "User");
  const sibling = await m.member(top, 0, "Sibling");
  await m.member(sibling, 0);
  // A line 12 deep under the user, with a side branch at each step: the chains change along it.
  const line = [user];
  for (let i = 1; i <= 12; i++) {
    const next = await m.member(line.at(-1), 0, `L${i}`);
    line.push(next);
    if (i % 3 === 0) for (let j = 0; j < 3; j++) await m.member(next, 0, `S${i}.${j}`);
  }
  const gone = await m.member(line[4], 0, "Gone");
  await m.member(gone, 0);
  expect((await h.call("DELETE", `/api/admin/users/${gone.id}`, { token: h.adminToken })).status).toBe(200);

  const of = (caller: { token: string }, id: string, page = 1) => get(caller, `partners?of=${encodeURIComponent(id)}&page=${page}`);
  // Deep in the team: that member's own direct partners, and the counts describe them.
  const deep = await of(user, line[9]!.id);
  expect(deep.status).toBe(200);
  expect(deep.body.partners.map((p: any) => p.name)).toEqual(["L10", "S9.2", "S9.1", "S9.0"]);
  expect([deep.body.directPartners, deep.body.totalPartners, deep.body.totalPages]).toEqual([4, 9, 1]);
  expect((await of(user, line[1]!.id)).body.partners.map((p: any) => p.name)).toEqual(["L2"]);
  // The caller's own id is their own list.
  expect((await of(user, user.id)).body).toEqual((await get(user, "partners")).body);
  // The top of the tree sees everyone below.
  expect((await of(top, line[12]!.id)).body.partners.map((p: any) => p.name)).toEqual(["S12.2", "S12.1", "S12.0"]);

  // A partner who left keeps their branch: their partners are still in the team.
  expect((await of(user, gone.id)).body).toMatchObject({ partners: [{ deleted: false }], directPartners: 1 });
  // Outside the caller's team, unknown: one answer, which tells nothing.
  const refused = { msg: "Partner not found.", code: "partner_not_found" };
  for (const id of [top.id, sibling.id, outsider.id, outsiderPartner.id, "no-such-user", h.adminReferralId]) {
    expect(await of(user, id)).toMatchObject({ status: 404, body: refused });
  }
  // The member deep down cannot look up.
  expect(await of(line[9]!, line[3]!.id)).toMatchObject({ status: 404, body: refused });
  expect(await of(line[9]!, user.id)).toMatchObject({ status: 404, body: refused });
  expect((await get(user, "partners?of=")).status).toBe(400);
});
