import { sql } from "drizzle-orm";
import type { Context, Hono } from "hono";
import { AggregatorRegistry, Counter, Gauge, Histogram, type MetricObjectWithValues, type MetricValue, Registry, type RegistryContentType } from "prom-client";
import { createHash, timingSafeEqual } from "node:crypto";
import { APPLICATION_NAME, type Db, rowsOf } from "../db/client";
import type { AppEnv } from "./env";
import { openStreams } from "./events";
import { answerCollections, metricsOfAllWorkers } from "./metricsAcrossWorkers";
import { sourceKey } from "./middleware/source";

/*
 * GET /metrics, Prometheus text format (prom-client). Two kinds of figures:
 *
 * - this process's: requests by method, route pattern and status, their latency, open event
 *   streams, memory and CPU. With WORKERS each worker counts its own, and the kernel hands a scrape
 *   to any one of them: that worker asks the supervisor for every worker's figures and answers
 *   their sum (./metricsAcrossWorkers.ts; `matrix_metrics_processes` says how many answered). A
 *   worker started again begins from zero, so a sum may go down: Prometheus's rate() reads a
 *   decrease as a counter reset, and that scrape's increase is under-counted.
 * - the database's: pending requests, the chain watchers' lag, connections in use, mail waiting
 *   in the outbox, read at each scrape by the process that answers; the same whichever answers.
 */

/** A request's route as the metrics and the log name it: Hono's route pattern, never the raw URL. */
export interface Metrics {
  /** This process's figures (the ones summed across workers). */
  registry: Registry;
  /** Counts one answered request. */
  observe(method: string, route: string, status: number, seconds: number): void;
}

export function createMetrics(db: Db): Metrics {
  const registry = new Registry();
  const registers = [registry];
  const requests = new Counter({ name: "http_requests_total", help: "HTTP requests answered, by method, route pattern and status", labelNames: ["method", "route", "status"], registers });
  const latency = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time from a request's arrival to its answer's headers (an event stream: to its opening), by method and route pattern",
    labelNames: ["method", "route"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  new Gauge({
    name: "matrix_event_streams_open",
    help: "Live event streams (GET /api/user/events) open now",
    registers,
    collect() {
      this.set(openStreams(db));
    },
  });
  new Gauge({
    name: "process_resident_memory_bytes",
    help: "Resident memory of the server processes, in bytes",
    registers,
    collect() {
      this.set(process.memoryUsage.rss());
    },
  });
  new Counter({
    name: "process_cpu_seconds_total",
    help: "CPU time the server processes used, user and system, in seconds",
    registers,
    collect() {
      const { user, system } = process.cpuUsage();
      this.reset();
      this.inc((user + system) / 1e6);
    },
  });
  // With WORKERS, the supervisor collects these from every worker for a scrape.
  answerCollections(registry);
  return {
    registry,
    observe(method, route, status, seconds) {
      requests.inc({ method, route, status: String(status) });
      latency.observe({ method, route }, seconds);
    },
  };
}

/** How long a scrape waits for the database's figures before it answers without them. */
const DATABASE_TIMEOUT_MS = 2_000;

/** The figures read from the database, in a registry of their own made for this scrape. */
async function databaseFigures(db: Db, postgres: boolean): Promise<Registry<RegistryContentType>> {
  const registry = new Registry();
  const registers = [registry];
  const up = new Gauge({ name: "matrix_database_up", help: "1 when the database answered this scrape's reads in time, else 0", registers });
  const pending = new Gauge({ name: "matrix_pending_requests", help: "Deposit and withdrawal requests waiting for a decision", labelNames: ["type"], registers });
  const oldest = new Gauge({ name: "matrix_pending_request_oldest_seconds", help: "Age of the oldest request waiting for a decision (0 when none)", labelNames: ["type"], registers });
  const lag = new Gauge({
    name: "matrix_chain_watch_lag_blocks",
    help: "Per network watched for members' own addresses: the latest block seen minus the first block not read yet (at rest, about the confirmations needed)",
    labelNames: ["network"],
    registers,
  });
  const reads = (async () => {
    const [requests] = rowsOf<{ deposits: number; withdrawals: number; deposits_age: number | null; withdrawals_age: number | null }>(
      await db.execute(sql`SELECT
        (SELECT count(*) FROM deposits WHERE status = 'pending')::int AS deposits,
        (SELECT extract(epoch FROM now() - min(created_at)) FROM deposits WHERE status = 'pending')::float8 AS deposits_age,
        (SELECT count(*) FROM withdrawals WHERE status = 'pending')::int AS withdrawals,
        (SELECT extract(epoch FROM now() - min(created_at)) FROM withdrawals WHERE status = 'pending')::float8 AS withdrawals_age`),
    );
    pending.set({ type: "deposit" }, Number(requests?.deposits ?? 0));
    pending.set({ type: "withdrawal" }, Number(requests?.withdrawals ?? 0));
    oldest.set({ type: "deposit" }, Number(requests?.deposits_age ?? 0));
    oldest.set({ type: "withdrawal" }, Number(requests?.withdrawals_age ?? 0));
    const watched = rowsOf<{ network: string; lag: string }>(
      await db.execute(sql`SELECT network, (head_block - next_block)::text AS lag FROM chain_watch WHERE head_block IS NOT NULL AND next_block IS NOT NULL`),
    );
    for (const row of watched) lag.set({ network: row.network }, Number(row.lag));
    if (postgres) await connectionFigures(db, registers);
    await outboxFigures(db, registers);
  })();
  reads.catch(() => {});
  const timeout = new Promise<"late">((resolve) => setTimeout(() => resolve("late"), DATABASE_TIMEOUT_MS).unref?.());
  const answered = await Promise.race([reads.then(() => "ok" as const), timeout]).catch(() => "failed" as const);
  up.set(answered === "ok" ? 1 : 0);
  return registry;
}

/**
 * Connections in use, from Postgres (postgres.js keeps its pool's counts to itself): those of
 * every server process on this database, by state, and the server's maximum.
 */
async function connectionFigures(db: Db, registers: Registry[]): Promise<void> {
  const byState = new Gauge({
    name: "matrix_db_connections",
    help: "Connections of the server's processes to Postgres, by state (active: running a statement; idle in transaction: holding one open)",
    labelNames: ["state"],
    registers,
  });
  const max = new Gauge({ name: "matrix_db_connections_max", help: "Postgres's max_connections", registers });
  const rows = rowsOf<{ state: string | null; n: number }>(
    await db.execute(sql`SELECT coalesce(state, 'unknown') AS state, count(*)::int AS n FROM pg_stat_activity WHERE application_name = ${APPLICATION_NAME} GROUP BY 1`),
  );
  for (const state of ["active", "idle", "idle in transaction"]) byState.set({ state }, 0);
  for (const row of rows) byState.set({ state: row.state ?? "unknown" }, Number(row.n));
  const [setting] = rowsOf<{ max: number }>(await db.execute(sql`SELECT current_setting('max_connections')::int AS max`));
  max.set(Number(setting?.max ?? 0));
}

/**
 * Mail waiting in the outbox (src/core/mail/outbox.ts): not sent yet, of those how many failed
 * at least once, and the oldest one's age. Read only where the table exists (to_regclass), so
 * these figures come with the migration that makes it, whichever lands first.
 */
async function outboxFigures(db: Db, registers: Registry[]): Promise<void> {
  const [table] = rowsOf<{ present: boolean }>(await db.execute(sql`SELECT to_regclass('mail_outbox') IS NOT NULL AS present`));
  if (!table?.present) return;
  const [row] = rowsOf<{ waiting: number; failing: number; oldest: number | null }>(
    await db.execute(sql`SELECT count(*)::int AS waiting, (count(*) FILTER (WHERE last_error IS NOT NULL))::int AS failing,
      extract(epoch FROM now() - min(created_at))::float8 AS oldest FROM mail_outbox WHERE sent_at IS NULL`),
  );
  const gauge = (name: string, help: string, value: number) => new Gauge({ name, help, registers }).set(value);
  gauge("matrix_mail_outbox_waiting", "Mails in the outbox not sent yet", Number(row?.waiting ?? 0));
  gauge("matrix_mail_outbox_failing", "Mails not sent yet whose last attempt failed (the reason is in mail_outbox.last_error)", Number(row?.failing ?? 0));
  gauge("matrix_mail_outbox_oldest_seconds", "Age of the oldest mail not sent yet (0 when none)", Number(row?.oldest ?? 0));
}

/** This process's figures, or with WORKERS every worker's summed; and how many processes they are. */
async function processFigures(metrics: Metrics): Promise<Registry<RegistryContentType>> {
  const parts: MetricObjectWithValues<MetricValue<string>>[][] = (await metricsOfAllWorkers(metrics.registry)) ?? [await metrics.registry.getMetricsAsJSON()];
  const summed = AggregatorRegistry.aggregate(parts);
  new Gauge({ name: "matrix_metrics_processes", help: "Server processes whose own figures (requests, streams, memory) this answer sums", registers: [summed] }).set(parts.length);
  return summed;
}

const plain = (text: string, status: 401 | 403, headers: Record<string, string> = {}) =>
  new Response(text, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...headers } });

