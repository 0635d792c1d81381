import { beforeEach, describe, expect, setSystemTime, test } from "bun:test";
import { sql } from "drizzle-orm";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { forgetPendingContentVersion, readContentVersion } from "../../core/contentVersion";
import type { Database, Db } from "../../db/client";
import { PAGES } from "../../shared/pages";
import { adminIdOf } from "../../testing/domain";
import { TEST_JWT_SECRET, testDeps } from "../../testing/harness";
import { useDatabase } from "../../testing/useHarness";
import { createApp } from "../app";
import { createLogger, type Logger } from "../logger";
import { issueToken } from "../tokens";
import { mountWeb } from "./index";
import type { Manifest } from "./manifest";
import { acceptedEncodings, CHECK_MS, serverFetch, STALE_MS } from "./pageCache";

// The pages that are the same for everyone are rendered once per content and served from memory
// (./pageCache.ts): compressed ahead, with an ETag, the security headers of the app, and a price
// edit seen at once here and within CHECK_MS in another process.

const manifest: Manifest = {
  css: ["/build/styles-page.css"],
  app: { entry: "/build/main-page.js", preload: [] },
  landing: { entry: "/build/island-page.js", preload: [] },
};
const STYLES = "body{color:rgb(1,2,3)}.page-bg{background:#000}";
const publicDir = mkdtempSync(join(tmpdir(), "page-cache-"));
mkdirSync(join(publicDir, "build"));
writeFileSync(join(publicDir, "build", "styles-page.css"), STYLES);

let database: Database;
useDatabase((made) => (database = made));
// A price edit pending in this process (another test file's) would make every request look.
beforeEach(() => forgetPendingContentVersion());

/** An app on `db` whose page cache runs on a clock the test moves. */
function appOn(db: Db, options: { manifest?: Manifest | null; logger?: Logger } = {}) {
  const clock = { now: 1_000_000 };
  const app = createApp(testDeps(db, { logger: options.logger }), { web: (a) => mountWeb(a, { manifest: options.manifest ?? manifest, publicDir, now: () => clock.now }) });
  const get = (path: string, headers: Record<string, string> = {}) => app.request(path, { headers });
  return { app, clock, get };
}

/** Database reads made through `db` (select and execute calls), counted. */
function counted(db: Db) {
  const count = { reads: 0 };
  const proxy = new Proxy(db, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if ((key === "select" || key === "execute") && typeof value === "function") {
        return (...args: unknown[]) => {
          count.reads++;
          return value.apply(target, args);
        };
      }
      return value;
    },
  });
  return { db: proxy as Db, count };
}

const bodyOf = async (res: Response) => {
  const bytes = new Uint8Array(await res.arrayBuffer());
  const encoding = res.headers.get("content-encoding");
  if (encoding === "br") return brotliDecompressSync(bytes).toString();
  if (encoding === "gzip") return gunzipSync(bytes).toString();
  return new TextDecoder().decode(bytes);
};

/** app.request decodes nothing: the bytes arrive as sent. */
async function untilBrotli(get: (path: string, headers: Record<string, string>) => Promise<Response> | Response, path: string) {
  for (let i = 0; i < 100; i++) {
    const res = await get(path, { "Accept-Encoding": "gzip, br" });
    if (res.headers.get("content-encoding") === "br") return res;
    await Bun.sleep(20);
  }
  throw new Error("brotli never came");
}

/** The price of 3P level `level` in the /how-it-works table. */
const priceCell = (html: string, level: number) => {
  const table = html.slice(html.indexOf('data-prices="3p"'));
  return new RegExp(`>Level ${level}</span></th><td[^>]*>([^<]+)<`).exec(table)?.[1];
};

