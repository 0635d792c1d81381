import { describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { decode } from "hono/jwt";
import { users } from "../../db/schema";
import { currentUser } from "../../core/users";
import { API } from "../../shared/contract";
import { ADMIN } from "../../testing/db";
import { credit } from "../../testing/domain";
import { wire } from "../reply";
import { withHarness, type Harness } from "../../testing/harness";
import { useMoneyHarness } from "../../testing/useHarness";

let h: Harness;
useMoneyHarness((made) => (h = made));

const register = (body: Record<string, unknown>) => h.call("POST", "/api/auth/register", { body });
const login = (email: string, password: string) => h.call("POST", "/api/auth/login", { body: { email, password } });
let unique = 0;
const freshEmail = () => `auth${++unique}-${crypto.randomUUID().slice(0, 8)}@test.local`;

describe("GET /api/auth", () => {
  test("GET /api/auth answers the signed-in user with every field and never a password hash", async () => {
    const ann = await h.signUp({ name: "Ann Auth" });
    const res = await h.call("GET", "/api/auth", { token: ann.token });
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body).toMatchObject({
      _id: ann.id,
      name: "Ann Auth",
      email: ann.email,
      role: "user",
      balance: 0,
      pendingWithdrawalsTotal: 0,
      referredBy: h.adminReferralId,
      totalPartners: 0,
      directPartners: 0,
    });
    expect(body.myReferralId).toMatch(/^[A-Z2-9]{8}$/);
    for (const program of ["3p", "6p"]) {
      const levels = body.packages[program].levels;
      expect(levels.map((l: { level: number }) => l.level)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
      for (const level of levels) expect(level).toMatchObject({ status: "locked", boxes: [] });
    }
    expect(Object.keys(body.packages).sort()).toEqual(["3p", "6p"]);
    const text = JSON.stringify(body);
    expect(text).not.toContain("argon2");
    expect(text.toLowerCase()).not.toContain("password");
  });

  test("GET /api/auth answers referredBy null for the root admin", async () => {
    const admin = await h.me(h.adminToken);
    expect(admin.role).toBe("admin");
    expect(admin.referredBy).toBeNull();
    expect(admin.myReferralId).toBe(h.adminReferralId);
  });

  test("GET /api/auth counts direct partners and partners at every depth", async () => {
    const top = await h.signUp();
    const mid = await h.signUp({ referralId: top.myReferralId });
    const low = await h.signUp({ referralId: mid.myReferralId });
    await h.signUp({ referralId: low.myReferralId });
    await h.signUp({ referralId: top.myReferralId });
    expect(await h.me(top.token)).toMatchObject({ totalPartners: 4, directPartners: 2 });
    expect(await h.me(mid.token)).toMatchObject({ totalPartners: 2, directPartners: 1, referredBy: top.myReferralId });
    expect(await h.me(low.token)).toMatchObject({ totalPartners: 1, directPartners: 1, referredBy: mid.myReferralId });
  });

  test("GET /api/auth shows every change of the member at once, as the contract encodes it (answers are kept by the member's whole state)", async () => {
    const ann = await h.signUp({ name: "Ann Changes" });
    const expected = async () => {
      const { held, ...me } = await currentUser(h.db, ann.id);
      return JSON.parse(JSON.stringify(wire(API.me, { ...me, pendingWithdrawalsTotal: held })));
    };
    const first = await h.me(ann.token);
    expect(first).toEqual(await expected());
    expect(await h.me(ann.token)).toEqual(first);

    await credit(h.db, ann.id, 2_000n);
    expect((await h.me(ann.token)).balance).toBe(20);
    expect((await h.call("POST", "/api/user/packages/purchase/3p/1", { token: ann.token })).status).toBe(200);
    const bought = await h.me(ann.token);
    expect(bought.balance).toBe(15);
    expect(bought.packages["3p"].levels[0]).toMatchObject({ level: 1, status: "active" });
    expect(bought).toEqual(await expected());
    await h.signUp({ referralId: ann.myReferralId });
    expect(await h.me(ann.token)).toMatchObject({ totalPartners: 1, directPartners: 1 });
    expect(await h.me(ann.token)).toEqual(await expected());

    // The same state again (another token of the same member): the same answer; a revoked token: none.
    expect((await h.call("POST", "/api/auth/logout", { token: ann.token })).status).toBe(200);
    expect(await h.call("GET", "/api/auth", { token: ann.token })).toMatchObject({ status: 401, body: { code: "bad_token" } });
  });
});

describe("GET /api/auth for many members at once", () => {
  test("GET /api/auth asked by many members at once (read together, as a busy server does) answers each their own, and refuses a revoked token alone", async () => {
    const members = await Promise.all(Array.from({ length: 12 }, (_, i) => h.signUp({ name: `Many ${i}` })));
    // Each a balance of their own; one signs out (their token revoked), another of them signs in again.
    await Promise.all(members.map((m, i) => credit(h.db, m.id, BigInt((i + 1) * 100))));
    const [leaving] = members;
    expect((await h.call("POST", "/api/auth/logout", { token: leaving!.token })).status).toBe(200);
    const again = await login(members[1]!.email, "secret-password");
    expect(again.status).toBe(200);
    const asks = [...members.map((m) => ({ member: m, token: m.token })), { member: members[1]!, token: again.body.token as string }];
    // All at once, twice over: more than the member statements that run at once, so most wait and share one.
    const answers = await Promise.all([...asks, ...asks].map((ask) => h.call("GET", "/api/auth", { token: ask.token })));
    answers.forEach((res, i) => {
      const { member } = asks[i % asks.length]!;
      if (member === leaving) return expect(res).toMatchObject({ status: 401, body: { code: "bad_token" } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ _id: member.id, email: member.email, name: member.name, balance: (members.indexOf(member) + 1) * 1 });
    });
  });
});

describe("the token check of many requests at once", () => {
  test("requests of many members at once (their token checks read together) are each let in or refused on their own token: revoked, of a deleted user, a member at an admin route", async () => {
    const members = await Promise.all(Array.from({ length: 10 }, (_, i) => h.signUp({ name: `Checked ${i}` })));
    const [leaving, deleted] = members;
    expect((await h.call("POST", "/api/auth/logout", { token: leaving!.token })).status).toBe(200);
    expect((await h.call("DELETE", `/api/admin/users/${deleted!.id}`, { token: h.adminToken })).status).toBe(200);
    const asks = [
      ...members.map((m) => ({ token: m.token, path: "/api/user/notifications", want: m === leaving || m === deleted ? 401 : 200 })),
      { token: members[2]!.token, path: "/api/admin/users", want: 403 },
      { token: h.adminToken, path: "/api/admin/users", want: 200 },
    ];
    // All at once, three times over: more than the token statements that run at once, so most share one.
    const answers = await Promise.all([...asks, ...asks, ...asks].map((ask) => h.call("GET", ask.path, { token: ask.token })));
    expect(answers.map((res) => res.status)).toEqual([...asks, ...asks, ...asks].map((ask) => ask.want));
  });
});

describe("POST /api/auth/register", () => {
  test("POST /api/auth/register creates a user under the referral ID and answers 201", async () => {
    const email = freshEmail();
    const res = await register({ name: "Reg", email, password: "secret", referralId: h.adminReferralId });
    expect(res).toMatchObject({ status: 201, body: { msg: "Registration successful! Please log in." } });
    expect(await login(email, "secret")).toMatchObject({ status: 200 });
    const [stored] = await h.db.select({ hash: users.passwordHash }).from(users).where(eq(users.email, email));
    expect(stored!.hash).toStartWith("$argon2id$");
    expect(stored!.hash).not.toContain("secret");
  });

  test("POST /api/auth/register reads the referral ID whatever its case and surrounding spaces", async () => {
    const sponsor = await h.signUp();
    const email = freshEmail();
    const res = await register({ name: "Lower", email, password: "secret", referralId: `  ${sponsor.myReferralId.toLowerCase()} ` });
    expect(res.status).toBe(201);
    const token = (await login(email, "secret")).body.token;
    expect((await h.me(token)).referredBy).toBe(sponsor.myReferralId);
  });

  test("POST /api/auth/register refuses an email already registered, whatever its case", async () => {
    const email = freshEmail();
    expect((await register({ name: "First", email, password: "secret", referralId: h.adminReferralId })).status).toBe(201);
    for (const again of [email, email.toUpperCase(), ` ${email.replace(/^a/, "A")} `]) {
      const res = await register({ name: "Second", email: again, password: "secret", referralId: h.adminReferralId });
      expect(res).toEqual({ status: 409, body: { msg: "A user with this email already exists.", code: "email_taken", field: "email" }, headers: res.headers });
    }
  });

  test("POST /api/auth/register refuses an unknown referral ID", async () => {
    const res = await register({ name: "Nobody", email: freshEmail(), password: "secret", referralId: "ZZZZZZZZ" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ msg: "Invalid referral ID.", code: "invalid_referral", field: "referralId" });
  });

  test("POST /api/auth/register refuses the referral ID of a deleted user", async () => {
    const gone = await h.signUp();
    expect((await h.call("DELETE", `/api/admin/users/${gone.id}`, { token: h.adminToken })).status).toBe(200);
    const res = await register({ name: "Orphan", email: freshEmail(), password: "secret", referralId: gone.myReferralId });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ msg: "Invalid referral ID.", code: "invalid_referral", field: "referralId" });
  });

  test("POST /api/auth/register refuses a password shorter than 6 characters", async () => {
    const res = await register({ name: "Short", email: freshEmail(), password: "12345", referralId: h.adminReferralId });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ msg: "Password must be at least 6 characters.", code: "validation" });
  });

  test("POST /api/auth/register refuses a missing or wrongly typed field with 400 and a msg", async () => {
    const valid = { name: "Full", email: freshEmail(), password: "secret", referralId: h.adminReferralId };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...valid, name: undefined }, "Name is required."],
      [{ ...valid, email: undefined }, "Email is required."],
      [{ ...valid, email: "nope" }, "Please enter a valid email address."],
      [{ ...valid, password: undefined }, "Password is required."],
      [{ ...valid, referralId: "" }, "Referral ID is required."],
      [{ ...valid, password: 123456 }, "Password is required."],
    ];
    for (const [body, msg] of cases) {
      const res = await register(body);
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { msg, code: "validation" } });
    }
    expect((await login(valid.email, "secret")).status).toBe(400);
  });
});

