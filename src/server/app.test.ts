import { expect, test } from "bun:test";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "../db/client";
import { testDeps } from "../testing/harness";
import { useDatabase } from "../testing/useHarness";
import { createApp } from "./app";
import { mountWeb } from "./web";

// No /api answer may be stored by a browser or a proxy (balances, tokens, another member's data
// on a shared machine): every one says Cache-Control: no-store, refusals and errors included.
// Pages and assets keep their own caching.
let app: ReturnType<typeof createApp>;
const publicDir = mkdtempSync(join(tmpdir(), "cache-public-"));

useDatabase((database: Database) => {
  mkdirSync(join(publicDir, "build"));
  writeFileSync(join(publicDir, "build", "main-abc.js"), "console.log('app')");
  const manifest = { css: [], app: { entry: "/build/main-abc.js", preload: [] }, landing: { entry: "/build/main-abc.js", preload: [] } };
  app = createApp(testDeps(database.db), { web: (a) => mountWeb(a, { manifest, publicDir }) });
});

const request = (path: string, init: RequestInit = {}) => app.request(path, init);
const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: typeof body === "string" ? body : JSON.stringify(body),
});

test("every /api answer carries Cache-Control: no-store, refusals too", async () => {
  const login = await request("/api/auth/login", json({ email: "admin@test.local", password: "admin-password" }));
  const { token } = (await login.clone().json()) as { token: string };
  const answers = {
    "public figures": await request("/api/programs"),
    login,
    me: await request("/api/auth", { headers: { "x-auth-token": token } }),
    "no token (401)": await request("/api/auth"),
    "bad token (401)": await request("/api/auth", { headers: { "x-auth-token": "nonsense" } }),
    "member only (403)": await request("/api/admin/users", { headers: { "x-auth-token": "nonsense" } }),
    "validation (400)": await request("/api/auth/login", json({ email: "not-an-email" })),
    "bad json (400)": await request("/api/auth/login", json("{")),
    "wrong password (400)": await request("/api/auth/login", json({ email: "admin@test.local", password: "wrong" })),
    "unknown route (404)": await request("/api/no/such/thing"),
    "too large (413)": await request("/api/auth/login", json({ email: "a@b.co", password: "x".repeat(100_000) })),
    "NUL in the path (400)": await request("/api/user/search?search=a%00b"),
  };
  for (const [what, res] of Object.entries(answers)) expect([what, res.status < 500, res.headers.get("cache-control")]).toEqual([what, true, "no-store"]);
});

test("GET /api/auth's answer carries exactly the headers of every other answer of the API; pages get the same security headers", async () => {
  const login = await request("/api/auth/login", json({ email: "admin@test.local", password: "admin-password" }));
  const { token } = (await login.json()) as { token: string };
  // Less the request's own id (src/server/requestLog.ts), which every answer carries.
  const headersOf = (res: Response) => {
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    return Object.fromEntries([...res.headers].filter(([name]) => name !== "content-length" && name !== "x-request-id").sort());
  };
  const me = headersOf(await request("/api/auth", { headers: { "x-auth-token": token } }));
  for (const other of [await request("/api/programs"), await request("/api/auth"), await request("/api/no/such/thing")]) expect(headersOf(other)).toEqual(me);
  // The API's answers also name the client build served (src/client/lib/connection.ts); pages are that build.
  expect(me).toMatchObject({ "cache-control": "no-store", "content-type": "application/json", "x-frame-options": "SAMEORIGIN", "x-content-type-options": "nosniff", "x-app-build": "/build/main-abc.js" });
  expect(Object.keys(me)).toHaveLength(15);
  const page = headersOf(await request("/"));
  const apiOnly = ["cache-control", "content-type", "x-app-build"];
  for (const [name, value] of Object.entries(me)) if (!apiOnly.includes(name)) expect([name, page[name]]).toEqual([name, value]);
  expect(page["x-powered-by"]).toBeUndefined();
  expect(page["x-app-build"]).toBeUndefined();
});

test("pages and assets keep their own caching", async () => {
  const page = await request("/");
  expect(page.status).toBe(200);
  expect(page.headers.get("cache-control")).toBe("no-cache");
  const asset = await request("/build/main-abc.js");
  expect(asset.status).toBe(200);
  expect(asset.headers.get("cache-control")).not.toBe("no-store");
  // A path that only starts like the API is not the API.
  expect((await request("/apiary")).headers.get("cache-control")).not.toBe("no-store");
});
