import { describe, expect, test } from "bun:test";
import { expiredToken, forgedToken, testDeps, type Harness } from "../testing/harness";
import { useMoneyHarness } from "../testing/useHarness";
import { createApp } from "./app";
import { randomTxId, TRON_SENDER } from "../testing/chainIds";
import { onPostgres } from "../testing/db";

/** One transaction ID for the user and then the admin: the admin's is refused as a duplicate. */
const AUTHZ_DUP = randomTxId();

/**
 * The authorization table: every route against every kind of caller. A caller that may not act
 * gets 401 (no or bad identity) or 403 (not an admin) before any work is done; one that may act
 * gets the route's own answer.
 *
 * The list of routes comes from the app itself (`app.routes`): a route the app answers without a
 * row here fails the first test, and so does a row for a route the app no longer has.
 */

type Caller = "anonymous" | "user" | "admin" | "deleted" | "expired" | "forged" | "revoked";
const CALLERS: Caller[] = ["anonymous", "user", "admin", "deleted", "expired", "forged", "revoked"];
type Access = "public" | "user" | "admin";

interface Route {
  method: string;
  /** The route as the app registers it: a Hono path pattern. */
  pattern: string;
  /** The request that exercises it, when the pattern has parameters or the query matters. */
  path?: string;
  access: Access;
  /** The body, or the body for a kind of caller (rows that need the caller's own password). */
  body?: Record<string, unknown> | ((caller: Caller) => Record<string, unknown>);
  /** The answer for a caller who may act (a user, or an admin). */
  user?: number;
  admin: number;
  /** Its success is text (the statement's CSV), not JSON; refusals are JSON like everywhere. */
  text?: boolean;
  /** Its success is an endless stream (Server-Sent Events): only the status and type are read. */
  stream?: boolean;
}

/**
 * "METHOD /pattern" of every handler the app has under /api, once each. `app.routes` also lists
 * the middleware: the app-wide and prefix guards (method ALL on a path ending in `*`, like the
 * not-found catch-all) are left out, and a route's own middleware (validators) shares its
 * handler's method and pattern.
 */
function apiRoutesOf(app: { routes: readonly { method: string; path: string }[] }): string[] {
  const routes = app.routes.filter((r) => (r.path === "/api" || r.path.startsWith("/api/")) && !r.path.endsWith("*"));
  return [...new Set(routes.map((r) => `${r.method} ${r.path}`))].sort();
}

/** What one list has that the other lacks. */
function compareRoutes(inApp: readonly string[], inTable: readonly string[]) {
  return {
    withoutRow: inApp.filter((r) => !inTable.includes(r)),
    notInApp: inTable.filter((r) => !inApp.includes(r)),
  };
}

