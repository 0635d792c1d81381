import { describe, expect, test } from "bun:test";
import { withHarness, testDeps } from "../testing/harness";
import { loadConfig } from "./config";
import { createApp } from "./app";
import { createLogger, readableLine } from "./logger";
import { requestIdOf } from "./requestLog";

// One JSON line per request (src/server/requestLog.ts): who asked what, how it ended, how long it
// took; never a secret.

/** An app on `h`'s database whose log lines are kept, parsed. */
function loggedApp(db: Parameters<typeof testDeps>[0], level: Parameters<typeof createLogger>[0] = "info") {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const logger = createLogger(level, {
    write(line: string) {
      raw.push(line);
      lines.push(JSON.parse(line));
    },
  });
  return { app: createApp(testDeps(db, { logger })), lines, raw };
}

const json = (body: unknown, headers: Record<string, string> = {}) => ({ method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

describe("the request log", () => {
  test("one line per request: time, level, request id, method, route pattern, status, duration, and the member when signed in", async () => {
    await withHarness(async (h) => {
      const { app, lines } = loggedApp(h.db);
      const member = await h.signUp({ name: "Logged Member" });
      const res = await app.request("/api/user/requests?page=1", { headers: { "x-auth-token": member.token } });
      expect(res.status).toBe(200);
      await app.request("/api/programs/3p/levels");
      expect(lines).toHaveLength(2);
      const [signedIn, anonymous] = lines;
      expect(Object.keys(signedIn!).sort()).toEqual(["level", "member", "method", "ms", "msg", "pid", "reqId", "route", "status", "time"]);
      expect(signedIn).toMatchObject({ level: "info", method: "GET", route: "/api/user/requests", status: 200, member: member.id, reqId: res.headers.get("x-request-id"), msg: "request" });
      expect(new Date(signedIn!.time as string).toISOString()).toBe(signedIn!.time as string);
      expect(signedIn!.ms).toBeGreaterThanOrEqual(0);
      expect(anonymous).toMatchObject({ route: "/api/programs/:program/levels", status: 200 });
      expect(anonymous!.member).toBeUndefined();
    });
  });

  test("never a token, a password, a code, an email or a query string, whatever the request carried", async () => {
    await withHarness(async (h) => {
      const { app, raw } = loggedApp(h.db);
      const secrets = { email: "secret.person@example.com", password: "a-very-secret-password-42" };
      const register = await app.request("/api/auth/register", json({ name: "Secret Person", ...secrets, referralId: h.adminReferralId }));
      expect(register.status).toBe(201);
      const login = await app.request("/api/auth/login", json(secrets));
      const { token } = (await login.json()) as { token: string };
      await app.request("/api/auth/login", json({ ...secrets, password: "wrong-password-attempt", code: "123456" }));
      await app.request(`/api/user/search?q=${encodeURIComponent(secrets.email)}&token=${token}`, { headers: { "x-auth-token": token, authorization: `Bearer ${token}` } });
      await app.request(`/api/user/2fa/verify?code=654321`, json({ code: "654321" }, { "x-auth-token": token }));
      const text = raw.join("");
      expect(raw.length).toBe(5);
      for (const secret of [secrets.email, "secret.person", secrets.password, "wrong-password-attempt", token, token.split(".")[2]!, "123456", "654321", "?q=", "token="]) {
        expect([secret, text.includes(secret)]).toEqual([secret, false]);
      }
    });
  });

  test("X-Request-Id: a well-formed one is taken and returned; anything else is replaced by one of ours", async () => {
    await withHarness(async (h) => {
      const { app, lines } = loggedApp(h.db);
      for (const id of ["3f2b6a4e-1c0d-4e57-9a7b-0c2d8e9f1a22", "Root=1-67891233-abcdef012345678912345678", "trace.42:a_b"]) {
        const res = await app.request("/healthz", { headers: { "x-request-id": id } });
        expect(res.headers.get("x-request-id")).toBe(id);
        expect(lines.at(-1)!.reqId).toBe(id);
      }
      for (const bad of ["two words", "x".repeat(129), 'quote"d', "line\\nbreak", "ünïcode", ""]) {
        const res = await app.request("/healthz", { headers: { "x-request-id": bad } });
        const given = res.headers.get("x-request-id")!;
        expect(given).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
        expect(lines.at(-1)!.reqId).toBe(given);
      }
      // Without one, each request gets its own.
      const a = (await app.request("/healthz")).headers.get("x-request-id");
      const b = (await app.request("/healthz")).headers.get("x-request-id");
      expect(a).not.toBe(b);
      expect(requestIdOf(undefined)).not.toBe(requestIdOf(undefined));
    });
  });

  test("route patterns, not URLs: a guard's refusal under the route it guards, an unknown API path as /api/*, a 500 at level error", async () => {
    await withHarness(async (h) => {
      const { app, lines } = loggedApp(h.db);
      await app.request("/api/user/gift", json({ amount: 1 }));
      await app.request("/api/no/such/thing/42");
      expect(lines.map((l) => [l.route, l.status])).toEqual([
        ["/api/user/gift", 401],
        ["/api/*", 404],
      ]);
      const failing = createApp(testDeps(h.db, { logger: createLogger("info", { write: (line: string) => void lines.push(JSON.parse(line)) }) }));
      failing.get("/boom/:id", () => {
        throw new Error("boom");
      });
      expect((await failing.request("/boom/7")).status).toBe(500);
      expect(lines.at(-1)).toMatchObject({ level: "error", route: "/boom/:id", status: 500 });
    });
  });

  test("LOG_LEVEL: warn and above writes no request line but a 500's; an unknown level stops the start", async () => {
    await withHarness(async (h) => {
      const { app, lines } = loggedApp(h.db, "warn");
      await app.request("/healthz");
      expect(lines).toEqual([]);
    });
    expect(loadConfig({}).logLevel).toBe("info");
    expect(loadConfig({ LOG_LEVEL: " DEBUG " }).logLevel).toBe("debug");
    expect(() => loadConfig({ LOG_LEVEL: "verbose" })).toThrow("LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got verbose");
  });

  test("on a terminal, a line a person reads", () => {
    const line = readableLine(JSON.stringify({ level: "info", time: "2026-01-02T12:04:05.123Z", pid: 7, reqId: "abc", method: "POST", route: "/api/user/gift", status: 200, ms: 4.2, member: "m1", msg: "request" }));
    expect(line).toBe("12:04:05.123 \u001b[32mINFO \u001b[0m POST /api/user/gift 200 4.2ms reqId=abc member=m1\n");
    expect(readableLine(JSON.stringify({ level: "error", time: "2026-01-02T12:04:05.123Z", msg: "it failed", err: { message: "x", stack: "Error: x\n    at here" } }))).toBe(
      "12:04:05.123 \u001b[31mERROR\u001b[0m it failed\nError: x\n    at here\n",
    );
  });
});
