/**
 * Purchase, GET /api/auth and sign-up latency on a big referral tree against a 10-user tree.
 *
 *   bun bench/purchase.ts            (Postgres at BENCH_DATABASE_URL, default 127.0.0.1:5432)
 *   bun bench/purchase.ts --signups  (the sign-up figures only, on a 10,000-deep chain: what
 *                                     bench/http.ts runs for its summary)
 *
 * Sign-ups: one at a time 10,000 deep against near the root (depth 10) of the same tree,
 * alternately; then 16 at once under members spread over the whole line against the same number
 * one at a time (sign-ups that queued on one row would gain nothing from running at once).
 *
 * Creates two databases, loads them with SQL, times requests through the real app in-process
 * (app.request: routing, auth, validation, one transaction on Postgres), and drops them.
 * Each timed purchase is the same purchase: the rows it changed are reset, untimed, before the
 * next one.
 */
import { cpus, loadavg } from "node:os";
import postgres from "postgres";
import { EXTERNAL, transfer } from "../src/core/ledger";
import { firstEligibleAbove } from "../src/core/receiver";
import { argon2Hasher } from "../src/core/sessions";
import { teamWithSql } from "../src/core/teams";
import { inTransaction } from "../src/core/tx";
import { openDatabase } from "../src/db/client";
import { migrate } from "../src/db/migrate";
import { seed } from "../src/db/seed";
import { createApp } from "../src/server/app";
import { loadConfig } from "../src/server/config";
import { issueToken } from "../src/server/tokens";
import { loadTree, type TreeSpec } from "./tree";

const BASE = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const SECRET = "bench-secret-that-is-long-enough-for-hs256";
const RUNS = Number(process.env.BENCH_RUNS ?? 60);
const WARMUP = 5;
/** Sign-ups at once in the concurrent sign-up figure. */
const CONCURRENT = 16;

const withDb = (name: string) => Object.assign(new URL(BASE), { pathname: `/${name}` }).toString();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!;

async function world(name: string, spec: TreeSpec) {
  const server = postgres(BASE, { max: 1, onnotice: () => {} });
  await server.unsafe(`DROP DATABASE IF EXISTS ${name}`);
  await server.unsafe(`CREATE DATABASE ${name}`);
  const database = await openDatabase({ databaseUrl: withDb(name), max: 10 });
  const hasher = argon2Hasher({ memoryCost: 1024, timeCost: 1 });
  await migrate(database);
  await seed(database.db, { adminEmail: "admin@bench.local", adminPassword: "bench-password", hasher });
  const pg = postgres(withDb(name), { max: 1, onnotice: () => {} });
  const [admin] = await pg<{ id: string }[]>`SELECT id FROM users WHERE role = 'admin'`;
  const started = performance.now();
  const tree = await loadTree(pg, admin!.id, spec, await hasher.hash("bench-password"));
  const [{ n }] = (await pg`SELECT count(*)::int AS n FROM users`) as unknown as [{ n: number }];
  const [team] = await pg<{ total: number }[]>`SELECT ${pg.unsafe(teamWithSql("u.chain_id", "u.depth"))} - 1 AS total FROM users u WHERE u.id = ${admin!.id}`;
  if (team?.total !== n - 1) throw new Error(`admin team ${team?.total}, expected ${n - 1}`);
  console.log(`${name}: ${n} users loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  // No sign-up limit: the bench signs up 50 users from one (in-process) address within seconds,
  // 16 at once (no cap on one address's passwords hashed at once either).
  const app = createApp({ db: database.db, config: loadConfig({ SIGNUP_LIMIT: "0", LOGIN_CHECKS_PER_SOURCE: "0" }), hasher, jwtSecret: SECRET });

  const fund = (id: string, dollars: number) =>
    inTransaction(database.db, (tx) => transfer(tx, { from: EXTERNAL, to: id, amount: BigInt(dollars * 100), kind: "deposit" }));
  const token = (id: string) => issueToken(SECRET, id);
  async function timed(method: string, path: string, tok: string): Promise<number> {
    const t = performance.now();
    const res = await app.request(path, { method, headers: { "x-auth-token": tok } });
    await res.text();
    const ms = performance.now() - t;
    if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}`);
    return ms;
  }
  /** A sign-up under `referrerId` (argon2 at the cheap bench cost, so the tree's share shows). */
  let signUps = 0;
  const referralIds = new Map<string, string>();
  async function signUp(referrerId: string): Promise<number> {
    let referralId = referralIds.get(referrerId);
    if (!referralId) {
      const [ref] = await pg<{ referral_id: string }[]>`SELECT referral_id FROM users WHERE id = ${referrerId}`;
      referralIds.set(referrerId, (referralId = ref!.referral_id));
    }
    const body = JSON.stringify({ name: "Bench Signup", email: `signup${signUps++}@bench.local`, password: "bench-password", referralId });
    const t = performance.now();
    const res = await app.request("/api/auth/register", { method: "POST", headers: { "content-type": "application/json" }, body });
    await res.text();
    const ms = performance.now() - t;
    if (res.status !== 201) throw new Error(`register answered ${res.status}`);
    return ms;
  }
  async function close() {
    await pg.end();
    await database.close();
    // FORCE: work the app left running in the background (a chain takeover after a sign-up) may
    // still hold a connection when a step failed; the drop must not hide that step's error.
    await server.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await server.end();
  }
  return { db: database.db, pg, tree, adminId: admin!.id, fund, token, timed, signUp, close };
}
type World = Awaited<ReturnType<typeof world>>;

