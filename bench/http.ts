/**
 * HTTP throughput of the real server against its floors, measured in one run:
 *
 *   bun bench/http.ts [--seconds 10] [--rounds 3] [--no-lcp] [--only page,auth,purchases,workers,memory,lcp,signups]
 *                     [--against REV]
 *       (Postgres at BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres;
 *        BENCH_PROFILE=dir: a CPU profile of the one-process server, in markdown, written there;
 *        BENCH_PERF=dir: perf recordings of the timed purchase runs, written there;
 *        BENCH_KEEP=1: the bench's database is kept at the end (bench_http_<pid>), to look at
 *        what the purchases wrote: how many steps, missed earnings and notifications they had;
 *        --against REV: purchases against the server of git revision REV, not against pgbench;
 *        wrk and pgbench on the PATH: `apt-get install -y wrk postgresql-client`; Chromium at
 *        /usr/bin/chromium for the LCP)
 *
 * Makes a fresh database, builds the client quietly, starts the server (`bun src/server/index.ts`,
 * WORKERS=1: one process, like the floors) and the floors (bench/floor.ts, one process each):
 *
 * - GET /           against a bare Hono app answering the same bytes (the landing page exactly
 *                   as the server sent it: brotli, as browsers ask);
 * - GET /api/auth   (64 members with five levels each, in turn) against a bare Hono +
 *                   postgres.js app making one trivial query per request;
 *
 * wrk with 32 connections for --seconds each, server and floor alternately (the order swapped
 * every round, so load drift falls on both alike); the ratio is of the totals.
 *
 * - POST /api/user/packages/purchase/:program/:level, purchases per second (2xx only), against
 *   pgbench's builtin script (TPC-B, sort of) at -c16 -j2 on the same Postgres, in a database
 *   of its own (scale 16, loaded once at the start with `pgbench -i`, dropped at the end): 16
 *   clients in this process (fetch, keep-alive), each buying for a member the next level it
 *   does not hold (3P 1, 6P 1, 3P 2, ... 6P 12), a new Idempotency-Key each, for --seconds,
 *   alternately with pgbench, the order swapped every round. The members are made through the
 *   API, untimed, before each timed run, enough for 3 times the fastest rate seen so far (the
 *   2 s warm-up's at first): each signs up under a random earlier one (the first ones under the
 *   admin: a small random tree the purchases walk up), signs in once, and asks for a deposit of
 *   every level's price, which the admin accepts. Then its database is vacuumed and analyzed, as
 *   pgbench's is before each of its runs. A purchase not answered 2xx, or running out of
 *   members, fails the bench; at the end every purchase made must be a level held, and the
 *   ledger must sum to zero.
 *
 * Then the same server with WORKERS=2 against WORKERS=1 (2 against 1, alternately), the memory
 * of every server process at rest (after the load, idle), and the landing's LCP on a mobile
 * profile (Chromium through playwright-core: 390x844, CPU 4x slower, 150 ms RTT, 1.6 Mbit/s
 * down) against a page of one heading (the landing's) served the same way: the same headers
 * and the same compression as the server's landing, from the bare page app; and the landing's
 * own bytes from that app too, so the server's share shows. Median of 7 loads each, in turn. Last, with the servers stopped,
 * `bun bench/purchase.ts --signups`: a sign-up 10,000 deep against one near the root, and 16 at
 * once against one at a time. Prints every figure with its floor.
 */
import type { Subprocess } from "bun";
import { readdirSync, readFileSync, symlinkSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { LEVELS_PER_PROGRAM, MAX_AMOUNT, PROGRAMS, type ProgramId } from "../src/shared/constants";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "10" },
    rounds: { type: "string", default: "3" },
    "no-lcp": { type: "boolean", default: false },
    // Some of the figures only, to look at one closely: a comma-separated list of the names above.
    only: { type: "string" },
    // A git revision: its server (a worktree of it, on the same database) against this tree's, in
    // purchases, alternately; instead of against pgbench. To judge a change to the purchase path.
    against: { type: "string" },
  },
});
const FIGURES = ["page", "auth", "purchases", "workers", "memory", "lcp", "signups"] as const;
const only = values.only?.split(",").map((name) => name.trim());
for (const name of only ?? []) if (!(FIGURES as readonly string[]).includes(name)) throw new Error(`--only: no figure named ${name} (${FIGURES.join(", ")})`);
const wanted = (figure: (typeof FIGURES)[number]) => (figure === "lcp" && values["no-lcp"] ? false : !only || only.includes(figure));
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);
const ROOT = join(import.meta.dir, "..");
const BASE = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const DB_NAME = `bench_http_${process.pid}`;
const DB_URL = Object.assign(new URL(BASE), { pathname: `/${DB_NAME}` }).toString();
const SECRET = "bench-http-secret-that-is-long-enough-for-hs256";
const ADMIN = { email: "admin@bench.local", password: "bench-admin-password" };
const BROWSER_ENCODINGS = "gzip, deflate, br";
const CONNECTIONS = 32;
/** pgbench's own database, and the concurrency of both sides of the purchase figure. */
const TPCB_DB = `bench_tpcb_${process.pid}`;
const TPCB_URL = Object.assign(new URL(BASE), { pathname: `/${TPCB_DB}` }).toString();
const TPCB_SCALE = 16;
const BUYING_CLIENTS = 16;
/** The members GET /api/auth is asked for, in turn. */
const AUTH_MEMBERS = 64;

for (const [tool, install] of [["wrk", "wrk"], ["pgbench", "postgresql-client"]] as const) {
  if (Bun.spawnSync(["which", tool]).exitCode !== 0) {
    console.error(`${tool} is not installed: apt-get install -y ${install}`);
    process.exit(1);
  }
}

