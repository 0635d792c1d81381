/**
 * bun run chaos [--clients 20] [--ops 1500] [--kills 1] [--servers 2] [--workers 1] [--seed 42] [--chain auto|on|off] [--failover]
 *
 * Starts the server on a fresh Postgres database (one or two servers sharing it, each of
 * --workers processes: WORKERS), runs a
 * mixed money workload from many concurrent clients, SIGKILLs a server at random moments and
 * restarts it, then checks the ledger and every acknowledged operation against the database.
 * With --chain (auto: when anvil is installed), a local chain's transfers to members' own
 * addresses run alongside, and each must be credited once (./chain.ts).
 * With --failover, the database is a primary and a synchronous standby made for the run
 * (./failover.ts): part-way through, the primary is killed and the standby promoted; the servers
 * must reconnect by themselves within FAILOVER_RECOVERY_S, answering 503 `database_unavailable`
 * meanwhile, and every acknowledgement is checked on the promoted standby.
 * Exits 1 on any violation.
 */
import postgres from "postgres";
import { parseArgs } from "node:util";
import { call } from "./client";
import { startChainChaos } from "./chain";
import { PostgresPair } from "./failover";
import { ServerProcess } from "./servers";
import { verify } from "./verify";
import { adminLoop, newJournal, userLoop, type World } from "./workload";