type Once = () => Promise<number>;

/** Times `a` and `b` alternately (so load drift hits both alike) after a warm-up of each. */
async function compare(a: Once, b: Once, runs = RUNS): Promise<[number[], number[]]> {
  for (let i = 0; i < WARMUP; i++) {
    await a();
    await b();
  }
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < runs; i++) {
    ta.push(await a());
    tb.push(await b());
  }
  return [ta, tb];
}

/** The same purchase again and again: `reset` (untimed) puts back what the previous one changed. */
async function purchase(w: World, buyer: string, level: number, reset: () => Promise<unknown>): Promise<Once> {
  const tok = await w.token(buyer);
  return async () => {
    await reset();
    return w.timed("POST", `/api/user/packages/purchase/3p/${level}`, tok);
  };
}

/** Two purchases by the user at the bottom of a line (the chain or the comb), compared across trees. */
async function lineBuyer(w: World, line: string[]) {
  const buyer = line.at(-1)!;
  const above = line.at(-2)!;
  await w.fund(buyer, 100_000);
  await w.pg`INSERT INTO user_levels (user_id, program, level, status, chain_id, depth)
    SELECT id, '3p', 1, 'active', chain_id, depth FROM users WHERE id = ${above}`;
  return {
    // Typical: the direct referrer is eligible and takes slot 1 (a one-step walk).
    referrerReceives: () =>
      purchase(w, buyer, 1, () =>
        w.pg.begin((t) => [
          t`DELETE FROM user_levels WHERE user_id = ${buyer} AND program = '3p' AND level = 1`,
          t`UPDATE user_levels SET slots = '{}', cycles = 0, status = 'active' WHERE user_id = ${above} AND program = '3p' AND level = 1`,
        ]),
      ),
    // Worst case: nobody above has level 2, so the walk crosses the whole chain to `system`.
    walkToSystem: async () => {
      await w.pg`INSERT INTO user_levels (user_id, program, level, status, chain_id, depth)
        SELECT id, '3p', 1, 'active', chain_id, depth FROM users WHERE id = ${buyer} ON CONFLICT DO NOTHING`;
      return purchase(w, buyer, 2, () => w.pg`DELETE FROM user_levels WHERE user_id = ${buyer} AND program = '3p' AND level = 2`);
    },
    /**
     * Nobody above has `level` active, and `count` of the ancestors, spread evenly over the line,
     * have it frozen: the walk to `system` passes them by, and each gets a missed earning
     * (docs/rules.md#missed-earnings). Run after walkToSystem (the buyer holds level 2).
     */
    walkPastFrozen: async (level: number, count: number) => {
      const ancestors = line.slice(0, -1);
      const every = Math.floor(ancestors.length / count);
      const frozen = Array.from({ length: count }, (_, i) => ancestors[ancestors.length - 1 - i * every]!);
      await w.pg`INSERT INTO user_levels (user_id, program, level, status, chain_id, depth)
        SELECT id, '3p', l, 'active', chain_id, depth FROM users, generate_series(1, ${level - 1}) l WHERE id = ${buyer} ON CONFLICT DO NOTHING`;
      await w.pg`INSERT INTO user_levels (user_id, program, level, status, cycles, chain_id, depth)
        SELECT id, '3p', ${level}, 'frozen', 2, chain_id, depth FROM users WHERE id IN ${w.pg(frozen)}`;
      return purchase(w, buyer, level, () =>
        w.pg.begin((t) => [
          t`DELETE FROM user_levels WHERE user_id = ${buyer} AND program = '3p' AND level = ${level}`,
          t`DELETE FROM missed_earnings WHERE buyer_id = ${buyer} AND program = '3p' AND level = ${level}`,
        ]),
      );
    },
    /**
     * The scenarios did what they claim: level 1 paid the referrer in one step, levels 2 and up
     * reached system, and the last purchase of each walkPastFrozen level recorded one missed
     * earning for each frozen user (its reset deletes the earlier ones).
     */
    async verify(runs: { referrerReceives: number; walkToSystem: number; pastFrozen?: Record<number, { runs: number; frozen: number }> }) {
      const steps = await w.pg<{ level: number; owner_id: string | null; outcome: string; n: number }[]>`
        SELECT level, owner_id, outcome, count(*)::int AS n FROM placements WHERE buyer_id = ${buyer} GROUP BY 1, 2, 3 ORDER BY 1`;
      const pastFrozen = Object.entries(runs.pastFrozen ?? {}).map(([level, r]) => ({ level: Number(level), ...r }));
      const expected = [
        { level: 1, owner_id: above, outcome: "paid", n: runs.referrerReceives },
        { level: 2, owner_id: null, outcome: "system", n: runs.walkToSystem },
        ...pastFrozen.map((f) => ({ level: f.level, owner_id: null, outcome: "system", n: f.runs })),
      ].filter((e) => e.n > 0);
      if (JSON.stringify(steps) !== JSON.stringify(expected)) throw new Error(`unexpected placements: ${JSON.stringify(steps)}`);
      for (const f of pastFrozen) {
        const [missed] = await w.pg<{ n: number }[]>`
          SELECT count(*)::int AS n FROM missed_earnings WHERE buyer_id = ${buyer} AND level = ${f.level} AND reason = 'frozen'`;
        if (missed!.n !== f.frozen) throw new Error(`level ${f.level}: ${missed!.n} missed earnings, expected ${f.frozen}`);
      }
    },
  };
}