const children: Subprocess[] = [];
/** The children stopped on purpose (stop): any other that ends prints its last output (the bench then fails where it next asks it). */
const stopping = new WeakSet<Subprocess>();
const admin = postgres(BASE, { max: 1, onnotice: () => {} });

async function freePort(): Promise<number> {
  const probe = Bun.serve({ port: 0, fetch: () => new Response() });
  const port = probe.port!;
  await probe.stop(true);
  return port;
}

/**
 * Starts a process and waits for `ready` in its output. Its output is read all along (the
 * server writes a line per request: a pipe left full would stop it) and its end kept for errors.
 */
async function start(cmd: string[], env: Record<string, string>, ready: string, cwd = ROOT): Promise<Subprocess> {
  const child = Bun.spawn(cmd, { cwd, env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  children.push(child);
  let out = "";
  let started = false;
  const decoder = new TextDecoder();
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) {
      out = (out + decoder.decode(chunk, { stream: true })).slice(-64_000);
      started ||= out.includes(ready);
    }
  };
  void pump(child.stdout as ReadableStream<Uint8Array>);
  void pump(child.stderr as ReadableStream<Uint8Array>);
  void child.exited.then((code) => {
    if (stopping.has(child) || !started) return;
    console.error(`${cmd.join(" ")} ended (exit code ${code}) in the middle of the bench; its last output:\n${out.slice(-4000)}`);
  });
  const deadline = Date.now() + 60_000;
  while (!started) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${cmd.join(" ")} did not start:\n${out}`);
    await Bun.sleep(50);
  }
  return child;
}

async function stop(child: Subprocess) {
  stopping.add(child);
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await child.exited;
  clearTimeout(timer);
}

/** BENCH_PROFILE=dir: the one-process server writes a CPU profile (markdown) there when it stops. */
const PROFILE = process.env.BENCH_PROFILE;
/**
 * BENCH_PERF=dir: `perf record -a -g` of the whole machine during each timed purchase run, one
 * file a run (purchases-1.data, ...): what the server, Postgres and the clients spend it on, with
 * the members' preparation left out. Read with `perf report -i FILE --sort comm,dso`.
 */
const PERF = process.env.BENCH_PERF;
let perfRuns = 0;

/** A system-wide perf recording, stopped (and written) by the function it answers. */
function perfRecord(): () => Promise<void> {
  if (!PERF) return async () => {};
  const file = join(PERF, `purchases-${++perfRuns}.data`);
  const perf = Bun.spawn(["perf", "record", "-a", "-g", "-F", "999", "-o", file], { stdout: "ignore", stderr: "ignore" });
  return async () => {
    perf.kill("SIGINT");
    await perf.exited;
  };
}

const server = (port: number, workers: number, cwd = ROOT) =>
  start(
    ["bun", ...(PROFILE && workers === 1 ? ["--cpu-prof-md", `--cpu-prof-dir=${PROFILE}`] : []), "src/server/index.ts"],
    {
      DATABASE_URL: DB_URL,
      PORT: String(port),
      WORKERS: String(workers),
      JWT_SECRET: SECRET,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SIGNUP_LIMIT: "0",
      // The members sign in a few at once, all from this machine's address.
      LOGIN_CHECKS_PER_SOURCE: "0",
    },
    "Listening on",
    cwd,
  );

/** What the end of the bench undoes (the --against worktree). */
const cleanups: (() => void)[] = [];

/**
 * A worktree of `revision` (--against) beside this one, with this tree's node_modules: its
 * server runs the code of that revision on the same database. Removed at the end.
 */
function worktreeOf(revision: string): string {
  const dir = join(tmpdir(), `bench-against-${process.pid}`);
  const add = Bun.spawnSync(["git", "worktree", "add", "--detach", dir, revision], { cwd: ROOT });
  if (add.exitCode !== 0) throw new Error(`git worktree add ${revision} failed:\n${add.stderr}`);
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  cleanups.push(() => void Bun.spawnSync(["git", "worktree", "remove", "--force", dir], { cwd: ROOT }));
  return dir;
}

interface Run {
  rps: number;
  requests: number;
  seconds: number;
  /** Requests wrk gave up on after 2 s. */
  timeouts: number;
  /** CPU milliseconds a request or transaction took in each process, where measured. */
  cpu?: CpuShare;
}

/** CPU milliseconds per request: the server's (ours) or none (pgbench), Postgres's, the client's. */
interface CpuShare {
  server: number;
  postgres: number;
  client: number;
}

const TICKS_PER_MS = 100 / 1000; // USER_HZ: /proc counts CPU time in 1/100 s

/**
 * CPU milliseconds used so far by `pid` (user + system) and by its children that have ended (the
 * Postgres server's finished backends), from /proc/<pid>/stat; 0 once it is gone.
 */
function cpuOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / TICKS_PER_MS;
  } catch {
    return 0;
  }
}

/** CPU milliseconds used so far by every Postgres process (the backends, and the server's helpers). */
function postgresCpu(): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() === "postgres") total += cpuOf(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/** This process's CPU milliseconds so far (the purchase clients run here). */
const ownCpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** What the processes of a figure have used so far: `cpuSince` turns it into milliseconds per request. */
function cpuStart(serverPid?: number) {
  return { serverPid, server: serverPid === undefined ? 0 : cpuOf(serverPid), postgres: postgresCpu(), own: ownCpu() };
}

/**
 * CPU milliseconds per request since `start` of the server (none for pgbench), of Postgres and of
 * the client: `clientMs` for a client process of its own (wrk, pgbench), else this process's.
 * Postgres's backends that ended (pgbench's) count once reaped: wait a moment before.
 */
function cpuSince(start: ReturnType<typeof cpuStart>, requests: number, clientMs?: number): CpuShare {
  return {
    server: (start.serverPid === undefined ? 0 : cpuOf(start.serverPid) - start.server) / requests,
    postgres: (postgresCpu() - start.postgres) / requests,
    client: (clientMs ?? ownCpu() - start.own) / requests,
  };
}

/**
 * One wrk run; refuses a run with errors, non-2xx answers or no answer at all. Waited for, not
 * run synchronously: the bench must go on reading its servers' output meanwhile (start()).
 */
async function wrk(url: string, headers: Record<string, string>, seconds = SECONDS, script?: string, serverPid?: number): Promise<Run> {
  const started = cpuStart(serverPid);
  const args = ["wrk", "-t2", `-c${CONNECTIONS}`, `-d${seconds}s`];
  for (const [name, value] of Object.entries(headers)) args.push("-H", `${name}: ${value}`);
  if (script) args.push("-s", script);
  const proc = Bun.spawn([...args, url], { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const run = { resourceUsage: proc.resourceUsage() };
  if (code !== 0) throw new Error(`wrk failed: ${err}`);
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  if (/Non-2xx or 3xx responses/.test(out) || (errors && Number(errors[1]) + Number(errors[2]) + Number(errors[3]) > 0)) {
    throw new Error(`wrk saw errors against ${url}:\n${out}`);
  }
  const requests = Number(/(\d+) requests in/.exec(out)?.[1]);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  if (!requests) throw new Error(`wrk had no answer from ${url}:\n${out}`);
  // Answers slower than wrk's 2 s timeout are counted, not failed: printed with the figure.
  const cpu = cpuSince(started, requests, Number(run.resourceUsage?.cpuTime.total ?? 0) / 1000);
  return { rps, requests, seconds: requests / rps, timeouts: Number(errors?.[4] ?? 0), cpu };
}

interface Pair {
  a: Run[];
  b: Run[];
}

/** `a` and `b` alternately, the order swapped each round; the ratio b/a of total requests per second. */
async function compare(
  a: () => Run | Promise<Run>,
  b: () => Run | Promise<Run>,
  rounds = ROUNDS,
): Promise<Pair & { ratio: number; aRps: number; bRps: number }> {
  const pair: Pair = { a: [], b: [] };
  for (let r = 0; r < rounds; r++) {
    if (r % 2 === 0) {
      pair.a.push(await a());
      pair.b.push(await b());
    } else {
      pair.b.push(await b());
      pair.a.push(await a());
    }
  }
  const rate = (runs: Run[]) => runs.reduce((s, r) => s + r.requests, 0) / runs.reduce((s, r) => s + r.seconds, 0);
  const aRps = rate(pair.a);
  const bRps = rate(pair.b);
  return { ...pair, aRps, bRps, ratio: bRps / aRps };
}

/** RSS in MB of a process and of its children (a supervisor's workers). */
function rssOf(pid: number): { pid: number; mb: number }[] {
  const read = (p: number) => {
    const status = readFileSync(`/proc/${p}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  };
  const kids = Bun.spawnSync(["ps", "-o", "pid=", "--ppid", String(pid)]).stdout.toString().trim().split(/\s+/).filter(Boolean).map(Number);
  return [pid, ...kids].map((p) => ({ pid: p, mb: read(p) }));
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const x = (n: number) => `${n.toFixed(2)}x`;
/** A ratio next to its target: with a third decimal when two would print the target itself (0.297x, not 0.30x, for a miss). */
const xAgainst = (n: number, target: number) => (n.toFixed(2) === target.toFixed(2) && n !== target ? `${n.toFixed(3)}x` : x(n));