const { values } = parseArgs({
  options: {
    clients: { type: "string", default: "20" },
    ops: { type: "string", default: "1500" },
    kills: { type: "string", default: "1" },
    servers: { type: "string", default: "2" },
    workers: { type: "string", default: "1" },
    seed: { type: "string", default: String(Date.now() % 100000) },
    /** Every n-th client keeps GET /api/user/events open (4: a quarter; 0: none). */
    "stream-every": { type: "string", default: "4" },
    chain: { type: "string", default: "auto" },
    failover: { type: "boolean", default: false },
    postgres: { type: "string", default: process.env.CHAOS_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres" },
  },
});
const clients = Number(values.clients);
const kills = Number(values.kills);

/** mulberry32: a seeded generator, so a failing run can be replayed with --seed. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** How long the servers may take to serve again once the standby is promoted. */
const FAILOVER_RECOVERY_S = 10;

const dbName = `chaos_${Date.now().toString(36)}`;
const pair = values.failover ? new PostgresPair(5500 + Math.floor(Math.random() * 200) * 2, 5501 + Math.floor(Math.random() * 200) * 2) : undefined;
await pair?.start();
const adminSql = postgres(pair ? pair.writerUrl("postgres") : values.postgres!, { max: 1, onnotice: () => {} });
await adminSql.unsafe(`CREATE DATABASE ${dbName}`);
const dbUrl = new URL(values.postgres!);
dbUrl.pathname = `/${dbName}`;
/** Where the checks read at the end: the promoted standby after a failover. */
const checkedUrl = () => (pair ? pair.writerUrl(dbName) : dbUrl.toString());

const env = {
  DATABASE_URL: pair ? pair.url(dbName) : dbUrl.toString(),
  JWT_SECRET: `chaos-${crypto.randomUUID()}`,
  ADMIN_EMAIL: "admin@chaos.test",
  ADMIN_PASSWORD: "chaos-admin-password",
  // Every client signs up, and in, from this machine's address.
  SIGNUP_LIMIT: "0",
  LOGIN_CHECKS_PER_SOURCE: "0",
  // Processes per server (src/server/cluster.ts): the same checks hold with every core in use.
  WORKERS: values.workers!,
};
const chainChaos = values.chain === "off" ? null : await startChainChaos();
if (values.chain === "on" && !chainChaos) throw new Error("--chain on needs anvil (npm install -g @foundry-rs/anvil-linux-amd64)");
Object.assign(env, chainChaos?.env ?? {});
const servers = Array.from({ length: Number(values.servers) }, (_, i) => new ServerProcess(3400 + i + Math.floor(Math.random() * 500) * 2, env));
let exitCode = 1;
try {
  // The first process migrates and seeds; the others start on the same database.
  for (const s of servers) await s.start();
  const login = await call(servers[0]!.url, "POST", "/auth/login", undefined, { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD });
  if (login.kind !== "answered" || login.status !== 200) throw new Error("admin login failed");
  const adminToken: string = login.body.token;
  const ref = await call(servers[0]!.url, "GET", "/auth/admin-referral-id");
  const world: World = {
    servers,
    journal: newJournal(),
    budget: { left: Number(values.ops) },
    referralIds: [ref.kind === "answered" ? ref.body.referralId : ""],
    emails: [],
    rand: seeded(Number(values.seed)),
    streamEvery: Number(values["stream-every"]),
    streams: [],
    databaseMayBeAway: pair !== undefined,
  };

  await chainChaos?.prepare(world);
  const started = performance.now();
  let finished = false;
  // Clients arrive over a second or two rather than all in the same millisecond.
  const users = Promise.all(
    Array.from({ length: clients }, (_, n) => Bun.sleep(n * 10).then(() => userLoop(world, n))),
  ).finally(() => (finished = true));
  const admins = Promise.all([adminLoop(world, adminToken, () => finished), adminLoop(world, adminToken, () => finished)]);
  const chainTransfers = chainChaos?.run(world, () => finished);
  let recoveredIn: number | undefined;
  const failover = (async () => {
    if (!pair) return;
    const total = Number(values.ops);
    while (!finished && total - world.budget.left < total * 0.4) await Bun.sleep(20);
    if (finished) return;
    pair.killPrimary();
    // As a failover manager would: noticed and promoted a moment later.
    await Bun.sleep(500 + world.rand() * 1000);
    pair.promote();
    const promotedAt = performance.now();
    // Every server answers a read on its read lane and one on its pool.
    for (const server of servers) {
      for (;;) {
        const [me, pending] = await Promise.all([call(server.url, "GET", "/auth", adminToken), call(server.url, "GET", "/admin/deposits?status=pending&limit=1", adminToken)]);
        if (me.kind === "answered" && me.status === 200 && pending.kind === "answered" && pending.status === 200) break;
        if (performance.now() - promotedAt > 60_000) break;
        await Bun.sleep(50);
      }
    }
    recoveredIn = (performance.now() - promotedAt) / 1000;
  })();
  const killer = (async () => {
    const total = Number(values.ops);
    for (let k = 0; k < kills && !finished; k++) {
      // Kill when roughly (k+1)/(kills+1) of the budget is spent, plus some jitter.
      const mark = total * ((k + 1) / (kills + 1)) * (0.8 + world.rand() * 0.4);
      while (!finished && total - world.budget.left < mark) await Bun.sleep(20);
      // Not while the database fails over: the recovery measured is the failover's alone.
      await failover;
      if (finished) break;
      const victim = servers[Math.floor(world.rand() * servers.length)]!;
      await victim.kill();
      await Bun.sleep(200 + world.rand() * 800);
      await victim.start();
      victim.restarts++;
    }
  })();
  await Promise.all([users, admins, killer, chainTransfers, failover]);
  const seconds = (performance.now() - started) / 1000;

  const sql = postgres(checkedUrl(), { max: 2, onnotice: () => {} });
  // The streams get a few seconds to catch up with the last commits, then close.
  const deadline = Date.now() + 10_000;
  const stored = async (userId: string) => (await sql`SELECT count(*)::int AS n FROM notifications WHERE user_id = ${userId}`)[0]!.n as number;
  for (const s of world.streams) while (Date.now() < deadline && new Set(s.record.received).size < (await stored(s.record.userId))) await Bun.sleep(100);
  await Promise.all(world.streams.map((s) => s.close()));
  const streams = world.streams.map((s) => s.record);
  const violations = [...(chainChaos ? await chainChaos.verify(sql) : []), ...(await verify(sql, world.journal, streams))];
  if (pair && recoveredIn === undefined) violations.push("the failover never happened: the workload ended first (raise --ops)");
  if (recoveredIn !== undefined && recoveredIn > FAILOVER_RECOVERY_S) violations.push(`the servers served again ${recoveredIn.toFixed(1)} s after the promotion (at most ${FAILOVER_RECOVERY_S} s)`);
  const [counts] = await sql`SELECT (SELECT count(*) FROM transfers)::int AS transfers, (SELECT count(*) FROM users)::int AS users`;
  await sql.end();

  const restarts = servers.reduce((n, s) => n + s.restarts, 0);
  console.log(
    `chaos: ${world.journal.ops} operations from ${clients} clients on ${servers.length} server process(es) in ${seconds.toFixed(1)} s; ` +
      `${restarts} restart(s) after SIGKILL survived; ${world.journal.lost} calls lost in kills; ${counts?.users} users, ${counts?.transfers} transfers; seed ${values.seed}`,
  );
  const received = streams.reduce((n, s) => n + s.received.length, 0);
  const connects = streams.reduce((n, s) => n + s.connects, 0);
  console.log(`streams: ${streams.length} clients kept GET /api/user/events open; ${connects} connections (${connects - streams.length} reconnects with Last-Event-ID); ${received} notifications received`);
  if (chainChaos) console.log(chainChaos.summary());
  if (pair) console.log(`failover: primary killed, standby promoted; every server served again ${recoveredIn?.toFixed(1)} s after the promotion; ${world.journal.unavailable} answers were 503 database_unavailable meanwhile`);
  console.log(`violations found: ${violations.length}`);
  for (const v of violations) console.log(`  - ${v}`);
  exitCode = violations.length === 0 ? 0 : 1;
} finally {
  for (const s of servers) await s.stop().catch(() => {});
  await chainChaos?.stop().catch(() => {});
  if (!pair) await adminSql.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
  await adminSql.end({ timeout: 1 });
  await pair?.stop();
}
process.exit(exitCode);