describe("the cached pages", () => {
  test("GET / is rendered once: a second request within the check interval reads nothing from the database, and answers the same page", async () => {
    const { db, count } = counted(database.db);
    const { get } = appOn(db);
    const first = await get("/");
    const html = await first.text();
    expect(count.reads).toBeGreaterThan(0);
    const after = count.reads;
    const second = await get("/");
    expect(await second.text()).toBe(html);
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(count.reads).toBe(after);
  });

  test("each encoding by Accept-Encoding (brotli once ready, gzip, none; q=0 refuses), the same HTML in all; Vary and the ETag on each", async () => {
    const { get } = appOn(database.db);
    const plain = await get("/");
    expect(plain.headers.get("content-encoding")).toBeNull();
    const html = await plain.text();
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    const gzip = await get("/", { "Accept-Encoding": "gzip" });
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
    const br = await untilBrotli(get, "/");
    const noBr = await get("/", { "Accept-Encoding": "br;q=0, gzip" });
    expect(noBr.headers.get("content-encoding")).toBe("gzip");
    for (const res of [gzip, br, noBr]) expect(await bodyOf(res)).toBe(html);
    for (const res of [plain, gzip, br]) {
      expect(res.headers.get("vary")).toBe("Accept-Encoding");
      expect(res.headers.get("etag")).toBe(plain.headers.get("etag"));
      expect(res.headers.get("cache-control")).toBe("no-cache");
      expect(res.headers.get("content-type")).toBe("text/html; charset=UTF-8");
    }
    expect(acceptedEncodings("gzip, deflate, br, zstd")).toEqual({ br: true, gzip: true });
    expect(acceptedEncodings("identity")).toEqual({ br: false, gzip: false });
    expect(acceptedEncodings(undefined)).toEqual({ br: false, gzip: false });
  });

  test("a client that refuses gzip never gets it: before brotli is ready it gets the plain page, then brotli", async () => {
    const { get } = appOn(database.db);
    const first = await get("/how-it-works", { "Accept-Encoding": "br, gzip;q=0" });
    expect(first.headers.get("content-encoding")).not.toBe("gzip");
    const html = await bodyOf(first);
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    const br = await untilBrotli(get, "/how-it-works");
    expect(await bodyOf(br)).toBe(html);
    expect((await get("/how-it-works", { "Accept-Encoding": "br, gzip;q=0" })).headers.get("content-encoding")).toBe("br");
  });

  test("If-None-Match with the page's ETag answers 304 without a body, with the security headers; any other tag the page", async () => {
    const { get } = appOn(database.db);
    const page = await get("/how-it-works");
    const etag = page.headers.get("etag")!;
    expect(etag).toMatch(/^W\/"[0-9a-z]+"$/);
    for (const tag of [etag, `"other", ${etag}`, "*"]) {
      const again = await get("/how-it-works", { "If-None-Match": tag });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe("");
      expect(again.headers.get("etag")).toBe(etag);
      expect(again.headers.get("content-security-policy")).toContain("script-src 'self'");
    }
    expect((await get("/how-it-works", { "If-None-Match": 'W/"stale"' })).status).toBe(200);
  });

  test("a cached page carries the app's security headers, as an uncached answer does", async () => {
    const { get } = appOn(database.db);
    for (const path of ["/", "/", "/how-it-works", "/login", "/userDashboard/deposit"]) {
      const res = await get(path);
      expect(res.status).toBe(200);
      for (const name of ["content-security-policy", "strict-transport-security", "x-content-type-options", "x-frame-options", "referrer-policy"]) {
        expect(res.headers.get(name)).toBe((await get("/no-such-page")).headers.get(name));
      }
    }
  });

  test("the landing's newsletter notices are variants of their own: each shows its text, and the plain page none", async () => {
    const { get } = appOn(database.db);
    const status = (html: string) => /data-newsletter-status[^>]*>([^<]*)</.exec(html)?.[1] ?? "";
    expect(status(await (await get("/?newsletter=subscribed")).text())).toBe("Thank you for subscribing!");
    const invalid = await (await get("/?newsletter=invalid")).text();
    expect(status(invalid)).toBe("Please enter a valid email address.");
    expect(invalid).toContain("text-declined");
    expect(status(await (await get("/")).text())).toBe("");
    expect(status(await (await get("/?newsletter=__proto__")).text())).toBe("");
    expect(status(await (await get("/?newsletter=constructor&x=1")).text())).toBe("");
    expect(status(await (await get("/?newsletter=subscribed")).text())).toBe("Thank you for subscribing!");
  });

  test("the landing-side pages inline the stylesheet (nothing to fetch before the first paint, still no script before the content); the app shells link it", async () => {
    const { get } = appOn(database.db);
    for (const path of ["/", "/how-it-works"]) {
      const html = await (await get(path)).text();
      expect(html).toContain(`<style>${STYLES}</style>`);
      expect(html).not.toContain('rel="stylesheet"');
      expect(html.indexOf("<style>")).toBeLessThan(html.indexOf("</head>"));
      expect(html.indexOf("<script")).toBeGreaterThan(html.indexOf("Cookie Policy"));
    }
    const shell = await (await get("/login")).text();
    expect(shell).toContain('<link rel="stylesheet" href="/build/styles-page.css"/>');
    expect(shell).not.toContain("<style>");
  });

  test("a stylesheet that could close the <style> element is linked, not inlined", async () => {
    const dir = mkdtempSync(join(tmpdir(), "page-cache-style-"));
    mkdirSync(join(dir, "build"));
    writeFileSync(join(dir, "build", "styles-page.css"), "a{content:'</style><script>alert(1)</script>'}");
    const app = createApp(testDeps(database.db), { web: (a) => mountWeb(a, { manifest, publicDir: dir }) });
    const html = await (await app.request("/")).text();
    expect(html).toContain('<link rel="stylesheet" href="/build/styles-page.css"/>');
    expect(html).not.toContain("alert(1)");
  });
});

