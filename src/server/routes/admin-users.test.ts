import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { transfers } from "../../db/schema";
import { ADMIN } from "../../testing/db";
import type { Harness } from "../../testing/harness";
import { useMoneyHarness } from "../../testing/useHarness";

describe("GET /api/admin/users", () => {
  let h: Harness;
  // Its own database: these tests count every user there is.
  useMoneyHarness((made) => (h = made));

  const list = (query = "") => h.call("GET", `/api/admin/users${query}`, { token: h.adminToken });

  test("GET /api/admin/users answers {users, totalPages}, newest first, with each user's balance and no password", async () => {
    const ann = await h.signUp({ name: "Ann List" });
    const ben = await h.signUp({ name: "Ben List" });
    await h.fund(ben.token, 12.5);
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.totalPages).toBe(1);
    expect(res.body.users.map((u: { _id: string }) => u._id).slice(0, 2)).toEqual([ben.id, ann.id]);
    expect(res.body.users[0]).toMatchObject({ _id: ben.id, name: "Ben List", email: ben.email, balance: 12.5 });
    expect(res.body.users.at(-1)).toMatchObject({ email: ADMIN.email, role: "admin" });
    expect(JSON.stringify(res.body)).not.toContain("argon2");
    expect(JSON.stringify(res.body).toLowerCase()).not.toContain("password");
    // ADMIN_GIFT_MAX (10,000 by default), so the gift form checks it before the confirmation.
    expect(res.body.adminGiftMax).toBe(10_000);
  });

  test("GET /api/admin/users pages by page and limit, 10 a page by default", async () => {
    while ((await list()).body.users.length < 10) await h.signUp();
    await h.signUp();
    await h.signUp();
    const all = (await list("?limit=100")).body;
    const total = all.users.length;
    expect(total).toBeGreaterThanOrEqual(12);
    expect(all.totalPages).toBe(1);

    const first = (await list()).body;
    expect(first.users).toHaveLength(10);
    expect(first.totalPages).toBe(Math.ceil(total / 10));
    const second = (await list("?page=2&limit=10")).body;
    expect(second.users.map((u: { _id: string }) => u._id)).toEqual(all.users.slice(10, 20).map((u: { _id: string }) => u._id));

    const byFive = (await list("?page=3&limit=5")).body;
    expect(byFive.totalPages).toBe(Math.ceil(total / 5));
    expect(byFive.users.map((u: { _id: string }) => u._id)).toEqual(all.users.slice(10, 15).map((u: { _id: string }) => u._id));
    expect((await list("?page=999")).body).toEqual({ users: [], totalPages: Math.ceil(total / 10), adminGiftMax: 10_000 });
  });

  test("GET /api/admin/users refuses a page or limit that is not a whole number in range", async () => {
    for (const query of ["?page=0", "?page=-1", "?page=abc", "?page=1.5", "?limit=0", "?limit=101", "?limit=ten"]) {
      const res = await list(query);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect(typeof res.body.msg).toBe("string");
    }
  });

  test("GET /api/admin/users?search filters by name or email, with % and _ as plain characters", async () => {
    const odd = await h.signUp({ name: "Ms 50%_Off" });
    const carol = await h.signUp({ name: "Carol Searchable" });
    const search = async (text: string) => {
      const res = await list(`?search=${encodeURIComponent(text)}`);
      return { ids: res.body.users.map((u: { _id: string }) => u._id), totalPages: res.body.totalPages };
    };
    expect(await search("carol SEARCH")).toEqual({ ids: [carol.id], totalPages: 1 });
    expect(await search(carol.email.toUpperCase())).toEqual({ ids: [carol.id], totalPages: 1 });
    expect(await search("%")).toEqual({ ids: [odd.id], totalPages: 1 });
    expect(await search("_")).toEqual({ ids: [odd.id], totalPages: 1 });
    expect(await search("no such person")).toEqual({ ids: [], totalPages: 1 });
  });
});