/** Whether a request path (query aside) is one the pattern matches. */
function matches(pattern: string, path: string): boolean {
  const source = pattern.split("/").map((s) => (s.startsWith(":") ? "[^/]+" : s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  return new RegExp(`^${source.join("/")}$`).test(path.split("?")[0]!);
}

let h: Harness;
let routes: Route[];
const tokens: Partial<Record<Caller, () => Promise<string | undefined>>> = {};

useMoneyHarness(async (made) => {
  h = made;
  const member = await h.signUp({ email: "member@test.local", password: "member-password" });
  const other = await h.signUp({ email: "other@test.local" });
  const gone = await h.signUp({ email: "gone@test.local", password: "gone-password" });
  const goneToken = await h.login("gone@test.local", "gone-password");
  expect((await h.call("DELETE", `/api/admin/users/${gone.id}`, { token: h.adminToken })).status).toBe(200);
  const revoked = await h.login("member@test.local", "member-password");
  expect((await h.call("POST", "/api/auth/logout", { token: revoked })).status).toBe(200);

  tokens.anonymous = async () => undefined;
  tokens.user = () => h.login("member@test.local", "member-password");
  tokens.admin = () => h.login("admin@test.local", "admin-password");
  tokens.deleted = async () => goneToken;
  tokens.expired = () => expiredToken(member.id);
  tokens.forged = () => forgedToken(member.id);
  tokens.revoked = async () => revoked;

  const deposit = await h.call("POST", "/api/user/deposit", { token: other.token, body: { address: TRON_SENDER, transactionId: randomTxId(), amount: 5 } });
  expect(deposit.status).toBe(201);
  const [pending] = (await h.call("GET", "/api/admin/deposits?status=pending", { token: h.adminToken })).body;

  const signUp = { name: "Nobody", email: "nobody@test.local", password: "secret-password", referralId: "NO-SUCH-REFERRAL" };
  routes = [
    { method: "GET", pattern: "/api/programs/:program/levels", path: "/api/programs/3p/levels", access: "public", user: 200, admin: 200 },
    { method: "GET", pattern: "/api/auth/admin-referral-id", access: "public", user: 200, admin: 200 },
    { method: "GET", pattern: "/api/config", access: "public", user: 200, admin: 200 },
    { method: "GET", pattern: "/api/referrers/:referralId", path: `/api/referrers/${h.adminReferralId}`, access: "public", user: 200, admin: 200 },
    // The right password: wrong ones from one source, once per caller, would soon be throttled (429).
    { method: "POST", pattern: "/api/auth/login", access: "public", body: { email: "member@test.local", password: "member-password" }, user: 200, admin: 200 },
    { method: "POST", pattern: "/api/auth/login/2fa", access: "public", body: { ticket: "no-such-ticket", code: "123456" }, user: 400, admin: 400 },
    { method: "POST", pattern: "/api/auth/register", access: "public", body: signUp, user: 400, admin: 400 },
    { method: "GET", pattern: "/api/auth", access: "user", user: 200, admin: 200 },
    { method: "POST", pattern: "/api/auth/logout", access: "user", user: 200, admin: 200 },
    { method: "GET", pattern: "/api/auth/2fa", access: "user", user: 200, admin: 200 },
    // The current password goes with every change of 2FA (the caller's own: wrong ones would soon throttle the logins above).
    { method: "POST", pattern: "/api/auth/2fa/setup", access: "user", body: (caller) => ({ currentPassword: passwordOf(caller) }), user: 200, admin: 200 },
    // After the set-up above, a code that is no code is refused; disabling what is off is refused.
    { method: "POST", pattern: "/api/auth/2fa/enable", access: "user", body: (caller) => ({ code: "not-a-code", currentPassword: passwordOf(caller) }), user: 400, admin: 400 },
    { method: "POST", pattern: "/api/auth/2fa/disable", access: "user", body: (caller) => ({ code: "not-a-code", currentPassword: passwordOf(caller) }), user: 409, admin: 409 },
    // Account recovery: the same answer for any email (one per caller: each email may ask 5 an hour); a link that is none is refused.
    { method: "POST", pattern: "/api/auth/password/forgot", access: "public", body: (caller) => ({ email: `nobody-${caller}@test.local` }), user: 200, admin: 200 },
    { method: "POST", pattern: "/api/auth/password/reset", access: "public", body: { token: "no-such-token", password: "new-password" }, user: 400, admin: 400 },
    { method: "POST", pattern: "/api/auth/email/confirm", access: "public", body: { token: "no-such-token" }, user: 400, admin: 400 },
    // A new password too short: refused, and nobody is signed out for the rows after.
    { method: "POST", pattern: "/api/auth/password", access: "user", body: (caller) => ({ currentPassword: passwordOf(caller), newPassword: "x" }), user: 400, admin: 400 },
    // The member's address is not confirmed (a new link is mailed); the admin's is (nothing to do).
    { method: "POST", pattern: "/api/auth/email/verify/resend", access: "user", user: 200, admin: 200 },
    { method: "PUT", pattern: "/api/user/profile", access: "user", body: { name: "Ada Lovelace" }, user: 200, admin: 200 },
    { method: "POST", pattern: "/api/user/email", access: "user", body: (caller) => ({ newEmail: `moved-${caller}@test.local`, password: passwordOf(caller) }), user: 200, admin: 200 },
    { method: "GET", pattern: "/api/user/details/:referralId", path: `/api/user/details/${h.adminReferralId}`, access: "user", user: 200, admin: 200 },
    { method: "POST", pattern: "/api/user/deposit", access: "user", body: { address: TRON_SENDER, transactionId: AUTHZ_DUP, amount: 5 }, user: 201, admin: 400 },
    // No network here has an extended public key: no own addresses.
    { method: "GET", pattern: "/api/user/deposit/address", path: "/api/user/deposit/address?network=BEP20", access: "user", user: 409, admin: 409 },
    { method: "POST", pattern: "/api/user/withdraw", access: "user", body: { accountType: "USDT TRC20", accountNumber: "TA4Wt1DUCqz6YegbnsmqsWC5uUfbdBqPxm", amount: 5 }, user: 400, admin: 400 },
    { method: "POST", pattern: "/api/user/withdrawals/:id/cancel", path: "/api/user/withdrawals/no-such-request/cancel", access: "user", user: 404, admin: 404 },
    { method: "GET", pattern: "/api/user/search", path: "/api/user/search?search=other", access: "user", user: 200, admin: 200 },
    { method: "POST", pattern: "/api/user/gift", access: "user", body: { amount: 1, recipientEmail: "other@test.local" }, user: 400, admin: 400 },
    { method: "POST", pattern: "/api/user/packages/purchase/:program/:level", path: "/api/user/packages/purchase/3p/1", access: "user", user: 400, admin: 400 },
    { method: "POST", pattern: "/api/user/packages/unfreeze/:program/:level", path: "/api/user/packages/unfreeze/3p/1", access: "user", user: 400, admin: 400 },
    { method: "GET", pattern: "/api/user/matrix/:program/:level", path: "/api/user/matrix/3p/1", access: "user", user: 200, admin: 200 },
    // Neither caller has 3P level 1: a purchase preview answers, an unfreeze preview is refused (not frozen).
    { method: "GET", pattern: "/api/user/packages/purchase/:program/:level/preview", path: "/api/user/packages/purchase/3p/1/preview", access: "user", user: 200, admin: 200 },
    { method: "GET", pattern: "/api/user/packages/unfreeze/:program/:level/preview", path: "/api/user/packages/unfreeze/3p/1/preview", access: "user", user: 400, admin: 400 },
    { method: "GET", pattern: "/api/user/missed", access: "user", user: 200, admin: 200 },
    { method: "GET", pattern: "/api/user/partners", access: "user", user: 200, admin: 200 },
    { method: "GET", pattern: "/api/user/transactions", access: "user", user: 200, admin: 200 },
    { method: "GET", pattern: "/api/user/transactions.csv", path: "/api/user/transactions.csv?kind=deposit", access: "user", user: 200, admin: 200, text: true },
    { method: "GET", pattern: "/api/user/requests", access: "user", user: 200, admin: 200 },
    { method: "GET", pattern: "/api/user/earnings", path: "/api/user/earnings?days=7", access: "user", user: 200, admin: 200 },
    { method: "GET", pattern: "/api/user/notifications", path: "/api/user/notifications?page=1", access: "user", user: 200, admin: 200 },
    { method: "POST", pattern: "/api/user/notifications/read", access: "user", body: { all: true }, user: 200, admin: 200 },
    { method: "GET", pattern: "/api/user/notifications/settings", access: "user", user: 200, admin: 200 },
    { method: "PUT", pattern: "/api/user/notifications/settings", access: "user", body: { muted: ["partner_joined"] }, user: 200, admin: 200 },
    { method: "GET", pattern: "/api/user/events", access: "user", user: 200, admin: 200, stream: true },
    { method: "POST", pattern: "/api/newsletter", access: "public", body: { email: "reader@test.local" }, user: 201, admin: 201 },
    { method: "PATCH", pattern: "/api/programs/:program/levels/:level", path: "/api/programs/6p/levels/12", access: "admin", body: { cost: 10240, unfreezeCost: 5120 }, admin: 200 },
    { method: "GET", pattern: "/api/admin/deposits", path: "/api/admin/deposits?page=1&limit=100", access: "admin", admin: 200 },
    { method: "GET", pattern: "/api/admin/withdrawals", path: "/api/admin/withdrawals?status=pending&page=2", access: "admin", admin: 200 },
    { method: "PUT", pattern: "/api/admin/deposits/:id", path: `/api/admin/deposits/${pending._id}`, access: "admin", body: { status: "declined" }, admin: 200 },
    { method: "PUT", pattern: "/api/admin/withdrawals/:id", path: "/api/admin/withdrawals/no-such-request", access: "admin", body: { status: "accepted" }, admin: 404 },
    { method: "GET", pattern: "/api/admin/users", path: "/api/admin/users?page=1&limit=10", access: "admin", admin: 200 },
    { method: "GET", pattern: "/api/admin/audit", path: "/api/admin/audit?page=1", access: "admin", admin: 200 },
    { method: "GET", pattern: "/api/admin/users/:id/deposit-addresses", path: `/api/admin/users/${member.id}/deposit-addresses`, access: "admin", admin: 200 },
    { method: "GET", pattern: "/api/admin/users/:id", path: `/api/admin/users/${member.id}`, access: "admin", admin: 200 },
    { method: "GET", pattern: "/api/admin/users/:id/transactions", path: `/api/admin/users/${member.id}/transactions?page=1&limit=5`, access: "admin", admin: 200 },
    { method: "GET", pattern: "/api/admin/users/:id/missed", path: `/api/admin/users/${member.id}/missed`, access: "admin", admin: 200 },
    { method: "GET", pattern: "/api/admin/users/:id/requests", path: `/api/admin/users/${member.id}/requests`, access: "admin", admin: 200 },
    { method: "GET", pattern: "/api/admin/users/:id/partners", path: `/api/admin/users/${member.id}/partners`, access: "admin", admin: 200 },
    { method: "GET", pattern: "/api/admin/users/:id/audit", path: `/api/admin/users/${member.id}/audit`, access: "admin", admin: 200 },
    { method: "GET", pattern: "/api/admin/users/:id/matrix/:program/:level", path: `/api/admin/users/${member.id}/matrix/3p/1`, access: "admin", admin: 200 },
    { method: "GET", pattern: "/api/admin/deposit-addresses/sweep", access: "admin", admin: 200 },
    { method: "GET", pattern: "/api/admin/backups", access: "admin", admin: 200 },
    // The server backs up the embedded database only (src/server/backups.ts).
    { method: "POST", pattern: "/api/admin/backups", access: "admin", admin: onPostgres ? 409 : 201 },
    { method: "POST", pattern: "/api/admin/deposit-addresses/:network/:index/swept", path: "/api/admin/deposit-addresses/BEP20/0/swept", access: "admin", body: {}, admin: 404 },
    { method: "DELETE", pattern: "/api/admin/users/:id", path: `/api/admin/users/${other.id}`, access: "admin", admin: 200 },
    { method: "POST", pattern: "/api/admin/users/:id/gift", path: `/api/admin/users/${member.id}/gift`, access: "admin", body: { amount: 1 }, admin: 200 },
  ];
});

const rowsOfTable = () => routes.map((r) => `${r.method} ${r.pattern}`);
/** The password of the caller's account, for the rows that ask for it. */
const passwordOf = (caller: Caller) => (caller === "admin" ? "admin-password" : "member-password");
const bodyOf = (route: Route, caller: Caller) => (typeof route.body === "function" ? route.body(caller) : route.body);
const pathOf = (route: Route) => route.path ?? route.pattern;

function expected(route: Route, caller: Caller): number {
  if (route.access === "public") return caller === "admin" ? route.admin : route.user!;
  if (caller === "admin") return route.admin;
  if (caller === "user") return route.access === "admin" ? 403 : route.user!;
  return 401;
}

describe("the table covers the app", () => {
  test("every route the app answers under /api has exactly one row, and every row is a route of the app", () => {
    const table = rowsOfTable();
    expect(table.length).toBe(new Set(table).size);
    expect(compareRoutes(apiRoutesOf(h.app), table)).toEqual({ withoutRow: [], notInApp: [] });
    // Each row requests the route it stands for.
    expect(routes.filter((r) => !matches(r.pattern, pathOf(r))).map(pathOf)).toEqual([]);
  });

  test("the check sees a route added without a row, and a row whose route is gone", () => {
    const app = createApp(testDeps(h.db));
    app.get("/api/user/not-in-the-table/:id", (c) => c.json({}));
    app.post("/api/admin/not-in-the-table", (c) => c.json({}));
    const table = rowsOfTable();
    expect(compareRoutes(apiRoutesOf(app), table)).toEqual({
      withoutRow: ["GET /api/user/not-in-the-table/:id", "POST /api/admin/not-in-the-table"],
      notInApp: [],
    });
    expect(compareRoutes(apiRoutesOf(h.app), [...table.slice(1), "GET /api/gone"])).toEqual({ withoutRow: [table[0]!], notInApp: ["GET /api/gone"] });
    // Middleware and the catch-all are not routes; the pages outside /api are not in this table.
    expect(apiRoutesOf(app).filter((r) => r.startsWith("ALL ") || r.includes("*"))).toEqual([]);
  });
});

describe("every route answers every kind of caller as the table says", () => {
  for (const caller of CALLERS) {
    test(`as ${caller}`, async () => {
      const seen: string[] = [];
      const wanted: string[] = [];
      // Admin rows that change state run last for the admin, so earlier rows see the seeded data.
      for (const route of routes) {
        const token = await tokens[caller]!();
        if (route.stream) {
          const abort = new AbortController();
          const raw = await h.app.request(pathOf(route), { headers: token ? { "x-auth-token": token } : {}, signal: abort.signal });
          seen.push(`${route.method} ${pathOf(route)} -> ${raw.status}`);
          wanted.push(`${route.method} ${pathOf(route)} -> ${expected(route, caller)}`);
          if (raw.status === 200) expect(raw.headers.get("content-type")).toStartWith("text/event-stream");
          else expect(typeof (await raw.json()).msg).toBe("string");
          abort.abort();
          await raw.body?.cancel().catch(() => {});
          continue;
        }
        const res = await h.call(route.method, pathOf(route), { token, body: bodyOf(route, caller) });
        seen.push(`${route.method} ${pathOf(route)} -> ${res.status}`);
        wanted.push(`${route.method} ${pathOf(route)} -> ${expected(route, caller)}`);
        if (route.text && res.status < 400) expect(typeof res.body).toBe("string");
        else expect(typeof res.body === "object" && res.body !== null).toBe(true);
        if (res.status >= 400) expect(typeof res.body.msg).toBe("string");
      }
      expect(seen).toEqual(wanted);
    });
  }
});

/**
 * GET /metrics is outside /api and outside the table above: no member's token opens it, whatever
 * the caller's kind. Without METRICS_TOKEN only a caller on the server's own machine (the
 * socket's address), not through a proxy; with it, only its Bearer (src/server/metrics.ts).
 */
describe("GET /metrics: no caller of the API gets in; only this machine, or METRICS_TOKEN", () => {
  const from = (address: string) => ({ requestIP: () => ({ address, family: "IPv4", port: 40000 }) });
  test("every kind of caller, from elsewhere: 403; the same from this machine: 200", async () => {
    for (const caller of CALLERS) {
      const token = await tokens[caller]!();
      const headers: Record<string, string> = token ? { "x-auth-token": token, authorization: `Bearer ${token}` } : {};
      expect([caller, (await h.app.request("/metrics", { headers }, from("198.51.100.7"))).status]).toEqual([caller, 403]);
      expect([caller, (await h.app.request("/metrics", { headers }, from("127.0.0.1"))).status]).toEqual([caller, 200]);
    }
  });

  test("with METRICS_TOKEN: its Bearer from anywhere; every kind of caller's own token, even from this machine: 401", async () => {
    const metricsToken = "authorization-table-metrics-token-0123456789";
    const app = createApp(testDeps(h.db, { config: { metricsToken } }));
    expect((await app.request("/metrics", { headers: { authorization: `Bearer ${metricsToken}` } }, from("198.51.100.7"))).status).toBe(200);
    for (const caller of CALLERS) {
      const token = await tokens[caller]!();
      const headers: Record<string, string> = token ? { "x-auth-token": token, authorization: `Bearer ${token}` } : {};
      expect([caller, (await app.request("/metrics", { headers }, from("127.0.0.1"))).status]).toEqual([caller, 401]);
    }
  });
});