/** Fresh leaves of the random tree buying 3P level 1 once each, as real traffic would. */
async function bushyPurchases(w: World) {
  const buyers = w.tree.leaves.slice(0, WARMUP + RUNS);
  for (const b of buyers) await w.fund(b, 10);
  const times: number[] = [];
  for (const [i, b] of buyers.entries()) {
    await w.pg`DELETE FROM user_levels WHERE user_id = ${b}`;
    const ms = await w.timed("POST", "/api/user/packages/purchase/3p/1", await w.token(b));
    if (i >= WARMUP) times.push(ms);
  }
  return times;
}

async function auth(w: World, userId: string): Promise<Once> {
  const tok = await w.token(userId);
  return () => w.timed("GET", "/api/auth", tok);
}

const fmt = (xs: number[]) => `median ${median(xs).toFixed(2)} ms, p95 ${p95(xs).toFixed(2)} ms`;
const ratio = (a: number[], b: number[]) => `${(median(a) / median(b)).toFixed(2)}x`;

/**
 * Sign-ups in `w` under the member at depth 10 of its chain against under the bottom of the chain
 * (one at a time, alternately), then `CONCURRENT` at once under members spread over the chain
 * against as many one at a time.
 */
async function signUps(w: World) {
  const line = w.tree.chain;
  const [nearRoot, deep] = await compare(() => w.signUp(line[9]!), () => w.signUp(line.at(-1)!), 20);
  const spread = (i: number) => line[Math.floor(((i * 7919) % line.length))]!;
  const batch = CONCURRENT * 8;
  let next = 0;
  const oneByOne = async () => {
    const t = performance.now();
    for (let i = 0; i < batch; i++) await w.signUp(spread(next++));
    return (batch / (performance.now() - t)) * 1000;
  };
  const atOnce = async () => {
    const t = performance.now();
    await Promise.all(Array.from({ length: CONCURRENT }, async () => {
      for (let i = 0; i < batch / CONCURRENT; i++) await w.signUp(spread(next++));
    }));
    return (batch / (performance.now() - t)) * 1000;
  };
  const [sequential, concurrent] = await compare(oneByOne, atOnce, 3);
  return { nearRoot, deep, sequential, concurrent };
}