describe("POST /api/auth/login", () => {
  test("POST /api/auth/login answers an HS256 token with a jti that expires in 24 hours", async () => {
    const user = await h.signUp();
    const res = await login(user.email.toUpperCase(), user.password);
    expect(res.status).toBe(200);
    const { header, payload } = decode(res.body.token);
    expect(header.alg).toBe("HS256");
    expect(payload.sub).toBe(user.id);
    expect(typeof payload.jti).toBe("string");
    expect(payload.exp! - payload.iat!).toBe(24 * 60 * 60);
    expect(Math.abs(payload.iat! - Date.now() / 1000)).toBeLessThan(60);
    const second = await login(user.email, user.password);
    expect(decode(second.body.token).payload.jti).not.toBe(payload.jti);
  });

  test("POST /api/auth/login lets the first-start admin in with the default address admin@localhost", async () => {
    await withHarness(async (own) => {
      await own.db.execute(sql`UPDATE users SET email = 'admin@localhost' WHERE role = 'admin'`);
      const res = await own.call("POST", "/api/auth/login", { body: { email: "admin@localhost", password: ADMIN.password } });
      expect(res.status).toBe(200);
      expect((await own.me(res.body.token)).role).toBe("admin");
      // An address the browser's type=email accepts is accepted on registration too.
      expect((await own.call("POST", "/api/auth/register", { body: { name: "Local", email: "ann@localhost", password: "secret", referralId: own.adminReferralId } })).status).toBe(201);
    });
  });

  test("POST /api/auth/login refuses a wrong password and an unknown email alike", async () => {
    const user = await h.signUp();
    const wrong = await login(user.email, "not-the-password");
    const unknown = await login(freshEmail(), "whatever");
    expect({ status: wrong.status, body: wrong.body }).toEqual({ status: 400, body: { msg: "Invalid email or password.", code: "invalid_credentials" } });
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: 400, body: { msg: "Invalid email or password.", code: "invalid_credentials" } });
  });

  test("POST /api/auth/login refuses missing fields", async () => {
    expect(await h.call("POST", "/api/auth/login", { body: { email: "a@b.co" } })).toMatchObject({ status: 400, body: { msg: "Password is required." } });
    expect(await h.call("POST", "/api/auth/login", { body: {} })).toMatchObject({ status: 400, body: { msg: "Email is required." } });
  });

  test("POST /api/auth/login slows down one source after 5 failures at one email: even the right password gets 429 saying when to retry", async () => {
    const user = await h.signUp();
    for (let i = 0; i < 5; i++) expect((await login(user.email, `wrong-${i}`)).status).toBe(400);
    const blocked = await login(user.email, user.password);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ msg: "Too many failed login attempts. Please try again in 1 minute.", code: "throttled" });
    expect(blocked.headers.get("retry-after")).toBe("1");
    // The same email in other letters is the same account; another account is not affected.
    expect((await login(user.email.toUpperCase(), user.password)).status).toBe(429);
    const other = await h.signUp();
    expect((await login(other.email, other.password)).status).toBe(200);
    // A session opened before goes on working. (More in ./abuse.test.ts.)
    expect((await h.call("GET", "/api/auth", { token: user.token })).status).toBe(200);
  });

  test("POST /api/auth/login refuses a deleted user", async () => {
    const user = await h.signUp();
    await h.call("DELETE", `/api/admin/users/${user.id}`, { token: h.adminToken });
    expect(await login(user.email, user.password)).toMatchObject({ status: 400, body: { msg: "Invalid email or password.", code: "invalid_credentials" } });
  });
});

