import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { rowsOf } from "../db/client";
import { onPostgres } from "../testing/db";
import { type Harness, testDeps } from "../testing/harness";
import { useMoneyHarness } from "../testing/useHarness";
import { createApp } from "./app";

// GET /metrics (src/server/metrics.ts): Prometheus text that moves with the requests and the
// database, read only by a caller on this machine or one holding METRICS_TOKEN.

let h: Harness;
useMoneyHarness((made) => (h = made));

/** What Bun hands the app as its server: the socket's address. */
const from = (address: string) => ({ requestIP: () => ({ address, family: "IPv4", port: 40000 }) });
const LOOPBACK = from("127.0.0.1");

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * Parses the Prometheus text format (0.0.4) strictly: every line a comment (# HELP / # TYPE) or
 * a sample `name{label="value",...} number`, every sample's metric announced by a # TYPE first.
 */
function parsePrometheus(text: string): Sample[] {
  const typed = new Set<string>();
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const comment = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.+)$/.exec(line);
    if (comment) {
      if (comment[1] === "TYPE") {
        expect(["counter", "gauge", "histogram", "summary", "untyped"]).toContain(comment[3]!);
        typed.add(comment[2]!);
      }
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+-]+|NaN|\+Inf|-Inf)$/.exec(line);
    if (!sample) throw new Error(`not Prometheus text: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (sample[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[key!] = value!;
    const name = sample[1]!;
    const family = [...typed].find((t) => name === t || name === `${t}_bucket` || name === `${t}_sum` || name === `${t}_count`);
    if (!family) throw new Error(`a sample without its # TYPE: ${line}`);
    samples.push({ name, labels, value: Number(sample[3]) });
  }
  return samples;
}

async function scrape(app = h.app, env: object = LOOPBACK, headers: Record<string, string> = {}) {
  const res = await app.request("/metrics", { headers }, env);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toStartWith("text/plain; version=0.0.4");
  return parsePrometheus(await res.text());
}

const valueOf = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

describe("who may read /metrics", () => {
  test("without METRICS_TOKEN: a caller on this machine only, and not through a proxy; the answer holds nothing else", async () => {
    for (const address of ["127.0.0.1", "127.0.0.53", "::1", "::ffff:127.0.0.1"]) expect((await h.app.request("/metrics", {}, from(address))).status).toBe(200);
    for (const address of ["10.0.0.8", "192.168.1.10", "203.0.113.9", "::ffff:10.0.0.8", "2001:db8::1"]) {
      const res = await h.app.request("/metrics", {}, from(address));
      expect(res.status).toBe(403);
      expect(await res.text()).toBe("forbidden");
    }
    // A proxy on this machine makes every caller's socket a loopback one: a forwarded request is refused.
    for (const header of ["x-forwarded-for", "forwarded", "x-real-ip"]) {
      expect((await h.app.request("/metrics", { headers: { [header]: "203.0.113.9" } }, LOOPBACK)).status).toBe(403);
    }
    // No socket address at all (a test's app.request): refused. A member's or the admin's token is no key.
    expect((await h.app.request("/metrics")).status).toBe(403);
    expect((await h.app.request("/metrics", { headers: { "x-auth-token": h.adminToken } }, from("203.0.113.9"))).status).toBe(403);
  });

  test("with METRICS_TOKEN: only `Authorization: Bearer <it>`, from anywhere; loopback alone is not enough", async () => {
    const token = "metrics-token-that-is-long-enough-0123456789";
    const app = createApp(testDeps(h.db, { config: { metricsToken: token } }));
    expect((await app.request("/metrics", { headers: { authorization: `Bearer ${token}` } }, from("203.0.113.9"))).status).toBe(200);
    for (const authorization of [undefined, `Bearer ${token}x`, `Bearer ${token.slice(0, -1)}`, token, `Basic ${token}`]) {
      const res = await app.request("/metrics", { headers: authorization ? { authorization } : {} }, LOOPBACK);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
    }
  });
});