describe("DELETE /api/admin/users/{id}", () => {
  let h: Harness;
  useMoneyHarness((made) => (h = made));

  test("DELETE /api/admin/users/{id} removes the user softly: no sign-in, no token, not listed, history kept", async () => {
    const sponsor = await h.signUp();
    const user = await h.signUp({ name: "Dora Deleted", referralId: sponsor.myReferralId });
    const peer = await h.signUp();
    await h.fund(user.token, 30);
    expect((await h.me(sponsor.token)).totalPartners).toBe(1);

    const res = await h.call("DELETE", `/api/admin/users/${user.id}`, { token: h.adminToken });
    expect(res).toMatchObject({ status: 200, body: { msg: "User deleted successfully!" } });

    expect(await h.call("GET", "/api/auth", { token: user.token })).toMatchObject({ status: 401, body: { msg: "Token is not valid", code: "bad_token" } });
    expect((await h.call("POST", "/api/auth/login", { body: { email: user.email, password: user.password } })).status).toBe(400);
    const listed = await h.call("GET", `/api/admin/users?search=${encodeURIComponent("Dora Deleted")}&limit=100`, { token: h.adminToken });
    expect(listed.body.users).toEqual([]);
    expect((await h.call("GET", "/api/user/search?search=Dora", { token: peer.token })).body).toEqual([]);
    expect(await h.me(sponsor.token)).toMatchObject({ totalPartners: 0, directPartners: 0 });

    // The money and its history stay.
    expect(await h.account(user.id)).toEqual({ balance: 3000n, held: 0n });
    expect(await h.db.select().from(transfers).where(eq(transfers.toAccount, user.id))).toHaveLength(1);
    const deposits = await h.call("GET", `/api/admin/deposits?search=${encodeURIComponent(user.email)}`, { token: h.adminToken });
    expect(deposits.body).toHaveLength(1);
    await h.checkLedger();
  });

  test("DELETE /api/admin/users/{id} keeps the deleted user's place in the referral chain", async () => {
    const top = await h.signUp();
    const middle = await h.signUp({ referralId: top.myReferralId });
    const bottom = await h.signUp({ referralId: middle.myReferralId });
    await h.call("DELETE", `/api/admin/users/${middle.id}`, { token: h.adminToken });
    expect(await h.me(top.token)).toMatchObject({ totalPartners: 1, directPartners: 0 });
    expect(await h.me(bottom.token)).toMatchObject({ referredBy: middle.myReferralId });
    await h.call("DELETE", `/api/admin/users/${bottom.id}`, { token: h.adminToken });
    expect(await h.me(top.token)).toMatchObject({ totalPartners: 0, directPartners: 0 });
  });

  test("DELETE /api/admin/users/{id} refuses to delete an admin, and answers 404 for an unknown or already deleted user", async () => {
    const admin = await h.me(h.adminToken);
    expect(await h.call("DELETE", `/api/admin/users/${admin._id}`, { token: h.adminToken })).toMatchObject({
      status: 403,
      body: { msg: "Admins cannot be deleted.", code: "cannot_delete_admin" },
    });
    const second = await h.signUp();
    await h.promote(second.id);
    expect(await h.call("DELETE", `/api/admin/users/${second.id}`, { token: h.adminToken })).toMatchObject({ status: 403 });
    expect((await h.call("GET", "/api/auth", { token: h.adminToken })).status).toBe(200);

    expect(await h.call("DELETE", "/api/admin/users/no-such-user", { token: h.adminToken })).toMatchObject({
      status: 404,
      body: { msg: "User not found.", code: "user_not_found" },
    });
    const user = await h.signUp();
    expect((await h.call("DELETE", `/api/admin/users/${user.id}`, { token: h.adminToken })).status).toBe(200);
    expect(await h.call("DELETE", `/api/admin/users/${user.id}`, { token: h.adminToken })).toMatchObject({ status: 404, body: { msg: "User not found.", code: "user_not_found" } });
  });
});