/** A short run to warm up, not counted. */
async function wrkWarm(run: (seconds?: number) => Promise<Run>) {
  await run(2);
}

/** One figure: ours/s vs the floor's rate (`floorUnit`: "/s", or " tps" for pgbench), per round too. */
function report(what: string, floor: string, pair: Awaited<ReturnType<typeof compare>>, target?: number, floorUnit = "/s") {
  const rounds = pair.b.map((b, i) => `${fmt(b.rps)}/${fmt(pair.a[i]!.rps)}`).join(", ");
  const verdict = target === undefined ? "" : pair.ratio >= target ? `  (target ${target}x: met)` : `  (target ${target}x: NOT met)`;
  const timeouts = [...pair.a, ...pair.b].reduce((n, r) => n + r.timeouts, 0);
  const late = timeouts > 0 ? `, ${timeouts} answers over 2 s` : "";
  console.log(`  ${what.padEnd(15)} ${fmt(pair.bRps).padStart(7)}/s vs ${floor} ${fmt(pair.aRps)}${floorUnit}: ${target === undefined ? x(pair.ratio) : xAgainst(pair.ratio, target)}${verdict}   [rounds ${rounds}${late}]`);
}

/** CPU microseconds per request in each process, over the runs of a figure: where the time goes. */
function reportCpu(ours: string, oursRuns: Run[], floor: string, floorRuns: Run[], client: string, floorClient = client) {
  const mean = (runs: Run[], part: keyof CpuShare) =>
    runs.reduce((sum, r) => sum + (r.cpu?.[part] ?? 0) * r.requests, 0) / runs.reduce((n, r) => n + r.requests, 0);
  const line = (what: string, runs: Run[], client: string) => {
    const [server, postgres, clientMs] = (["server", "postgres", "client"] as const).map((part) => mean(runs, part));
    const us = (ms: number) => (ms * 1000).toFixed(0);
    const parts = [...(server! > 0 ? [`server ${us(server!)}`] : []), `Postgres ${us(postgres!)}`, `${client} ${us(clientMs!)}`];
    console.log(`  CPU us a ${what}: ${parts.join(", ")}`);
  };
  line(ours, oursRuns, client);
  line(floor, floorRuns, floorClient);
}