describe("what /metrics says", () => {
  test("parses as Prometheus text; requests are counted by route pattern and status, with their latency", async () => {
    const before = await scrape();
    const count = (samples: Sample[], route: string, status: string) => valueOf(samples, "http_requests_total", { method: "GET", route, status }) ?? 0;
    for (let i = 0; i < 3; i++) expect((await h.app.request("/api/programs/3p/levels")).status).toBe(200);
    expect((await h.app.request("/api/programs/nope/levels")).status).toBe(404);
    // A guard's refusal counts under the route behind it; an unknown API path under /api/*.
    expect((await h.app.request("/api/user/requests")).status).toBe(401);
    expect((await h.app.request("/api/no/such/thing")).status).toBe(404);
    const after = await scrape();
    expect(count(after, "/api/programs/:program/levels", "200") - count(before, "/api/programs/:program/levels", "200")).toBe(3);
    expect(count(after, "/api/programs/:program/levels", "404") - count(before, "/api/programs/:program/levels", "404")).toBe(1);
    expect(count(after, "/api/user/requests", "401") - count(before, "/api/user/requests", "401")).toBe(1);
    expect(count(after, "/api/*", "404") - count(before, "/api/*", "404")).toBe(1);
    // Never the raw URL: no label holds a path that is not a pattern.
    expect(after.filter((s) => s.labels.route?.includes("3p") || s.labels.route?.includes("nope"))).toEqual([]);
    const latency = (samples: Sample[]) => valueOf(samples, "http_request_duration_seconds_count", { method: "GET", route: "/api/programs/:program/levels" }) ?? 0;
    expect(latency(after) - latency(before)).toBe(4);
    expect(valueOf(after, "http_request_duration_seconds_bucket", { route: "/api/programs/:program/levels", le: "+Inf" })).toBe(latency(after));
    expect(valueOf(after, "matrix_metrics_processes")).toBe(1);
    expect(valueOf(after, "process_resident_memory_bytes")).toBeGreaterThan(1e6);
    expect(valueOf(after, "matrix_database_up")).toBe(1);
  });

  test("pending deposits and withdrawals, and the oldest one's age, move with the requests", async () => {
    const member = await h.signUp();
    await h.fund(member.token, 50);
    const before = await scrape();
    const pending = (samples: Sample[], type: string) => valueOf(samples, "matrix_pending_requests", { type })!;
    const depositId = await h.deposit(member.token, 5);
    await h.deposit(member.token, 6);
    await h.withdraw(member.token, 10);
    const after = await scrape();
    expect(pending(after, "deposit") - pending(before, "deposit")).toBe(2);
    expect(pending(after, "withdrawal") - pending(before, "withdrawal")).toBe(1);
    expect(valueOf(after, "matrix_pending_request_oldest_seconds", { type: "deposit" })).toBeGreaterThanOrEqual(0);
    await h.decide("deposits", depositId, "declined");
    expect(pending(await scrape(), "deposit") - pending(before, "deposit")).toBe(1);
  });

  test("the chain watchers' lag: the latest block seen minus the first not read, per network watched", async () => {
    expect((await scrape()).filter((s) => s.name === "matrix_chain_watch_lag_blocks")).toEqual([]);
    await h.db.execute(sql`INSERT INTO chain_watch (network, xpub, next_block, head_block) VALUES ('BEP20', 'xpub-of-test', 1000, 1042)`);
    try {
      expect(valueOf(await scrape(), "matrix_chain_watch_lag_blocks", { network: "BEP20" })).toBe(42);
    } finally {
      await h.db.execute(sql`DELETE FROM chain_watch WHERE network = 'BEP20'`);
    }
  });

  test("mail waiting in the outbox, where the outbox table exists: not sent yet, failing, the oldest one's age", async () => {
    const [table] = rowsOf<{ present: boolean }>(await h.db.execute(sql`SELECT to_regclass('mail_outbox') IS NOT NULL AS present`));
    if (!table?.present) {
      expect((await scrape()).filter((s) => s.name.startsWith("matrix_mail_outbox"))).toEqual([]);
      return;
    }
    const waiting = (samples: Sample[]) => [valueOf(samples, "matrix_mail_outbox_waiting")!, valueOf(samples, "matrix_mail_outbox_failing")!];
    const [waitingBefore, failingBefore] = waiting(await scrape());
    const key = crypto.randomUUID();
    await h.db.execute(sql`INSERT INTO mail_outbox (cause_key, to_address, template, last_error, created_at) VALUES
      (${`${key}-1`}, 'one@metrics.test', 'test', NULL, now() - interval '1 hour'),
      (${`${key}-2`}, 'two@metrics.test', 'test', 'connection refused', now()),
      (${`${key}-3`}, 'three@metrics.test', 'test', NULL, now())`);
    await h.db.execute(sql`UPDATE mail_outbox SET sent_at = now() WHERE cause_key = ${`${key}-3`}`);
    try {
      const samples = await scrape();
      expect(waiting(samples)).toEqual([waitingBefore! + 2, failingBefore! + 1]);
      expect(valueOf(samples, "matrix_mail_outbox_oldest_seconds")).toBeGreaterThanOrEqual(3599);
    } finally {
      await h.db.execute(sql`DELETE FROM mail_outbox WHERE cause_key LIKE ${`${key}-%`}`);
    }
  });

  test("open event streams", async () => {
    const member = await h.signUp();
    const streams = (samples: Sample[]) => valueOf(samples, "matrix_event_streams_open")!;
    const before = streams(await scrape());
    const abort = new AbortController();
    const res = await h.app.request("/api/user/events", { headers: { "x-auth-token": member.token }, signal: abort.signal });
    expect(res.status).toBe(200);
    expect(streams(await scrape()) - before).toBe(1);
    abort.abort();
    await res.body?.cancel().catch(() => {});
    await Bun.sleep(20);
    expect(streams(await scrape())).toBe(before);
  });

  test.skipIf(!onPostgres)("on Postgres: the server's connections by state, and the server's maximum", async () => {
    const samples = await scrape();
    // This scrape's own statement runs on one of them.
    expect(valueOf(samples, "matrix_db_connections", { state: "active" })).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, "matrix_db_connections", { state: "idle" })).toBeGreaterThanOrEqual(0);
    expect(valueOf(samples, "matrix_db_connections_max")).toBeGreaterThan(0);
  });

  test.skipIf(onPostgres)("on the embedded database: no connection figures (one connection, in the process)", async () => {
    expect((await scrape()).filter((s) => s.name.startsWith("matrix_db_connections"))).toEqual([]);
  });

  test("a database that does not answer: the process's figures still, and matrix_database_up 0", async () => {
    const broken = { ...h.db, execute: () => Promise.reject(new Error("connection refused")) } as unknown as typeof h.db;
    const samples = await scrape(createApp(testDeps(broken)));
    expect(valueOf(samples, "matrix_database_up")).toBe(0);
    expect(valueOf(samples, "matrix_metrics_processes")).toBe(1);
  });
});
