import { expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { missedEarnings } from "../../db/schema";
import type { Harness } from "../../testing/harness";
import { useMoneyHarness } from "../../testing/useHarness";
import { onPostgres } from "../../testing/db";
import { matrixHelpers } from "../../testing/matrix";

// docs/rules.md#missed-earnings through GET /api/user/missed and the matrix's `missed`. Level n
// costs 5 x 2^(n-1) dollars, unfreezing level 1 $2.50; the admin (root) never buys.
let h: Harness;
let m: ReturnType<typeof matrixHelpers>;
useMoneyHarness((made) => {
  h = made;
  m = matrixHelpers(made);
});

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
/** A page's items with `createdAt` replaced by whether it is an ISO time. */
const itemsOf = (page: any) => page.items.map((i: any) => ({ ...i, createdAt: ISO.test(i.createdAt) }));
const item = (buyer: string, reason: "frozen" | "not_active", amount = 5, level = 1, program = "3p") => ({
  createdAt: true,
  program,
  level,
  buyer: { name: buyer },
  amount,
  reason,
});
/** Missed earnings stored for a user (deleted users cannot sign in to read theirs). */
const storedFor = async (userId: string) => (await h.db.select().from(missedEarnings).where(eq(missedEarnings.userId, userId))).length;

/** Top and Mid (under Top), both with 3P level 1 frozen by two completed cycles, in their own branch. */
async function frozenPair() {
  const top = await m.member(undefined, 100, "Top");
  const mid = await m.member(top, 100, "Mid");
  await m.bought(top, "3p", 1); // system
  await m.bought(mid, "3p", 1); // top's slot 1
  // Mid's partners: slots 3 and 6 go up to top's slots 2 and 3 (top's cycle 1); the 6th freezes Mid.
  for (let i = 0; i < 6; i++) await m.bought(await m.member(mid), "3p", 1);
  // Top's partners complete top's second cycle: frozen too, the last one up to system.
  for (let i = 0; i < 3; i++) await m.bought(await m.member(top), "3p", 1);
  expect([(await m.matrix(top, "3p", 1)).status, (await m.matrix(mid, "3p", 1)).status]).toEqual(["frozen", "frozen"]);
  expect([(await m.missed(top)).total, (await m.missed(mid)).total]).toEqual([0, 0]);
  return { top, mid };
}

test("a purchase whose walk passes frozen owners records one missed item for each of them, and none for a deleted one", async () => {
  const { top, mid } = await frozenPair();
  const one = await m.member(mid, 100, "Buyer One");
  const two = await m.member(mid, 100, "Buyer Two");
  await m.bought(one, "3p", 1); // passes Mid and Top (frozen), then the admin: system
  expect(await m.missed(mid)).toEqual({ items: [expect.anything()], page: 1, totalPages: 1, total: 1 });
  expect(itemsOf(await m.missed(mid))).toEqual([item("Buyer One", "frozen")]);

  expect((await h.call("DELETE", `/api/admin/users/${mid.id}`, { token: h.adminToken })).status).toBe(200);
  await m.bought(two, "3p", 1); // passes Mid (deleted: nothing) and Top (frozen)
  expect(await storedFor(mid.id)).toBe(1);
  const page = await m.missed(top);
  expect({ ...page, items: itemsOf(page) }).toEqual({ items: [item("Buyer Two", "frozen"), item("Buyer One", "frozen")], page: 1, totalPages: 1, total: 2 });
  expect((await m.matrix(top, "3p", 1)).missed).toBe(10);
  expect((await m.matrix(top, "6p", 1)).missed).toBe(0);
  await h.checkLedger();
});

test("a referrer without the level gets a not_active item for each level their partner buys, unless deleted", async () => {
  const ref = await m.member(undefined, 0, "Ref");
  const partner = await m.member(ref, 100, "Partner");
  await m.bought(partner, "3p", 1);
  await m.bought(partner, "3p", 2);
  const page = await m.missed(ref);
  expect({ ...page, items: itemsOf(page) }).toEqual({
    items: [item("Partner", "not_active", 10, 2), item("Partner", "not_active", 5, 1)],
    page: 1,
    totalPages: 1,
    total: 2,
  });
  expect([(await m.matrix(ref, "3p", 1)).missed, (await m.matrix(ref, "3p", 2)).missed]).toEqual([5, 10]);
  // Once the referrer has the level, a partner's purchase pays them instead.
  await h.fund(ref.token, 5);
  await m.bought(ref, "3p", 1);
  await m.bought(await m.member(ref, 100, "Second"), "3p", 1);
  expect((await m.missed(ref)).total).toBe(2);

  const gone = await m.member(undefined, 0, "Gone");
  const orphan = await m.member(gone);
  expect((await h.call("DELETE", `/api/admin/users/${gone.id}`, { token: h.adminToken })).status).toBe(200);
  await m.bought(orphan, "3p", 1);
  expect(await storedFor(gone.id)).toBe(0);
  await h.checkLedger();
});

test("an unfreeze whose walk passes a frozen owner records it a missed item of the unfreeze price", async () => {
  const { top, mid } = await frozenPair();
  expect((await m.unfreeze(mid, "3p", 1)).status).toBe(200); // passes Top (frozen): system
  expect(itemsOf(await m.missed(top))).toEqual([item("Mid", "frozen", 2.5)]);
  expect((await m.matrix(top, "3p", 1)).missed).toBe(2.5);
  await h.checkLedger();
});

test("GET /api/user/missed pages newest first, 20 a page", async () => {
  const ref = await m.member(undefined, 0, "Idle");
  const partner = await m.member(ref, 20_470, "Big"); // every level of both programs: 2 x 10,235
  for (const program of ["3p", "6p"]) for (let level = 1; level <= 11; level++) await m.bought(partner, program, level);
  const first = await m.missed(ref);
  expect([first.items.length, first.page, first.totalPages, first.total]).toEqual([20, 1, 2, 22]);
  expect(first.items.slice(0, 2).map((i: any) => [i.program, i.level, i.amount])).toEqual([
    ["6p", 11, 5120],
    ["6p", 10, 2560],
  ]);
  const second = await m.missed(ref, 2);
  expect({ ...second, items: itemsOf(second) }).toEqual({
    items: [item("Big", "not_active", 10, 2), item("Big", "not_active", 5, 1)],
    page: 2,
    totalPages: 2,
    total: 22,
  });
  expect((await m.missed(ref, 3)).items).toEqual([]);
  const none = await m.member(undefined, 0);
  expect(await m.missed(none)).toEqual({ items: [], page: 1, totalPages: 1, total: 0 });
  const bad = await h.call("GET", "/api/user/missed?page=0", { token: none.token });
  expect([bad.status, bad.body.code]).toEqual([400, "validation"]);
});

test("GET /api/user/missed?program=&level= lists one program, or one level, with its own pages and total (the page a level links to)", async () => {
  const ref = await m.member(undefined, 0, "Idle");
  const partner = await m.member(ref, 200, "Buyer");
  for (const program of ["3p", "6p"]) for (let level = 1; level <= 3; level++) await m.bought(partner, program, level);
  const list = async (query: string) => (await h.call("GET", `/api/user/missed?${query}`, { token: ref.token })).body;
  const levels = (page: any) => page.items.map((i: any) => `${i.program}/${i.level}`);
  expect((await list("")).total).toBe(6);
  expect(levels(await list("program=6p"))).toEqual(["6p/3", "6p/2", "6p/1"]);
  const one = await list("program=3p&level=2");
  expect({ ...one, items: itemsOf(one) }).toEqual({ items: [item("Buyer", "not_active", 10, 2)], page: 1, totalPages: 1, total: 1 });
  expect(levels(await list("level=1"))).toEqual(["6p/1", "3p/1"]);
  expect(await list("program=3p&level=12")).toEqual({ items: [], page: 1, totalPages: 1, total: 0 });
  for (const [query, msg] of [
    ["program=9p", "Program must be 3p or 6p."],
    ["level=13", "Level must be a whole number from 1 to 12."],
    ["level=two", "Level must be a whole number from 1 to 12."],
  ]) {
    const res = await h.call("GET", `/api/user/missed?${query}`, { token: ref.token });
    expect({ query, status: res.status, body: res.body }).toEqual({ query, status: 400, body: { msg, code: "validation" } });
  }
  await h.checkLedger();
});

test.skipIf(!onPostgres)("on Postgres, read while payments pass the member by, the page and the total agree (one snapshot)", async () => {
  const m = matrixHelpers(h);
  const frozen = await m.member(undefined, 50);
  await m.bought(frozen, "3p", 1);
  await h.db.execute(sql`UPDATE user_levels SET status = 'frozen', cycles = 2 WHERE user_id = ${frozen.id} AND program = '3p' AND level = 1`);
  const buyers = [];
  for (let i = 0; i < 16; i++) buyers.push(await m.member(frozen, 10));
  const disagreements: string[] = [];
  let buying = true;
  const read = async () => {
    while (buying) {
      const page = (await h.call("GET", "/api/user/missed", { token: frozen.token })).body;
      // Fewer than a page in all: the page holds them all.
      if (page.total <= 20 && page.items.length !== page.total) disagreements.push(`${page.items.length} of ${page.total}`);
    }
  };
  const readers = [read(), read()];
  await Promise.all(buyers.map((b) => m.buy(b, "3p", 1)));
  buying = false;
  await Promise.all(readers);
  expect(disagreements).toEqual([]);
  expect((await h.call("GET", "/api/user/missed", { token: frozen.token })).body.total).toBe(16);
});