describe("POST /api/auth/logout", () => {
  test("POST /api/auth/logout revokes that token only", async () => {
    const user = await h.signUp();
    const other = await h.login(user.email, user.password);
    const res = await h.call("POST", "/api/auth/logout", { token: user.token });
    expect(res).toMatchObject({ status: 200, body: { msg: "Logged out successfully." } });
    expect(await h.call("GET", "/api/auth", { token: user.token })).toMatchObject({ status: 401, body: { msg: "Token is not valid", code: "bad_token" } });
    expect(await h.call("POST", "/api/auth/logout", { token: user.token })).toMatchObject({ status: 401, body: { msg: "Token is not valid", code: "bad_token" } });
    expect((await h.call("GET", "/api/auth", { token: other })).status).toBe(200);
  });

  test("POST /api/auth/logout without a token answers 401", async () => {
    expect(await h.call("POST", "/api/auth/logout")).toMatchObject({ status: 401, body: { msg: "No token, authorization denied", code: "no_token" } });
  });
});

describe("GET /api/auth/admin-referral-id", () => {
  test("GET /api/auth/admin-referral-id answers the admin's referral ID to anyone", async () => {
    const res = await h.call("GET", "/api/auth/admin-referral-id");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ referralId: (await h.me(h.adminToken)).myReferralId });
    const adminToken = await h.login(ADMIN.email, ADMIN.password);
    expect((await h.me(adminToken)).role).toBe("admin");
  });
});

