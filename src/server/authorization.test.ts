import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { sign } from "hono/jwt";
import { createHarness, type Harness } from "../testing/harness";

/**
 * The authorization table: every route against every kind of caller. A caller that may not act
 * gets 401 (no or bad identity) or 403 (not an admin) before any work is done; one that may act
 * gets the route's own answer.
 */

const SECRET = "test-secret-that-is-long-enough-for-hs256";
type Caller = "anonymous" | "user" | "admin" | "deleted" | "expired" | "forged" | "revoked";
const CALLERS: Caller[] = ["anonymous", "user", "admin", "deleted", "expired", "forged", "revoked"];
type Access = "public" | "user" | "admin";

interface Route {
  method: string;
  path: string;
  access: Access;
  body?: unknown;
  /** The answer for a caller who may act (a user, or an admin). */
  user?: number;
  admin: number;
}

// Databases take a while to make; the preload's default reaches the first test file only.
setDefaultTimeout(60_000);

let h: Harness;
let routes: Route[];
const tokens: Partial<Record<Caller, () => Promise<string | undefined>>> = {};

beforeAll(async () => {
  h = await createHarness();
  const member = await h.signUp({ email: "member@test.local", password: "member-password" });
  const other = await h.signUp({ email: "other@test.local" });
  const gone = await h.signUp({ email: "gone@test.local", password: "gone-password" });
  const goneToken = await h.login("gone@test.local", "gone-password");
  expect((await h.call("DELETE", `/api/admin/users/${gone.id}`, { token: h.adminToken })).status).toBe(200);
  const revoked = await h.login("member@test.local", "member-password");
  expect((await h.call("POST", "/api/auth/logout", { token: revoked })).status).toBe(200);
  const now = Math.floor(Date.now() / 1000);

  tokens.anonymous = async () => undefined;
  tokens.user = () => h.login("member@test.local", "member-password");
  tokens.admin = () => h.login("admin@test.local", "admin-password");
  tokens.deleted = async () => goneToken;
  tokens.expired = () => sign({ sub: member.id, jti: crypto.randomUUID(), iat: now - 90_000, exp: now - 3_600 }, SECRET, "HS256");
  tokens.forged = () => sign({ sub: member.id, jti: crypto.randomUUID(), iat: now, exp: now + 3_600 }, "some-other-secret-of-enough-length", "HS256");
  tokens.revoked = async () => revoked;

  const deposit = await h.call("POST", "/api/user/deposit", { token: other.token, body: { address: "TW", transactionId: "authz-1", amount: 5 } });
  expect(deposit.status).toBe(201);
  const [pending] = (await h.call("GET", "/api/admin/deposits?status=pending", { token: h.adminToken })).body;

  routes = [
    { method: "GET", path: "/api/programs/3p/levels", access: "public", user: 200, admin: 200 },
    { method: "GET", path: "/api/auth/admin-referral-id", access: "public", user: 200, admin: 200 },
    { method: "GET", path: "/api/config", access: "public", user: 200, admin: 200 },
    { method: "POST", path: "/api/auth/login", access: "public", body: { email: "nobody@test.local", password: "x" }, user: 400, admin: 400 },
    { method: "GET", path: "/api/auth", access: "user", user: 200, admin: 200 },
    { method: "POST", path: "/api/auth/logout", access: "user", user: 200, admin: 200 },
    { method: "GET", path: `/api/user/details/${h.adminReferralId}`, access: "user", user: 200, admin: 200 },
    { method: "POST", path: "/api/user/deposit", access: "user", body: { address: "TW", transactionId: "authz-dup", amount: 5 }, user: 201, admin: 400 },
    { method: "POST", path: "/api/user/withdraw", access: "user", body: { accountType: "USDT TRC20", accountNumber: "TW", amount: 5 }, user: 400, admin: 400 },
    { method: "GET", path: "/api/user/search?search=other", access: "user", user: 200, admin: 200 },
    { method: "POST", path: "/api/user/gift", access: "user", body: { amount: 1, recipientEmail: "other@test.local" }, user: 400, admin: 400 },
    { method: "POST", path: "/api/user/packages/purchase/3p/1", access: "user", user: 400, admin: 400 },
    { method: "POST", path: "/api/user/packages/unfreeze/3p/1", access: "user", user: 400, admin: 400 },
    { method: "GET", path: "/api/user/matrix/3p/1", access: "user", user: 200, admin: 200 },
    { method: "GET", path: "/api/user/partners", access: "user", user: 200, admin: 200 },
    { method: "GET", path: "/api/user/transactions", access: "user", user: 200, admin: 200 },
    { method: "POST", path: "/api/newsletter", access: "public", body: { email: "reader@test.local" }, user: 201, admin: 201 },
    { method: "PATCH", path: "/api/programs/6p/levels/12", access: "admin", body: { cost: 10240, unfreezeCost: 5120 }, admin: 200 },
    { method: "GET", path: "/api/admin/deposits", access: "admin", admin: 200 },
    { method: "GET", path: "/api/admin/withdrawals?status=pending", access: "admin", admin: 200 },
    { method: "PUT", path: `/api/admin/deposits/${pending._id}`, access: "admin", body: { status: "declined" }, admin: 200 },
    { method: "PUT", path: "/api/admin/withdrawals/no-such-request", access: "admin", body: { status: "accepted" }, admin: 404 },
    { method: "GET", path: "/api/admin/users?page=1&limit=10", access: "admin", admin: 200 },
    { method: "GET", path: "/api/admin/audit?page=1", access: "admin", admin: 200 },
    { method: "DELETE", path: `/api/admin/users/${other.id}`, access: "admin", admin: 200 },
    { method: "POST", path: `/api/admin/users/${member.id}/gift`, access: "admin", body: { amount: 1 }, admin: 200 },
  ];
});
afterAll(() => h.close());

function expected(route: Route, caller: Caller): number {
  if (route.access === "public") return caller === "admin" ? route.admin : route.user!;
  if (caller === "admin") return route.admin;
  if (caller === "user") return route.access === "admin" ? 403 : route.user!;
  return 401;
}

describe("every route answers every kind of caller as the table says", () => {
  for (const caller of CALLERS) {
    test(`as ${caller}`, async () => {
      const seen: string[] = [];
      const wanted: string[] = [];
      // Admin rows that change state run last for the admin, so earlier rows see the seeded data.
      for (const route of routes) {
        const token = await tokens[caller]!();
        const res = await h.call(route.method, route.path, { token, body: route.body });
        seen.push(`${route.method} ${route.path} -> ${res.status}`);
        wanted.push(`${route.method} ${route.path} -> ${expected(route, caller)}`);
        expect(typeof res.body === "object" && res.body !== null).toBe(true);
        if (res.status >= 400) expect(typeof res.body.msg).toBe("string");
      }
      expect(seen).toEqual(wanted);
      await h.checkLedger();
    });
  }
});