/**
 * pgbench's builtin script (TPC-B, sort of) on its own database: -c16 -j2 for `seconds`. The
 * rate is its "tps = N (without initial connection time)"; a run with failed transactions, or
 * that pgbench ends with an error (an aborted client), is refused.
 */
async function pgbench(seconds = SECONDS): Promise<Run> {
  const started = cpuStart();
  const run = Bun.spawn(["pgbench", `-c${BUYING_CLIENTS}`, "-j2", `-T${seconds}`, TPCB_URL], { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
  if (code !== 0) throw new Error(`pgbench failed (exit ${code}):\n${out}${err}`);
  const tps = Number(/^tps = ([\d.]+) \(without initial connection time\)/m.exec(out)?.[1]);
  const requests = Number(/^number of transactions actually processed: (\d+)/m.exec(out)?.[1]);
  const failed = Number(/^number of failed transactions: (\d+)/m.exec(out)?.[1] ?? 0);
  if (!(tps > 0) || !(requests > 0) || failed > 0) throw new Error(`pgbench: no tps, or failed transactions:\n${out}${err}`);
  await Bun.sleep(200);
  const cpu = cpuSince(started, requests, Number(run.resourceUsage()?.cpuTime.total ?? 0) / 1000);
  return { rps: tps, requests, seconds: requests / tps, timeouts: 0, cpu };
}

/**
 * The product's tables vacuumed and analyzed, as pgbench vacuums its own before each run and as
 * autovacuum would (it is off on this machine's Postgres: without it, the planner plans for the
 * empty tables the database started with, and a young table is read whole).
 */
async function vacuum() {
  const pg = postgres(DB_URL, { max: 1, onnotice: () => {} });
  try {
    await pg.unsafe("VACUUM ANALYZE");
  } finally {
    await pg.end();
  }
}

type Api = (method: string, path: string, body?: unknown, token?: string) => Promise<Record<string, unknown>>;

/** Every level of both programs, in the order a member buys them: 3P 1, 6P 1, 3P 2, ... 6P 12. */
const LEVEL_ORDER: [ProgramId, number][] = Array.from({ length: PROGRAMS.length * LEVELS_PER_PROGRAM }, (_, i) => [
  PROGRAMS[i % PROGRAMS.length]!,
  Math.floor(i / PROGRAMS.length) + 1,
]);
/** Members made ready before a timed run: for this many times the fastest rate seen so far. */
const HEADROOM = 3;
/** Sign-ups (and their sign-ins) in flight at once while preparing members: argon2 takes the CPUs. */
const SIGNUPS_AT_ONCE = 4;

interface Buyer {
  email: string;
  token: string;
  /** Levels bought so far: the next one is LEVEL_ORDER[bought]. */
  bought: number;
}

const randomHex = (bytes: number) => Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("hex");
const dollars = (cents: bigint) => `${cents / 100n}.${String(cents % 100n).padStart(2, "0")}`;

/** `count` calls of `work`, at most `width` at once. */
async function inParallel(count: number, width: number, work: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(width, count) }, async () => {
    while (next < count) await work(next++);
  }));
}

/**
 * The purchase figure (see the header): its members, all made through the API of the server at
 * `base`, and its clients. `idle` holds the members no client is buying for, with levels left,
 * oldest first: a client takes the first, buys its next level and puts it back last, so no
 * member ever has two purchases at once and each buys its levels in order, each one allowed
 * (the previous level held, the price covered).
 */