describe("GET /api/user/details/{referralId}", () => {
  test("GET /api/user/details/{referralId} answers the name and referral ID of that user, nothing more", async () => {
    const sponsor = await h.signUp({ name: "Sponsor Sam" });
    const user = await h.signUp({ referralId: sponsor.myReferralId });
    const res = await h.call("GET", `/api/user/details/${sponsor.myReferralId}`, { token: user.token });
    expect(res).toMatchObject({ status: 200, body: { name: "Sponsor Sam", myReferralId: sponsor.myReferralId } });
    expect(Object.keys(res.body).sort()).toEqual(["myReferralId", "name"]);
    const lower = await h.call("GET", `/api/user/details/${sponsor.myReferralId.toLowerCase()}`, { token: user.token });
    expect(lower.body).toEqual(res.body);
  });

  test("GET /api/user/details/{referralId} still names a deleted sponsor to the users they referred, and to no one else", async () => {
    const sponsor = await h.signUp({ name: "Gone Sponsor" });
    const user = await h.signUp({ referralId: sponsor.myReferralId });
    const stranger = await h.signUp();
    expect((await h.call("DELETE", `/api/admin/users/${sponsor.id}`, { token: h.adminToken })).status).toBe(200);
    expect(await h.call("GET", `/api/user/details/${sponsor.myReferralId}`, { token: user.token })).toMatchObject({
      status: 200,
      body: { name: "Gone Sponsor", myReferralId: sponsor.myReferralId },
    });
    expect((await h.call("GET", `/api/user/details/${sponsor.myReferralId}`, { token: stranger.token })).status).toBe(404);
  });

  test("GET /api/user/details/{referralId} answers 404 for an unknown ID and 401 without a token", async () => {
    const user = await h.signUp();
    expect(await h.call("GET", "/api/user/details/ZZZZZZZZ", { token: user.token })).toMatchObject({ status: 404, body: { msg: "User not found.", code: "user_not_found" } });
    expect(await h.call("GET", `/api/user/details/${user.myReferralId}`)).toMatchObject({
      status: 401,
      body: { msg: "No token, authorization denied", code: "no_token" },
    });
  });
});