describe("a price edit", () => {
  test("made by another process (the version row and the price changed in the database) shows once CHECK_MS have passed, not before", async () => {
    const { get, clock } = appOn(database.db);
    expect(priceCell(await (await get(PAGES.howItWorks)).text(), 5)).toBe("80.00 $");

    await database.db.execute(sql`UPDATE program_levels SET cost = 7777 WHERE program = '3p' AND level = 5`);
    await database.db.execute(
      sql`INSERT INTO settings (key, value) VALUES ('content_version', 'elsewhere-1') ON CONFLICT (key) DO UPDATE SET value = 'elsewhere-1'`,
    );
    clock.now += CHECK_MS - 1;
    expect(priceCell(await (await get(PAGES.howItWorks)).text(), 5)).toBe("80.00 $");

    clock.now += 1;
    // The look runs in the background: the request that starts it still gets the page it had
    // (so does any request until the last look is STALE_MS old).
    expect(priceCell(await (await get(PAGES.howItWorks)).text(), 5)).toBe("80.00 $");
    await Bun.sleep(50);
    expect(priceCell(await (await get(PAGES.howItWorks)).text(), 5)).toBe("77.77 $");
    await database.db.execute(sql`UPDATE program_levels SET cost = 8000 WHERE program = '3p' AND level = 5`);
  });

  test("made by another process shows on the first request once the last look is STALE_MS old, however quiet the process was: through the app and through the server's fetch", async () => {
    const quiet = appOn(database.db);
    const fast = appOn(database.db);
    const fetch = serverFetch(fast.app);
    const viaServer = async (path: string) => (await fetch(new Request(`http://localhost${path}`), undefined)).text();
    expect(priceCell(await (await quiet.get(PAGES.howItWorks)).text(), 5)).toBe("80.00 $");
    expect(priceCell(await viaServer(PAGES.howItWorks), 5)).toBe("80.00 $");
    // Answered from memory by the server's fetch from now on.
    expect(priceCell(await viaServer(PAGES.howItWorks), 5)).toBe("80.00 $");

    await database.db.execute(sql`UPDATE program_levels SET cost = 6666 WHERE program = '3p' AND level = 5`);
    await database.db.execute(
      sql`INSERT INTO settings (key, value) VALUES ('content_version', 'elsewhere-2') ON CONFLICT (key) DO UPDATE SET value = 'elsewhere-2'`,
    );
    // No request for an hour, then one: it waits for a look instead of answering the page it had.
    quiet.clock.now += 3_600_000;
    const afterAnHour = priceCell(await (await quiet.get(PAGES.howItWorks)).text(), 5);
    // Just past the bound, through the server's fetch (which answers from memory when it can).
    fast.clock.now += STALE_MS;
    const pastTheBound = priceCell(await viaServer(PAGES.howItWorks), 5);
    expect({ afterAnHour, pastTheBound }).toEqual({ afterAnHour: "66.66 $", pastTheBound: "66.66 $" });
    await database.db.execute(sql`UPDATE program_levels SET cost = 8000 WHERE program = '3p' AND level = 5`);
  });

  test("made here, while a look begun before it is still in flight (waiting for the platform figures), shows on the first request after its answer", async () => {
    // db.execute (the platform figures' statement) waits while `gate` is closed; `reached` says it did.
    let gate: Promise<void> | undefined;
    let open = () => {};
    let reached = () => {};
    const waiting = new Promise<void>((resolve) => (reached = resolve));
    const slow = new Proxy(database.db, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (key !== "execute" || typeof value !== "function") return value;
        return async (...args: unknown[]) => {
          if (gate) {
            reached();
            await gate;
          }
          return value.apply(target, args);
        };
      },
    }) as Db;
    const { get, clock } = appOn(slow);
    const admin = await adminToken(database.db);
    try {
      expect(priceCell(await (await get(PAGES.howItWorks)).text(), 3)).toBe("20.00 $");
      // A minute on (the figures' cache has run out) a request starts a look in the background: it
      // reads the content version, then waits for the figures.
      setSystemTime(new Date(Date.now() + 61_000));
      clock.now += CHECK_MS;
      gate = new Promise((resolve) => (open = resolve));
      expect(priceCell(await (await get(PAGES.howItWorks)).text(), 3)).toBe("20.00 $");
      await waiting;

      const edit = await createApp(testDeps(database.db)).request("/api/programs/3p/levels/3", {
        method: "PATCH",
        headers: { "content-type": "application/json", "x-auth-token": admin },
        body: JSON.stringify({ cost: "23.45", unfreezeCost: "11.72" }),
      });
      expect(edit.status).toBe(200);
      const afterEdit = get(PAGES.howItWorks);
      // The figures come while that request waits.
      await Bun.sleep(50);
      gate = undefined;
      open();
      expect(priceCell(await (await afterEdit).text(), 3)).toBe("23.45 $");
    } finally {
      gate = undefined;
      open();
      setSystemTime();
      await database.db.execute(sql`UPDATE program_levels SET cost = 2000, unfreeze_cost = 1000 WHERE program = '3p' AND level = 3`);
    }
  });

  test("a page never waits for the platform figures to be read again: after a minute of quiet, it answers while their reading is held", async () => {
    let hold: Promise<void> | undefined;
    let release = () => {};
    const held = new Proxy(database.db, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (key !== "execute" || typeof value !== "function") return value;
        return async (...args: unknown[]) => {
          // The figures' statement (the content version is read by a prepared select).
          if (hold) await hold;
          return value.apply(target, args);
        };
      },
    }) as Db;
    const { get, clock } = appOn(held);
    try {
      expect((await get(PAGES.home)).status).toBe(200);
      setSystemTime(new Date(Date.now() + 61_000));
      clock.now += 61_000;
      hold = new Promise((resolve) => (release = resolve));
      const answered = await Promise.race([Promise.resolve(get(PAGES.home)).then((res) => res.status), Bun.sleep(2_000).then(() => "still waiting")]);
      expect(answered).toBe(200);
    } finally {
      hold = undefined;
      release();
      setSystemTime();
    }
  });

  test("made here through the API shows at once, without waiting for the next look", async () => {
    const { get } = appOn(database.db);
    expect(priceCell(await (await get(PAGES.howItWorks)).text(), 2)).toBe("10.00 $");
    expect(await (await get(PAGES.home)).text()).not.toContain("12.34 $");
    const before = await readContentVersion(database.db);
    const admin = await adminToken(database.db);
    const edit = await createApp(testDeps(database.db)).request("/api/programs/3p/levels/2", {
      method: "PATCH",
      headers: { "content-type": "application/json", "x-auth-token": admin },
      body: JSON.stringify({ cost: "12.34", unfreezeCost: "6.17" }),
    });
    expect(edit.status).toBe(200);
    expect(await readContentVersion(database.db)).not.toBe(before);
    const html = await (await get(PAGES.howItWorks)).text();
    expect(priceCell(html, 2)).toBe("12.34 $");
    expect(await (await get(PAGES.home)).text()).toContain("12.34 $");
    await database.db.execute(sql`UPDATE program_levels SET cost = 1000, unfreeze_cost = 500 WHERE program = '3p' AND level = 2`);
  });
});

