import { afterAll, describe, expect, test } from "bun:test";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { TEST_DATABASE_URL } from "../testing/db";
import { freePort } from "../testing/serverProcesses";
import { acceptQueuesMigrate, WORKER_ENV, workerCount } from "./cluster";

const ROOT = join(import.meta.dir, "../..");

describe("WORKERS", () => {
  test("on Postgres: WORKERS processes, one per CPU by default; the embedded database is always one process", () => {
    const pg = "postgres://x@127.0.0.1/db";
    expect(workerCount({}, pg)).toBe(availableParallelism());
    expect(workerCount({ WORKERS: "" }, pg)).toBe(availableParallelism());
    expect(workerCount({ WORKERS: "3" }, pg)).toBe(3);
    expect(workerCount({ WORKERS: "1" }, pg)).toBe(1);
    expect(workerCount({ WORKERS: "4" }, undefined)).toBe(1);
    for (const bad of ["0", "-1", "1.5", "two"]) expect(() => workerCount({ WORKERS: bad }, pg)).toThrow("WORKERS must be a whole number of 1 or more");
  });
});

const children = (pid: number) =>
  Bun.spawnSync(["ps", "-o", "pid=", "--ppid", String(pid)]).stdout.toString().trim().split(/\s+/).filter(Boolean).map(Number).sort();
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return Bun.spawnSync(["ps", "-o", "stat=", "-p", String(pid)]).stdout.toString().trim().startsWith("Z") === false;
  } catch {
    return false;
  }
};
async function until(check: () => boolean | Promise<boolean>, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await Bun.sleep(50);
  }
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

test("a worker still starting when its supervisor goes ends too, instead of living on alone", async () => {
  // A database that takes the connection and never answers: the worker waits in its start-up.
  const silent = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const env = { ...process.env, [WORKER_ENV]: "1", WORKERS: "2", PORT: "0", DATABASE_URL: `postgres://nobody@127.0.0.1:${silent.port}/nowhere` };
  const worker = Bun.spawn(["bun", "src/server/index.ts"], { cwd: ROOT, env, stdin: "pipe", stdout: "ignore", stderr: "ignore" });
  try {
    await Bun.sleep(1500);
    expect(worker.exitCode).toBeNull();
    // The supervisor is gone: its end of the worker's stdin closes.
    await worker.stdin.end();
    await until(() => worker.exitCode !== null, 5_000);
  } finally {
    if (worker.exitCode === null) worker.kill("SIGKILL");
    silent.stop(true);
  }
});