function buying(base: string, serverPid: number, api: Api, adminToken: string, adminReferralId: string) {
  const idle: Buyer[] = [];
  const referralIds: string[] = [];
  let signedUp = 0;
  /** Purchases answered 2xx, counted in a figure or not (the warm-up's, those after a deadline). */
  let made = 0;
  /** Purchases per second, the fastest run so far. */
  let fastest = 0;
  let seed = 0x9e3779b9;
  /** A small PRNG (mulberry32): the same tree every run. */
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  let allLevels: bigint | undefined;

  /** What every level of both programs costs together now (program_levels, through the public API). */
  async function priceOfAllLevels(): Promise<bigint> {
    let total = 0n;
    for (const program of PROGRAMS) {
      const levels = (await api("GET", `/programs/${program}/levels`)) as unknown as { level: number; cost: number }[];
      if (levels.length !== LEVELS_PER_PROGRAM) throw new Error(`${program}: ${levels.length} levels, expected ${LEVELS_PER_PROGRAM}`);
      for (const { cost } of levels) total += BigInt(Math.round(cost * 100));
    }
    return total;
  }

  /**
   * `count` more members: each signs up under a random earlier one (the first ones under the
   * admin), signs in once, and asks for a deposit of every level's price (in requests of at most
   * MAX_AMOUNT); then the admin accepts every pending deposit. All through the API.
   */
  async function prepare(count: number) {
    allLevels ??= await priceOfAllLevels();
    const ready: Buyer[] = [];
    await inParallel(count, SIGNUPS_AT_ONCE, async () => {
      const i = signedUp++;
      const email = `buyer${i}@bench.local`;
      const password = "bench-buyer-password";
      const referralId = referralIds.length === 0 ? adminReferralId : referralIds[Math.floor(random() * referralIds.length)]!;
      await api("POST", "/auth/register", { name: `Buyer ${i}`, email, password, referralId });
      const token = (await api("POST", "/auth/login", { email, password })).token as string;
      const me = await api("GET", "/auth", undefined, token);
      for (let left = allLevels!; left > 0n; left -= left < MAX_AMOUNT ? left : MAX_AMOUNT) {
        const amount = dollars(left < MAX_AMOUNT ? left : MAX_AMOUNT);
        await api("POST", "/user/deposit", { network: "BEP20", address: `0x${randomHex(20)}`, transactionId: `0x${randomHex(32)}`, amount }, token);
      }
      referralIds.push(me.myReferralId as string);
      ready.push({ email, token, bought: 0 });
    });
    for (;;) {
      const pending = (await api("GET", "/admin/deposits?status=pending&limit=100", undefined, adminToken)) as unknown as { _id: string }[];
      if (pending.length === 0) break;
      await inParallel(pending.length, SIGNUPS_AT_ONCE, (i) =>
        api("PUT", `/admin/deposits/${pending[i]!._id}`, { status: "accepted" }, adminToken).then(() => {}),
      );
    }
    idle.push(...ready);
  }

  /**
   * BUYING_CLIENTS clients buying for `seconds`; the purchases answered by the deadline count.
   * A timed run first makes sure the members have enough levels left (HEADROOM); running out
   * during it fails the bench, while the warm-up just ends there. Any purchase that is not
   * answered 2xx within 30 s fails the bench.
   */
  async function run(seconds: number, warm = false, target = { base, serverPid }): Promise<Run> {
    if (!warm) {
      const need = Math.ceil(fastest * seconds * HEADROOM) + BUYING_CLIENTS * LEVEL_ORDER.length;
      const left = idle.reduce((n, b) => n + LEVEL_ORDER.length - b.bought, 0);
      if (left < need) await prepare(Math.ceil((need - left) / LEVEL_ORDER.length));
    }
    await vacuum();
    let counted = 0;
    let late = 0;
    let failure: Error | undefined;
    const stopPerf = warm ? async () => {} : perfRecord();
    const started = cpuStart(target.serverPid);
    const start = performance.now();
    let end = start + seconds * 1000;
    const client = async () => {
      while (failure === undefined && performance.now() < end) {
        const buyer = idle.shift();
        if (!buyer) {
          if (!warm) failure = new Error(`the clients ran out of members to buy for after ${counted} purchases in this run (faster than ${HEADROOM}x the fastest run before)`);
          end = Math.min(end, performance.now());
          return;
        }
        const [program, level] = LEVEL_ORDER[buyer.bought]!;
        const sent = performance.now();
        try {
          const res = await fetch(`${target.base}/api/user/packages/purchase/${program}/${level}`, {
            method: "POST",
            headers: { "x-auth-token": buyer.token, "Idempotency-Key": crypto.randomUUID() },
            signal: AbortSignal.timeout(30_000),
          });
          const text = await res.text();
          if (!res.ok) throw new Error(`answered ${res.status} ${text}`);
        } catch (error) {
          failure ??= new Error(`POST /api/user/packages/purchase/${program}/${level} by ${buyer.email}: ${error instanceof Error ? error.message : String(error)}`);
          return;
        }
        const answered = performance.now();
        made++;
        if (++buyer.bought < LEVEL_ORDER.length) idle.push(buyer);
        if (answered <= end) {
          counted++;
          if (answered - sent > 2_000) late++;
        }
      }
    };
    await Promise.all(Array.from({ length: BUYING_CLIENTS }, client));
    await stopPerf();
    if (failure) throw failure;
    const elapsed = (end - start) / 1000;
    const result: Run = { rps: counted / elapsed, requests: counted, seconds: elapsed, timeouts: late, cpu: (await Bun.sleep(200), cpuSince(started, counted)) };
    fastest = Math.max(fastest, result.rps);
    return result;
  }

  /** Every purchase made is a level its member holds, and the ledger still sums to zero. */
  async function verify(dbUrl: string) {
    const pg = postgres(dbUrl, { max: 1, onnotice: () => {} });
    try {
      const [held] = await pg<{ n: number }[]>`
        SELECT count(*)::int AS n FROM user_levels l JOIN users u ON u.id = l.user_id WHERE u.email LIKE 'buyer%@bench.local'`;
      if (held!.n !== made) throw new Error(`${made} purchases answered 2xx, but the members hold ${held!.n} levels`);
      const [sum] = await pg<{ total: string }[]>`SELECT coalesce(sum(balance), 0)::text AS total FROM accounts`;
      if (sum!.total !== "0") throw new Error(`the balances sum to ${sum!.total} cents, not 0`);
    } finally {
      await pg.end();
    }
    return { members: signedUp, made };
  }

  return { prepare, run, verify };
}

/**
 * Largest Contentful Paint of `url` in a fresh mobile context: Chromium's CPU 4x slower, a slow
 * 4G network (150 ms RTT, 1.6 Mbit/s down, 750 kbit/s up), 390x844 at 3x. Read from a
 * PerformanceObserver after the load.
 */
async function lcpOnce(browser: import("playwright-core").Browser, url: string): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    });
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    await page.addInitScript(() => {
      const w = window as unknown as { __lcp: number };
      w.__lcp = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) w.__lcp = entry.startTime;
      }).observe({ type: "largest-contentful-paint", buffered: true });
    });
    await page.goto(url, { waitUntil: "load" });
    await page.waitForTimeout(500);
    return await page.evaluate(() => (window as unknown as { __lcp: number }).__lcp);
  } finally {
    await context.close();
  }
}

