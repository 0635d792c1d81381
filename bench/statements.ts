/**
 * What the statements of a purchase and of GET /api/auth cost Postgres, in instructions:
 *
 *   bun bench/statements.ts [--functions N]   (N: the functions each statement spends most in)
 *                           [--self]       (with --functions: their own instructions, not inclusive)
 *                           [--keep DIR]   (the recorded statements, DIR/statements.json, and the
 *                                 copy they run on, DIR/cluster: bench/variant.ts measures edited
 *                                 versions of them there)
 *                           [--prototype FILE] (the keyed purchase as one call of a PL/pgSQL
 *                                 function FILE creates: bench/prototypes/purchase-function.sql)
 *                                 (valgrind and the Postgres server binaries on the machine:
 *                                 `apt-get install -y valgrind postgresql`; PG_BIN=dir to pick them)
 *
 * Timings on a shared 2-CPU machine move by 10 to 40% between identical runs, so an improvement
 * of a few percent cannot be seen in requests a second. Instructions counted by callgrind are the
 * same to a few hundredths of a percent run after run: this is the figure to judge a statement's
 * change by (bench/http.ts still says what it is worth in requests a second).
 *
 * How: a scratch cluster of its own (initdb in a temporary folder, its own port), migrated and
 * seeded by the app's code, with a random tree of 500 members (half of them holding 3P level 1)
 * and two funded leaves; the cluster is copied as it is. Then one purchase with an Idempotency-Key
 * (3P level 1, the first leaf), one GET /api/auth, and the second leaf's purchase, which takes the
 * last slot of its receiver's matrix and so passes up (a further walk, the missed earnings the
 * walks met, the writes of two steps), go through the real app, on a postgres.js client
 * that records every statement with its parameters. Each recorded statement then runs in
 * `postgres --single` on the copy (the state before the purchase) under callgrind: prepared, on
 * its generic plan as the server runs it, K times in a transaction rolled back each time, less
 * the same with `SELECT 1` in place of the statement, and less the same with K smaller: what one
 * execution of the statement itself costs. A statement that needs an earlier one of its
 * transaction runs here without it (the money statement without the activation's row): the same
 * plan, nearly the same work.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import { EXTERNAL, transfer } from "../src/core/ledger";
import { firstEligibleAbove } from "../src/core/receiver";
import { argon2Hasher } from "../src/core/sessions";
import { inTransaction } from "../src/core/tx";
import { openDatabase, type Db } from "../src/db/client";
import { migrate } from "../src/db/migrate";
import { seed } from "../src/db/seed";
import { createApp } from "../src/server/app";
import { loadConfig } from "../src/server/config";
import { issueToken } from "../src/server/tokens";
import { BIN, counter, literal, own, run } from "./callgrind";
import { loadTree } from "./tree";

const SECRET = "bench-statements-secret-that-is-long-enough";

async function freePort(): Promise<number> {
  const probe = Bun.serve({ port: 0, fetch: () => new Response() });
  const port = probe.port!;
  await probe.stop(true);
  return port;
}

const work = mkdtempSync(join(tmpdir(), "bench-statements-"));
own(work);
const data = join(work, "data");
const before = join(work, "before");
const port = await freePort();
const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
const pgctl = (action: "start" | "stop", dir = data) =>
  run([join(BIN, "pg_ctl"), "-D", dir, "-w", "-l", join(work, "log"), ...(action === "start" ? ["-o", `-p ${port} -k ${work} -c listen_addresses=127.0.0.1`] : []), action]);

/**
 * `--functions N`: under each statement, the N functions its one execution spends most in,
 * inclusive (what they and the functions they call cost); with `--self`, exclusive (what their
 * own code costs: where the instructions go, rather than which call leads to them).
 */
const FUNCTIONS = (() => {
  const at = process.argv.indexOf("--functions");
  return at < 0 ? 0 : Number(process.argv[at + 1] ?? 20);
})();

/**
 * `--prototype FILE`: after the figures, the purchase as one call of the function `proto_purchase`
 * that FILE creates (statements separated by blank lines), with the recorded purchase's values,
 * measured the same way on the same copy, after the product's statements (their rolled-back runs
 * leave dead rows behind, which can only make the call dearer). Not the product's code: a figure
 * for deciding whether to move the purchase into the database
 * (bench/RESULTS.md#instructions-per-statement).
 */
const PROTOTYPE = (() => {
  const at = process.argv.indexOf("--prototype");
  return at < 0 ? undefined : process.argv[at + 1];
})();

const SELF = process.argv.includes("--self");

/** `--keep DIR`: what bench/variant.ts needs, kept there (see the head of this file). */
const KEEP = (() => {
  const at = process.argv.indexOf("--keep");
  return at < 0 ? undefined : process.argv[at + 1];
})();