describe.skipIf(!TEST_DATABASE_URL)("the supervisor and its workers (Postgres)", () => {
  /** A supervisor with two workers on a fresh database, PORT=`port`; resolves once it listens or has ended. */
  async function startServer(port = 0) {
    const name = `cluster_${process.pid}_${crypto.randomUUID().replaceAll("-", "").slice(0, 10)}`;
    const admin = postgres(TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${name}`);
    const url = new URL(TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    const env: Record<string, string | undefined> = { ...process.env, DATABASE_URL: url.toString(), PORT: String(port), WORKERS: "2", ADMIN_PASSWORD: "cluster-admin-password" };
    delete env.JWT_SECRET;
    const server = Bun.spawn(["bun", "src/server/index.ts"], { cwd: ROOT, env, stdout: "pipe", stderr: "pipe" });
    cleanups.push(async () => {
      if (server.exitCode === null) server.kill("SIGKILL");
      for (const pid of children(server.pid)) process.kill(pid, "SIGKILL");
      await admin.unsafe(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`).catch(() => {});
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    });
    let out = "";
    const reader = (async () => {
      for await (const chunk of server.stdout) out += new TextDecoder().decode(chunk);
    })();
    let err = "";
    void (async () => {
      for await (const chunk of server.stderr) err += new TextDecoder().decode(chunk);
    })();
    await until(() => out.includes("Listening on") || server.exitCode !== null, 60_000);
    const listening = Number(/localhost:(\d+)/.exec(out)?.[1]);
    return { server, port: listening, output: () => out, errors: () => err, reader, admin, database: name };
  }

  test("two workers share the port; one that dies is started again; SIGTERM stops them all; a killed supervisor takes its workers along", async () => {
    const { server, port, output, errors } = await startServer();
    expect(output()).toContain(`Listening on http://localhost:${port} (Postgres, 2 worker processes)`);
    expect(output().match(/Listening on/g)).toHaveLength(1);
    const workers = children(server.pid);
    expect(workers).toHaveLength(2);
    expect((await fetch(`http://127.0.0.1:${port}/api/programs/3p/levels`)).status).toBe(200);

    process.kill(workers[0]!, "SIGKILL");
    await until(() => children(server.pid).length === 2 && !children(server.pid).includes(workers[0]!));
    await until(() => errors().includes(`(pid ${workers[0]}) exited (SIGKILL); starting another`));
    for (let i = 0; i < 20; i++) expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);

    server.kill("SIGTERM");
    await server.exited;
    expect(server.exitCode).toBe(0);
    const left = children(server.pid);
    expect(left.filter(alive)).toEqual([]);

    const second = await startServer();
    const theirs = children(second.server.pid);
    expect(theirs).toHaveLength(2);
    second.server.kill("SIGKILL");
    await until(() => theirs.every((pid) => !alive(pid)), 10_000);
  }, 120_000);

  test("a worker whose new start dies before listening (the database refusing connections for a while) is started again until one listens; with every worker lost so, the supervisor waits on", async () => {
    // A fixed port: the supervisor's check that no other server holds it lets its own workers bind it.
    const { server, port, output, errors, admin, database } = await startServer(await freePort());
    expect(output()).toContain(`Listening on http://localhost:${port} (Postgres, 2 worker processes)`);
    const workers = children(server.pid);
    expect(workers).toHaveLength(2);

    // A Postgres restart, as the workers see it: new connections refused for a few seconds. Both
    // workers die meanwhile; each new one exits before listening, at least once.
    await admin.unsafe(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`);
    for (const pid of workers) process.kill(pid, "SIGKILL");
    const diedEarly = () => (errors().match(/exited before listening \(code 1\); starting another in \d+ ms/g) ?? []).length;
    await until(() => diedEarly() >= 2 || server.exitCode !== null);
    await Bun.sleep(1_000);
    // Before: "did not start again", no worker left, and the supervisor ended with code 0.
    expect(server.exitCode).toBeNull();
    expect(diedEarly()).toBeGreaterThanOrEqual(2);
    await admin.unsafe(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);

    await until(async () => {
      const status = await fetch(`http://127.0.0.1:${port}/`).then((r) => r.status, () => 0);
      return status === 200 && children(server.pid).filter((pid) => !workers.includes(pid)).length === 2;
    }, 30_000);
    for (let i = 0; i < 10; i++) expect((await fetch(`http://127.0.0.1:${port}/`, { headers: { connection: "close" } })).status).toBe(200);
    expect(errors()).not.toContain("did not start again");

    server.kill("SIGTERM");
    await server.exited;
    expect(server.exitCode).toBe(0);
  }, 90_000);

  test("SIGHUP replaces the workers one by one under load, with no request refused or cut; /metrics sums every worker's counts", async () => {
    const { server, port, errors } = await startServer(await freePort());
    const base = `http://127.0.0.1:${port}`;
    const before = children(server.pid);
    expect(before).toHaveLength(2);
    const metrics = async () => {
      const text = await (await fetch(`${base}/metrics`, { headers: { connection: "close" } })).text();
      const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? NaN);
      return { processes: value(/^matrix_metrics_processes (\S+)$/m), levels: value(/^http_requests_total\{method="GET",route="\/api\/programs\/:program\/levels",status="200"\} (\S+)$/m) };
    };
    // Counted by whichever worker the kernel picked; a scrape reaching either sums both.
    const first = await metrics();
    expect(first.processes).toBe(2);
    for (let i = 0; i < 40; i++) expect((await fetch(`${base}/api/programs/3p/levels`, { headers: { connection: "close" } })).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await metrics()).levels - (first.levels || 0)).toBe(40);

    // Load through the whole restart: kept-alive clients and a new connection per request.
    let loading = true;
    const outcomes: Record<string, number> = {};
    const note = (what: string) => void (outcomes[what] = (outcomes[what] ?? 0) + 1);
    const client = async (fresh: boolean) => {
      while (loading) {
        try {
          const res = await fetch(`${base}/api/programs/3p/levels`, fresh ? { headers: { connection: "close" } } : {});
          await res.arrayBuffer();
          note(String(res.status));
        } catch (error) {
          note(`${fresh ? "new" : "kept-alive"} connection: ${(error as { code?: string }).code ?? (error as Error).message}`);
        }
      }
    };
    const clients = [client(false), client(false), client(true), client(true)];
    await Bun.sleep(500);
    process.kill(server.pid, "SIGHUP");
    await until(() => errors().includes("Workers replaced"), 60_000);
    await Bun.sleep(500);
    loading = false;
    await Promise.all(clients);
    const after = children(server.pid);
    expect(after).toHaveLength(2);
    expect(after.filter((pid) => before.includes(pid))).toEqual([]);
    if (process.env.ROLLING_REPORT) console.log("rolling restart:", outcomes);
    // Every request answered 200. Without net.ipv4.tcp_migrate_req a new connection that lands in
    // a retiring worker's accept queue as it lets the port go is reset by the kernel (acceptQueuesMigrate):
    // the supervisor says so, and only such resets are allowed then, rarely.
    const resets = Object.entries(outcomes).filter(([what]) => what !== "200");
    if (acceptQueuesMigrate()) expect(resets).toEqual([]);
    else {
      expect(errors()).toContain("net.ipv4.tcp_migrate_req is 0");
      for (const [what, times] of resets) expect([what, times <= 3]).toEqual(["new connection: ECONNRESET", true]);
    }
    expect(outcomes["200"]).toBeGreaterThan(100);
    expect(errors()).not.toContain("exited");

    server.kill("SIGTERM");
    await server.exited;
    expect(server.exitCode).toBe(0);
  }, 120_000);

  test("a second server on a port another one holds refuses to start, instead of sharing the port with it", async () => {
    // Another server's worker, bound as workers bind (SO_REUSEPORT): an older release still running.
    const other = Bun.serve({ port: 0, reusePort: true, fetch: () => new Response("the other server") });
    try {
      const { server, output, errors } = await startServer(other.port);
      // Before: it printed "Listening on" and the kernel split the connections between the two.
      expect(output()).not.toContain("Listening on");
      await server.exited;
      expect(server.exitCode).toBe(1);
      expect(errors()).toContain(`The server did not start: port ${other.port} is in use`);
      expect(children(server.pid).filter(alive)).toEqual([]);
      // Every connection still reaches the one server that was there.
      for (let i = 0; i < 10; i++) expect(await (await fetch(`http://127.0.0.1:${other.port}/`, { headers: { connection: "close" } })).text()).toBe("the other server");
    } finally {
      await other.stop(true);
    }
  }, 60_000);
});