const digest = (text: string) => createHash("sha256").update(text).digest();

/** Whether an address is this machine's own (127.0.0.0/8, ::1, either mapped into IPv6). */
function isLoopback(address: string): boolean {
  const text = address.trim().toLowerCase();
  return text === "::1" || text === "0:0:0:0:0:0:0:1" || sourceKey(text).startsWith("127.");
}

/**
 * Who may read /metrics: with METRICS_TOKEN, whoever sends `Authorization: Bearer <it>`
 * (compared in constant time); without, only a caller on this machine, by the socket's address,
 * and not through a proxy: a proxy on this machine makes every caller's socket a loopback one,
 * so a request that names a forwarded client is refused.
 */
function access(c: Context<AppEnv>): Response | undefined {
  const token = c.get("deps").config.metricsToken;
  if (token) {
    const given = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("authorization") ?? "")?.[1];
    if (given !== undefined && timingSafeEqual(digest(given), digest(token))) return undefined;
    return plain("unauthorized", 401, { "www-authenticate": 'Bearer realm="metrics"' });
  }
  const server = c.env as { requestIP?: (request: Request) => { address: string } | null } | undefined;
  const address = typeof server?.requestIP === "function" ? server.requestIP(c.req.raw)?.address : undefined;
  const forwarded = ["x-forwarded-for", "forwarded", "x-real-ip"].some((name) => c.req.header(name) !== undefined);
  if (address && isLoopback(address) && !forwarded) return undefined;
  return plain("forbidden", 403);
}

export function metricsRoutes(app: Hono<AppEnv>, metrics: Metrics): void {
  app.get("/metrics", async (c) => {
    const refused = access(c);
    if (refused) return refused;
    const { db } = c.get("deps");
    // PGlite's client (it has waitReady) is one connection in this process: no pool to count.
    const postgres = !("waitReady" in ((db as unknown as { $client?: object }).$client ?? {}));
    const [own, database] = await Promise.all([processFigures(metrics), databaseFigures(db, postgres)]);
    const text = await Registry.merge([own, database] as Registry[]).metrics();
    return new Response(text, { headers: { "content-type": own.contentType, "cache-control": "no-store" } });
  });
}