const { instructions, perExecution } = counter(before, work, SELF);

/** A small PRNG (mulberry32): the same tree, so the same walk and statements, every run. */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Recorded {
  text: string;
  params: unknown[];
}

let exitCode = 1;
try {
  run([join(BIN, "initdb"), "-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
  pgctl("start");
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  const hasher = argon2Hasher({ memoryCost: 1024, timeCost: 1 });
  const database = await openDatabase({ databaseUrl: url, max: 4 });
  const setup = database.db;
  await migrate(database);
  await seed(setup, { adminEmail: "admin@bench.local", adminPassword: "bench-password", hasher });
  const [{ id: adminId }] = (await admin`SELECT id FROM users WHERE role = 'admin'`) as unknown as [{ id: string }];
  const tree = await loadTree(admin, adminId, { chain: 0, comb: 0, bushy: 500, activeShare: 0.5 }, await hasher.hash("bench-password"), seeded(0x5eed));
  // A leaf without 3P level 1, under uplines of whom about half hold it: the walk goes up a few.
  const [{ id: buyer }] = (await admin`SELECT id FROM users u WHERE id IN ${admin(tree.leaves)}
    AND NOT EXISTS (SELECT 1 FROM user_levels l WHERE l.user_id = u.id) ORDER BY depth DESC LIMIT 1`) as unknown as [{ id: string }];
  await inTransaction(setup, (tx) => transfer(tx, { from: EXTERNAL, to: buyer, amount: 100_000n, kind: "deposit" }));
  // A second such leaf whose receiver, another than the first leaf's, has two of its three slots
  // taken: this leaf's purchase takes the last one, which completes the cycle and passes the cost
  // up to the receiver's own receiver (a purchase of two steps, a third of all purchases).
  const firstReceiver = await firstEligibleAbove(setup, buyer, "3p", 1);
  const [passing] = (
    await Promise.all(
      (
        (await admin`SELECT id FROM users u WHERE id IN ${admin(tree.leaves)} AND id <> ${buyer}
          AND NOT EXISTS (SELECT 1 FROM user_levels l WHERE l.user_id = u.id) ORDER BY depth DESC LIMIT 50`) as unknown as { id: string }[]
      ).map(async ({ id }) => ({ id, receiver: await firstEligibleAbove(setup, id, "3p", 1) })),
    )
  ).filter((leaf) => leaf.receiver !== null && leaf.receiver !== firstReceiver);
  if (!passing) throw new Error("the tree has no second leaf with a receiver of its own");
  const takenBy = tree.leaves.filter((id) => id !== buyer && id !== passing.id).slice(0, 2);
  await admin`UPDATE user_levels SET slots = ${takenBy} WHERE user_id = ${passing.receiver} AND program = '3p' AND level = 1`;
  await inTransaction(setup, (tx) => transfer(tx, { from: EXTERNAL, to: passing.id, amount: 100_000n, kind: "deposit" }));
  await admin.unsafe("VACUUM ANALYZE");
  await admin.end();
  await database.close();
  pgctl("stop");
  cpSync(data, before, { recursive: true });
  own(before);
  pgctl("start");

  // The app on a client that records what it sends.
  let recording: Recorded[] | undefined;
  const client = postgres(url, {
    max: 2,
    onnotice: () => {},
    connection: { plan_cache_mode: "force_generic_plan", random_page_cost: "1.1" },
    debug: (_connection, text, params) => void recording?.push({ text, params }),
  });
  const app = createApp({ db: drizzle(client) as unknown as Db, config: loadConfig({ SIGNUP_LIMIT: "0" }), hasher, jwtSecret: SECRET });
  const token = await issueToken(SECRET, buyer);
  const request = async (method: string, path: string, headers: Record<string, string> = {}, as = token) => {
    recording = [];
    const res = await app.request(path, { method, headers: { "x-auth-token": as, ...headers } });
    const body = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status} ${body}`);
    await Bun.sleep(100); // the live events' publish, after the commit, is not the request's
    // Not the request's: the live events' publish after the commit, postgres.js's look at the
    // array types when it opens a connection, and the sweep of old keys that one keyed call in a
    // hundred makes after its answer.
    const made = recording.filter((r) => !/pg_notify|pg_catalog\.pg_type|^delete from "idempotency_keys"/.test(r.text));
    recording = undefined;
    return made;
  };
  const key = crypto.randomUUID();
  const purchase = await request("POST", "/api/user/packages/purchase/3p/1", { "Idempotency-Key": key });
  const auth = await request("GET", "/api/auth");
  const passedUp = await request("POST", "/api/user/packages/purchase/3p/1", { "Idempotency-Key": crypto.randomUUID() }, await issueToken(SECRET, passing.id));
  await client.end();
  pgctl("stop");
  if (KEEP) {
    mkdirSync(KEEP, { recursive: true });
    const json = (value: unknown) => JSON.stringify(value, (_key, v) => (typeof v === "bigint" ? v.toString() : v), 1);
    writeFileSync(join(KEEP, "statements.json"), json({ purchase, auth, passedUp }));
    rmSync(join(KEEP, "cluster"), { recursive: true, force: true });
    cpSync(before, join(KEEP, "cluster"), { recursive: true });
  }

  console.log(`bench/statements.ts, ${new Date().toISOString().slice(0, 10)}: instructions per execution (callgrind, postgres --single, ${BIN})`);
  for (const [what, statements] of [
    ["POST /api/user/packages/purchase/3p/1 with an Idempotency-Key (the token check, then its transaction)", purchase],
    ["GET /api/auth", auth],
    ["The same purchase by another leaf, passed up: it takes the last slot of its receiver's matrix, and the cost goes one matrix up", passedUp],
  ] as const) {
    console.log(`\n${what}`);
    let total = 0;
    for (const { text, params } of statements) {
      const name = text.replace(/\s+/g, " ").trim().slice(0, 70);
      if (/^(begin|commit)\b/i.test(text.trim())) {
        console.log(`  ${"(transaction)".padStart(12)}  ${name}`);
        continue;
      }
      const functions = FUNCTIONS > 0 ? new Map<string, number>() : undefined;
      const cost = Math.max(0, perExecution(text, params, functions));
      total += cost;
      console.log(`  ${Math.round(cost).toLocaleString("en-US").padStart(12)}  ${name}`);
      const top = [...(functions ?? [])].sort((a, b) => b[1] - a[1]).slice(0, FUNCTIONS);
      for (const [fn, n] of top) console.log(`  ${"".padStart(12)}  ${Math.round(n).toLocaleString("en-US").padStart(10)}  ${fn}`);
    }
    console.log(`  ${Math.round(total).toLocaleString("en-US").padStart(12)}  in all, besides the transactions' own begin and end`);
  }
  if (PROTOTYPE) {
    const statements = readFileSync(PROTOTYPE, "utf8")
      .split(/\n\s*\n/)
      .filter((part) => part.split("\n").some((line) => line.trim() !== "" && !line.trim().startsWith("--")));
    for (const statement of statements) instructions([statement]);
    const params = purchase.flatMap((r) => r.params);
    const find = (what: string, test: (value: string) => boolean) => {
      const found = params.find((p): p is string => typeof p === "string" && test(p));
      if (found === undefined) throw new Error(`--prototype: the purchase's statements hold no ${what}`);
      return found;
    };
    const notes = JSON.parse(find("notification list", (p) => p.startsWith('[{"u":'))) as { t: string }[];
    const args = [
      "on", buyer, key, find("request hash", (p) => /^[0-9a-f]{64}$/.test(p)), 200, find("kept answer", (p) => p.startsWith('{"msg"')), "3p", 1, null,
      find("balance event", (p) => p.startsWith('{"t":"b"')), notes[0]!.t,
    ];
    const call = "SELECT proto_purchase($1::text, $2::text, $3::text, $4::text, $5::smallint, $6::text, $7::text, $8::int, $9::bigint, $10::text, $11::text)";
    const answer = run([join(BIN, "postgres"), "--single", "-j", "-D", before, "postgres"], new Blob([`BEGIN DEFERRABLE;\n\n${call.replace(/\$(\d+)/g, (_, i) => literal(args[Number(i) - 1]))};\n\nROLLBACK;\n\n`]));
    const transferId = /proto_purchase = "(\d+)"/.exec(answer)?.[1];
    if (!transferId) throw new Error(`the prototype did not make the purchase:\n${answer.split("\n").filter((l) => /proto_purchase =|ERROR/.test(l)).join("\n")}`);
    const product = purchase.filter((r) => !/^(begin|commit)\b/i.test(r.text.trim()) && !r.text.includes("ask.ord")).reduce((n, r) => n + perExecution(r.text, r.params), 0);
    const prototype = perExecution(call, args);
    console.log(`\nThe same purchase's transaction as one call of ${PROTOTYPE} (a prototype; it answered transfer ${transferId})`);
    console.log(`  ${Math.round(prototype).toLocaleString("en-US").padStart(12)}  SELECT proto_purchase(...)`);
    console.log(`  ${Math.round(product).toLocaleString("en-US").padStart(12)}  the product's statements of that transaction, measured again after the figures above (${(prototype / product).toFixed(2)}x)`);
  }
  exitCode = 0;
} catch (error) {
  console.error(error);
  try {
    pgctl("stop");
  } catch {
    // not running
  }
} finally {
  rmSync(work, { recursive: true, force: true });
  process.exit(exitCode);
}