interface Lcp {
  /** The landing from the server. */
  landing: number;
  /** The landing's bytes, and a page of one heading, both from the bare page app with the landing's headers. */
  sameBytes: number;
  heading: number;
}

async function measureLcp(landingUrl: string, floorUrl: string): Promise<Lcp | undefined> {
  if (!(await Bun.file("/usr/bin/chromium").exists())) {
    console.log("\nLCP: skipped (no /usr/bin/chromium)");
    return undefined;
  }
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
  });
  try {
    const pages = { landing: `${landingUrl}/`, sameBytes: `${floorUrl}/landing`, heading: `${floorUrl}/heading` };
    const times: Record<keyof Lcp, number[]> = { landing: [], sameBytes: [], heading: [] };
    for (const url of Object.values(pages)) await lcpOnce(browser, url);
    // In turn, the order moved on every round, so drift falls on each alike.
    const names = Object.keys(pages) as (keyof Lcp)[];
    for (let i = 0; i < 7; i++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(i + k) % names.length]!;
        times[name].push(await lcpOnce(browser, pages[name]));
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const result: Lcp = { landing: median(times.landing), sameBytes: median(times.sameBytes), heading: median(times.heading) };
    const list = (xs: number[]) => xs.map((n) => n.toFixed(0)).join(", ");
    console.log("\nLCP, mobile profile (CPU 4x, 150 ms RTT, 1.6 Mbit/s), median of 7, in turn; the floor: a page of one heading, same headers and compression");
    const ratio = result.landing / result.heading;
    console.log(`  landing ${result.landing.toFixed(0)} ms vs one-heading page ${result.heading.toFixed(0)} ms: ${xAgainst(ratio, 1.5)}  (target at most 1.5x: ${ratio <= 1.5 ? "met" : "MISSED"})   [landing ${list(times.landing)}; heading ${list(times.heading)}]`);
    console.log(`  the landing's bytes from the bare app ${result.sameBytes.toFixed(0)} ms: ${x(result.sameBytes / result.heading)} of the heading's, the server ${x(result.landing / result.sameBytes)} of the bare app   [${list(times.sameBytes)}]`);
    return result;
  } finally {
    await browser.close();
  }
}