function printSignUps(r: Awaited<ReturnType<typeof signUps>>) {
  console.log(`POST /api/auth/register (20 timed runs each, alternately; argon2 at the cheap test cost, so the tree's share shows)`);
  console.log(`  near the root (depth 10), 10,000-deep chain:  ${fmt(r.nearRoot)}`);
  console.log(`  under its bottom (depth 10,000):              ${fmt(r.deep)}   (${ratio(r.deep, r.nearRoot)} near the root; target 3x)`);
  console.log(`  ${CONCURRENT} at once, spread over the line:           ${median(r.concurrent).toFixed(0)}/s against ${median(r.sequential).toFixed(0)}/s one at a time (${(median(r.concurrent) / median(r.sequential)).toFixed(2)}x)`);
  console.log(`SIGNUP_SUMMARY ${JSON.stringify({ nearRoot: median(r.nearRoot), deep: median(r.deep), concurrent: median(r.concurrent), sequential: median(r.sequential) })}`);
}

if (process.argv.includes("--signups")) {
  const line = await world(`bench_signups_${process.pid}`, { chain: 10_000, comb: 0, bushy: 0, activeShare: 0 });
  try {
    console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(" ")} on ${cpus().length} CPUs`);
    printSignUps(await signUps(line));
  } finally {
    await line.close();
  }
  process.exit(0);
}

const small = await world(`bench_small_${process.pid}`, { chain: 10, comb: 10, bushy: 0, activeShare: 0 });
const large = await world(`bench_large_${process.pid}`, { chain: 10_000, comb: 10_000, bushy: 70_000, activeShare: 0.3 });
try {
  const [sb, lb] = [await lineBuyer(small, small.tree.chain), await lineBuyer(large, large.tree.chain)];
  const [smallDirect, largeDirect] = await compare(await sb.referrerReceives(), await lb.referrerReceives());
  const [smallWalk, largeWalk] = await compare(await sb.walkToSystem(), await lb.walkToSystem());
  // The same 5 frozen users passed by on the way to system: 5 of the 9 ancestors, or 5 spread
  // over the 9,999. Then 1,000 of them, 10,000 deep: one missed earning written for each.
  const [smallFrozen, largeFrozen] = await compare(await sb.walkPastFrozen(3, 5), await lb.walkPastFrozen(3, 5));
  const manyFrozen = await lb.walkPastFrozen(4, 1_000);
  for (let i = 0; i < WARMUP; i++) await manyFrozen();
  const largeManyFrozen: number[] = [];
  for (let i = 0; i < RUNS; i++) largeManyFrozen.push(await manyFrozen());
  const [sc, lc] = [await lineBuyer(small, small.tree.comb), await lineBuyer(large, large.tree.comb)];
  const [smallComb, largeComb] = await compare(await sc.walkToSystem(), await lc.walkToSystem());
  const n = WARMUP + RUNS;
  await sb.verify({ referrerReceives: n, walkToSystem: n, pastFrozen: { 3: { runs: n, frozen: 5 } } });
  await lb.verify({ referrerReceives: n, walkToSystem: n, pastFrozen: { 3: { runs: n, frozen: 5 }, 4: { runs: n, frozen: 1_000 } } });
  for (const b of [sc, lc]) await b.verify({ referrerReceives: 0, walkToSystem: n });
  // The walk alone (one query, no HTTP, no transaction), where no one above is eligible.
  const walk = (w: World, line: string[]): Once => async () => {
    const t = performance.now();
    if ((await firstEligibleAbove(w.db, line.at(-1)!, "3p", 2)) !== null) throw new Error("the walk found a receiver");
    return performance.now() - t;
  };
  const [smallWalkSql, largeWalkSql] = await compare(walk(small, small.tree.chain), walk(large, large.tree.chain));
  const [smallCombSql, largeCombSql] = await compare(walk(small, small.tree.comb), walk(large, large.tree.comb));
  const bushy = await bushyPurchases(large);
  const [smallAuth, largeAuthDeep] = await compare(await auth(small, small.tree.chain.at(-1)!), await auth(large, large.tree.chain.at(-1)!), 4 * RUNS);
  const [, largeAuthAdmin] = await compare(await auth(small, small.adminId), await auth(large, large.adminId), 4 * RUNS);
  // Sign-ups: team sizes (teams.ts) and the chain rebalancing (chains.ts), near the root and deep.
  const signUpFigures = await signUps(large);

  console.log(`\nload average ${loadavg().map((l) => l.toFixed(1)).join(" ")} on ${cpus().length} CPUs`);
  console.log(`POST /api/user/packages/purchase (${RUNS} timed runs each, in-process app, Postgres over TCP)`);
  console.log(`  referrer receives, 10-user chain:         ${fmt(smallDirect)}`);
  console.log(`  referrer receives, 10,000-deep chain:     ${fmt(largeDirect)}   (${ratio(largeDirect, smallDirect)} the 10-user tree)`);
  console.log(`  walk to system, 10-user chain:            ${fmt(smallWalk)}`);
  console.log(`  walk to system, 10,000-deep chain:        ${fmt(largeWalk)}   (${ratio(largeWalk, smallWalk)} the 10-user tree)`);
  console.log(`  of which the walk query, 10 / 10,000 ancestors: ${median(smallWalkSql).toFixed(2)} ms / ${median(largeWalkSql).toFixed(2)} ms`);
  console.log(`  walk past 5 frozen users, 10-user chain:  ${fmt(smallFrozen)}`);
  console.log(`  walk past 5 frozen users spread over the 10,000-deep chain: ${fmt(largeFrozen)}   (${ratio(largeFrozen, smallFrozen)} the 10-user tree)`);
  console.log(
    `  walk past 1,000 frozen users, 10,000-deep chain: ${fmt(largeManyFrozen)}   (${(((median(largeManyFrozen) - median(largeWalk)) / 1_000) * 1_000).toFixed(1)} us a missed earning more than no frozen user)`,
  );
  console.log(`  walk to system, comb 10 deep:             ${fmt(smallComb)}`);
  console.log(`  walk to system, comb 10,000 deep:         ${fmt(largeComb)}   (${ratio(largeComb, smallComb)} the 10-deep comb)`);
  console.log(`  of which the walk query, comb 10 / 10,000 deep: ${median(smallCombSql).toFixed(2)} ms / ${median(largeCombSql).toFixed(2)} ms`);
  console.log(`  random leaves, 100,000-user tree:         ${fmt(bushy)}   (${ratio(bushy, smallDirect)} the 10-user tree's referrer case)`);
  console.log(`GET /api/auth (${4 * RUNS} timed runs each)`);
  console.log(`  10-user tree, deepest user:               ${fmt(smallAuth)}`);
  console.log(`  100,000 users, user 10,000 deep:          ${fmt(largeAuthDeep)}`);
  console.log(`  100,000 users, admin (team of 100,000):   ${fmt(largeAuthAdmin)}`);
  printSignUps(signUpFigures);
} finally {
  await small.close();
  await large.close();
}