describe("the server's fetch (serverFetch)", () => {
  test("answers a page the app served from memory, with the app's headers and bytes, and hands everything else (and every look) to the app", async () => {
    const { app, clock } = appOn(database.db);
    const calls: string[] = [];
    const appFetch = app.fetch;
    // The app's own fetch, counting what reaches it (serverFetch finds the fast path by the app).
    app.fetch = (request: Request, ...rest: unknown[]) => {
      calls.push(`${request.method} ${new URL(request.url).pathname}`);
      return appFetch(request, ...(rest as []));
    };
    const fetch = serverFetch(app);
    const req = (path: string, init: RequestInit = {}) => fetch(new Request(`http://localhost${path}`, init), undefined) as Promise<Response>;
    // Less the request's own id: each answer, the app's or from memory, has its own (src/server/requestLog.ts).
    const headersOf = (res: Response) => [...res.headers].filter(([name]) => name !== "date" && name !== "x-request-id");

    const first = await req("/", { headers: { "accept-encoding": "gzip" } });
    const firstBody = new Uint8Array(await first.arrayBuffer());
    expect(calls).toEqual(["GET /"]);
    const second = await req("/", { headers: { "accept-encoding": "gzip" } });
    expect(calls).toEqual(["GET /"]);
    expect(headersOf(second)).toEqual(headersOf(first));
    expect(second.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    expect((await req("/", { headers: { "x-request-id": "from-the-proxy-42" } })).headers.get("x-request-id")).toBe("from-the-proxy-42");
    expect(new Uint8Array(await second.arrayBuffer())).toEqual(firstBody);
    expect(second.headers.get("content-security-policy")).toContain("default-src 'self'");

    const notModified = await req("/", { headers: { "if-none-match": first.headers.get("etag")! } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get("content-type")).toBeNull();
    expect(notModified.headers.get("x-frame-options")).toBe(first.headers.get("x-frame-options"));
    const plain = await req("/");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect((await plain.text()).startsWith("<!DOCTYPE html>")).toBe(true);
    expect(calls).toEqual(["GET /"]);

    await req("/", { method: "HEAD" });
    await req("/newsletter", { method: "POST", body: new URLSearchParams({ email: "x" }) });
    await req("/?newsletter=invalid");
    expect(calls).toEqual(["GET /", "HEAD /", "POST /newsletter", "GET /"]);

    clock.now += CHECK_MS;
    await req("/");
    expect(calls.at(-1)).toBe("GET /");
    expect(calls).toHaveLength(5);
  });

  test("an answer from memory is logged and counted like the app's, under the route the app answered that URL with", async () => {
    const lines: { route: string; status: number; reqId: string }[] = [];
    const { app } = appOn(database.db, { logger: createLogger("info", { write: (line: string) => void lines.push(JSON.parse(line)) }) });
    const fetch = serverFetch(app);
    const first = await fetch(new Request("http://localhost/"), undefined);
    const second = await fetch(new Request("http://localhost/"), undefined);
    expect(lines.map((l) => [l.route, l.status])).toEqual([
      ["/", 200],
      ["/", 200],
    ]);
    expect(lines.map((l) => l.reqId)).toEqual([first.headers.get("x-request-id")!, second.headers.get("x-request-id")!]);
  });
});

const adminToken = async (db: Db) => issueToken(TEST_JWT_SECRET, await adminIdOf(db));