let exitCode = 1;
try {
  console.log(`bench/http.ts, ${new Date().toISOString().slice(0, 10)}: ${cpus().length} CPUs (${cpus()[0]?.model.trim()}), Bun ${Bun.version}, load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  console.log(`wrk -t2 -c${CONNECTIONS} -d${SECONDS}s, ${ROUNDS} rounds per figure, server and floor alternately\n`);

  const build = Bun.spawnSync(["bun", "scripts/build.ts", "--quiet"], { cwd: ROOT });
  if (build.exitCode !== 0) throw new Error(`build failed:\n${build.stdout}${build.stderr}`);

  await admin.unsafe(`DROP DATABASE IF EXISTS ${DB_NAME}`);
  await admin.unsafe(`CREATE DATABASE ${DB_NAME}`);
  // pgbench's database, loaded once (scale 16: 1.6 million accounts); each run vacuums its tables first.
  if (wanted("purchases") && !values.against) {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${TPCB_DB}`);
    await admin.unsafe(`CREATE DATABASE ${TPCB_DB}`);
    const init = Bun.spawnSync(["pgbench", "-i", "-q", "-s", String(TPCB_SCALE), TPCB_URL]);
    if (init.exitCode !== 0) throw new Error(`pgbench -i failed:\n${init.stdout}${init.stderr}`);
  }

  const [p1, p2, pPage, pDb] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const one = await server(p1, 1);
  const s1 = `http://127.0.0.1:${p1}`;

  // Members with five levels held each (the answer's usual size), in a small random tree (each
  // under a random earlier one, the first under the admin), signed in through the API.
  const api = async (method: string, path: string, body?: unknown, token?: string) => {
    const res = await fetch(`${s1}/api${path}`, {
      method,
      headers: { "content-type": "application/json", ...(token ? { "x-auth-token": token } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const adminToken = (await api("POST", "/auth/login", ADMIN)).token as string;
  const { referralId } = await api("GET", "/auth/admin-referral-id", undefined, adminToken);
  const tokens: string[] = [];
  const referralIds = [referralId as string];
  for (let i = 0; i < AUTH_MEMBERS; i++) {
    const member = { name: `Bench Member ${i}`, email: `member${i}@bench.local`, password: "bench-member-password" };
    await api("POST", "/auth/register", { ...member, referralId: referralIds[Math.floor(Math.random() * referralIds.length)] });
    const token = (await api("POST", "/auth/login", { email: member.email, password: member.password })).token as string;
    referralIds.push((await api("GET", "/auth", undefined, token)).myReferralId as string);
    tokens.push(token);
  }
  const pg = postgres(DB_URL, { max: 1, onnotice: () => {} });
  await pg`INSERT INTO user_levels (user_id, program, level, status, cycles, slots, chain_id, depth)
    SELECT u.id, l.program, l.level, 'active', l.level - 1, ARRAY['someone', 'someone else'], u.chain_id, u.depth
    FROM users u, (VALUES ('3p', 1), ('3p', 2), ('3p', 3), ('6p', 1), ('6p', 2)) AS l(program, level)
    WHERE u.email LIKE 'member%@bench.local'`;
  await pg.end();
  // wrk asks for each member in turn (each of its threads from a place of its own in the list).
  const tokensScript = join(tmpdir(), `bench-http-tokens-${process.pid}.lua`);
  await Bun.write(
    tokensScript,
    `local tokens = { ${tokens.map((t) => JSON.stringify(t)).join(", ")} }
local i = math.random(#tokens)
request = function()
  i = i % #tokens + 1
  return wrk.format("GET", nil, { ["x-auth-token"] = tokens[i] })
end
`,
  );
  const token = tokens[0]!;
  const me = await api("GET", "/auth", undefined, token);
  if (JSON.stringify(me).length < 500) throw new Error("GET /api/auth answered too little");
  // Statistics for the planner, as autovacuum would keep them (see vacuum()).
  await vacuum();

  // The landing page as a browser gets it: brotli once the server has compressed it.
  let landing: Response | undefined;
  for (let i = 0; i < 50; i++) {
    landing = await fetch(`${s1}/`, { headers: { "accept-encoding": BROWSER_ENCODINGS }, decompress: false } as RequestInit);
    if (landing.headers.get("content-encoding") === "br") break;
    await Bun.sleep(100);
  }
  if (!landing?.headers.get("content-security-policy")) throw new Error("GET / answered without its security headers");
  const encoding = landing.headers.get("content-encoding") ?? "";
  const pageFile = join(tmpdir(), `bench-http-landing-${process.pid}`);
  await Bun.write(pageFile, await landing.arrayBuffer());
  // The headers the LCP's floor page is served with: the landing's own, less those of its bytes alone.
  const headersFile = join(tmpdir(), `bench-http-landing-headers-${process.pid}.json`);
  const landingHeaders = Object.fromEntries([...landing.headers].filter(([name]) => !["content-length", "etag", "date"].includes(name)));
  await Bun.write(headersFile, JSON.stringify(landingHeaders));
  const pageFloor = await start(["bun", "bench/floor.ts", "page", String(pPage), pageFile, encoding || "identity", headersFile], {}, "ready");
  const dbFloor = await start(["bun", "bench/floor.ts", "db", String(pDb), DB_URL], {}, "ready");
  const landingBytes = Bun.file(pageFile).size;

  const page = (base: string) => (seconds?: number) => wrk(`${base}/`, { "Accept-Encoding": BROWSER_ENCODINGS }, seconds);
  const auth = (base: string, pid?: number) => (seconds?: number) => wrk(`${base}/api/auth`, {}, seconds, tokensScript, pid);
  const floorPage = `http://127.0.0.1:${pPage}`;
  const floorDb = `http://127.0.0.1:${pDb}`;
  // Warm-up of what is measured here: JIT, pools, the pages' first renders.
  for (const warm of [page(floorPage), page(s1)]) await wrkWarm(warm);
  if (wanted("auth")) for (const warm of [auth(floorDb), auth(s1)]) await wrkWarm(warm);

  console.log(`GET / (${fmt(landingBytes)} bytes, ${encoding || "identity"}) and GET /api/auth: one server process against its floor`);
  const landingRatio = wanted("page") ? await compare(page(floorPage), page(s1)) : undefined;
  if (landingRatio) report("GET /", "bare Hono, same bytes", landingRatio, 0.8);
  const authRatio = wanted("auth") ? await compare(auth(floorDb, dbFloor.pid), auth(s1, one.pid)) : undefined;
  if (authRatio) {
    report("GET /api/auth", "bare Hono + postgres.js, SELECT 1", authRatio, 0.5);
    reportCpu("GET /api/auth", authRatio.b, "floor request", authRatio.a, "wrk");
  }

  // Purchases over HTTP, one process, against pgbench TPC-B on the same Postgres.
  let purchaseRatio: Awaited<ReturnType<typeof compare>> | undefined;
  if (wanted("purchases")) {
    const buy = buying(s1, one.pid, api, adminToken, referralId as string);
    await buy.prepare(BUYING_CLIENTS * 4);
    await buy.run(2, true);
    if (values.against) {
      const port = await freePort();
      const other = await server(port, 1, worktreeOf(values.against));
      const target = { base: `http://127.0.0.1:${port}`, serverPid: other.pid };
      await buy.run(2, true, target);
      console.log(`\nPOST /api/user/packages/purchase: ${BUYING_CLIENTS} clients (fetch, keep-alive), this tree's server against ${values.against}'s, one process each, on the same database`);
      const pair = await compare(() => buy.run(SECONDS, false, target), () => buy.run(SECONDS));
      report("purchases", values.against, pair);
      reportCpu("purchase here", pair.b, `purchase at ${values.against}`, pair.a, "clients");
    } else {
      await pgbench(2);
      console.log(`\nPOST /api/user/packages/purchase: ${BUYING_CLIENTS} clients (fetch, keep-alive) on one server process against pgbench TPC-B -c${BUYING_CLIENTS} -j2, scale ${TPCB_SCALE}`);
      purchaseRatio = await compare(() => pgbench(), () => buy.run(SECONDS));
      report("purchases", "pgbench TPC-B", purchaseRatio, 0.3, " tps");
      reportCpu("purchase", purchaseRatio.b, "TPC-B transaction", purchaseRatio.a, "clients", "pgbench");
    }
    const bought = await buy.verify(DB_URL);
    console.log(`  (${fmt(bought.made)} purchases by ${fmt(bought.members)} members, warm-up included: each a level held; the ledger sums to zero)`);
  }

  // All cores: the same server with two worker processes, against one.
  let pagesScale: Awaited<ReturnType<typeof compare>> | undefined;
  let authScale: Awaited<ReturnType<typeof compare>> | undefined;
  // The purchases wrote tens of thousands of rows since the last analyze: analyze again, as
  // autovacuum would have by now. (Without it, the one-process server keeps the plans it made
  // for near-empty tables, reading them whole, while the new server plans for their real size.)
  if (wanted("purchases")) await vacuum();
  const two = wanted("workers") || wanted("memory") ? await server(p2, 2) : undefined;
  if (two && wanted("workers")) {
    const s2 = `http://127.0.0.1:${p2}`;
    for (const warm of [page(s2), auth(s2)]) await wrkWarm(warm);
    console.log("\nWORKERS=2 against WORKERS=1 (the same database)");
    pagesScale = await compare(page(s1), page(s2));
    report("GET /", "WORKERS=1", pagesScale);
    authScale = await compare(auth(s1), auth(s2));
    report("GET /api/auth", "WORKERS=1", authScale);
  }

  // Memory at rest: after the load, idle for a while.
  let heaviest: number | undefined;
  if (two && wanted("memory")) {
    await Bun.sleep(10_000);
    console.log("\nMemory at rest (RSS after the load, 10 s idle), target at most 100 MB per process");
    const memory = [
      ...rssOf(one.pid).map((p) => ({ ...p, role: "WORKERS=1: the server" })),
      ...rssOf(two.pid).map((p, i) => ({ ...p, role: i === 0 ? "WORKERS=2: the supervisor" : `WORKERS=2: worker ${i}` })),
    ];
    for (const m of memory) console.log(`  ${m.role.padEnd(28)} pid ${String(m.pid).padEnd(8)} ${m.mb.toFixed(0).padStart(5)} MB`);
    heaviest = Math.max(...memory.map((m) => m.mb));
  }

  let lcp: Lcp | undefined;
  if (wanted("lcp")) lcp = await measureLcp(s1, floorPage);

  // Sign-ups 10,000 deep against near the root, and at once against one at a time: measured by
  // bench/purchase.ts in-process (cheap argon2, so the tree's share shows), with the servers
  // above stopped.
  for (const child of children) if (child.exitCode === null) await stop(child);
  let signUps: { nearRoot: number; deep: number; concurrent: number; sequential: number } | undefined;
  if (wanted("signups")) {
    console.log("");
    const signUpRun = Bun.spawnSync(["bun", "bench/purchase.ts", "--signups"], { cwd: ROOT, env: { ...process.env, BENCH_DATABASE_URL: BASE } });
    const signUpOut = signUpRun.stdout.toString();
    if (signUpRun.exitCode !== 0) throw new Error(`bench/purchase.ts --signups failed:\n${signUpOut}${signUpRun.stderr}`);
    console.log(signUpOut.split("\n").filter((line) => line && !line.startsWith("SIGNUP_SUMMARY")).join("\n"));
    signUps = JSON.parse(/SIGNUP_SUMMARY (.*)/.exec(signUpOut)![1]!);
  }

  console.log(`\nSummary (${new Date().toISOString().slice(0, 10)})`);
  const rows: [string, string, string][] = [];
  if (landingRatio) rows.push(["GET /, one process", `${fmt(landingRatio.bRps)}/s vs ${fmt(landingRatio.aRps)}/s`, `${xAgainst(landingRatio.ratio, 0.8)} (target 0.8x)`]);
  if (authRatio) rows.push(["GET /api/auth, one process", `${fmt(authRatio.bRps)}/s vs ${fmt(authRatio.aRps)}/s`, `${xAgainst(authRatio.ratio, 0.5)} (target 0.5x)`]);
  if (purchaseRatio) rows.push(["purchases over HTTP, one process", `${fmt(purchaseRatio.bRps)}/s vs ${fmt(purchaseRatio.aRps)} tps`, `${xAgainst(purchaseRatio.ratio, 0.3)} (target 0.3x)`]);
  if (pagesScale) rows.push(["GET /, WORKERS=2 vs 1", `${fmt(pagesScale.bRps)}/s vs ${fmt(pagesScale.aRps)}/s`, x(pagesScale.ratio)]);
  if (authScale) rows.push(["GET /api/auth, WORKERS=2 vs 1", `${fmt(authScale.bRps)}/s vs ${fmt(authScale.aRps)}/s`, x(authScale.ratio)]);
  if (heaviest !== undefined) rows.push(["memory at rest, heaviest process", `${heaviest.toFixed(0)} MB`, "(target 100 MB)"]);
  if (lcp) rows.push(["landing LCP vs one-heading page", `${lcp.landing.toFixed(0)} ms vs ${lcp.heading.toFixed(0)} ms`, `${xAgainst(lcp.landing / lcp.heading, 1.5)} (target 1.5x)`]);
  if (signUps) {
    rows.push(
      ["sign-up 10,000 deep vs depth 10", `${signUps.deep.toFixed(1)} ms vs ${signUps.nearRoot.toFixed(1)} ms`, `${xAgainst(signUps.deep / signUps.nearRoot, 3)} (target 3x)`],
      ["sign-ups: 16 at once vs one by one", `${fmt(signUps.concurrent)}/s vs ${fmt(signUps.sequential)}/s`, x(signUps.concurrent / signUps.sequential)],
    );
  }
  for (const [what, figures, ratio] of rows) console.log(`  ${what.padEnd(34)} ${figures.padEnd(30)} ${ratio}`);
  exitCode = 0;
} catch (error) {
  console.error(error);
} finally {
  for (const child of children) if (child.exitCode === null) await stop(child);
  for (const cleanup of cleanups) cleanup();
  if (process.env.BENCH_KEEP) console.log(`(database ${DB_NAME} kept: drop it when done)`);
  else await admin.unsafe(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`).catch(() => {});
  await admin.unsafe(`DROP DATABASE IF EXISTS ${TPCB_DB} WITH (FORCE)`).catch(() => {});
  await admin.end();
  process.exit(exitCode);
}
