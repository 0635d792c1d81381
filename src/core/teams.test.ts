import { expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { rowsOf, type Database } from "../db/client";
import { users } from "../db/schema";
import { onPostgres } from "../testing/db";
import { adminIdOf, joinUnder, run } from "../testing/domain";
import { expectTreeInvariants } from "../testing/invariants";
import { useDatabase } from "../testing/useHarness";
import { teamWithSql } from "./teams";
import { currentUser, deleteUser } from "./users";

// docs/rules.md#teams: team sizes from team_sums (teams.ts) against the slow count of the tree
// (src/testing/treeChecks.ts wrongTeamSizes), which the harness also checks after every test.
let database: Database;
useDatabase((made) => (database = made));

const chainOf = async (id: string) => (await database.db.select({ c: users.chainId }).from(users).where(eq(users.id, id)))[0]!.c;
const teamOf = async (id: string) => (await currentUser(database.db, id)).totalPartners;

/** A small deterministic generator, so a failure can be replayed. */
function numbers(seed: number) {
  let s = seed;
  return (below: number) => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s % below;
  };
}

test("team sizes stay exact through random sign-ups, deletions and chain takeovers", async () => {
  const next = numbers(20261126);
  const admin = await adminIdOf(database.db);
  const everyone = [admin];
  const chainAtSignUp = new Map<string, string>();
  const deleted = new Set<string>();
  for (let i = 0; i < 160; i++) {
    // Mostly under recent members (deep, growing branches that outgrow their chain's heir), now
    // and then anywhere.
    const alive = everyone.filter((id) => !deleted.has(id));
    const pool = next(3) === 0 ? alive : alive.slice(-12);
    const id = await joinUnder(database.db, pool[next(pool.length)]!);
    everyone.push(id);
    chainAtSignUp.set(id, await chainOf(id));
    if (i % 17 === 16) {
      const victim = alive[1 + next(alive.length - 1)]!;
      await run(database.db, (tx) => deleteUser(tx, victim));
      deleted.add(victim);
    }
    if (i % 40 === 39) await expectTreeInvariants(database.db);
  }
  let movedByTakeovers = 0;
  for (const [id, chain] of chainAtSignUp) if ((await chainOf(id)) !== chain) movedByTakeovers++;
  expect(movedByTakeovers).toBeGreaterThan(0);
  expect(await teamOf(admin)).toBe(everyone.length - 1 - deleted.size);
});

test("a sign-up far down a line writes a few rows per chain it crosses, not one per upline", async () => {
  const top = await joinUnder(database.db, null);
  let bottom = top;
  for (let i = 0; i < 300; i++) bottom = await joinUnder(database.db, bottom);
  const rowsBefore = Number(rowsOf<{ n: number }>(await database.db.execute(sql`SELECT coalesce(sum(abs(n)), 0) AS n FROM team_sums`))[0]!.n);
  await joinUnder(database.db, bottom);
  const rowsAfter = Number(rowsOf<{ n: number }>(await database.db.execute(sql`SELECT coalesce(sum(abs(n)), 0) AS n FROM team_sums`))[0]!.n);
  // The line is one chain: 1 added on each node of the new user's position, at most log2(302) + 1.
  expect(rowsAfter - rowsBefore).toBeLessThanOrEqual(10);
  expect(await teamOf(top)).toBe(301);
});

test.skipIf(!onPostgres)("sign-ups and deletions all over a deep line, at once, leave every team size exact", async () => {
  const line = [await joinUnder(database.db, null)];
  for (let i = 0; i < 60; i++) line.push(await joinUnder(database.db, line.at(-1)!));
  const branches = await Promise.all(line.filter((_, i) => i % 3 === 0).map((id) => joinUnder(database.db, id)));
  const leaving = await Promise.all(line.filter((_, i) => i % 6 === 1).map((id) => joinUnder(database.db, id)));
  // Sign-ups under members at every depth and under the branches, and deletions, all at once.
  await Promise.all([
    ...line.map((id) => joinUnder(database.db, id)),
    ...branches.map((id) => joinUnder(database.db, id)),
    ...leaving.map((id) => run(database.db, (tx) => deleteUser(tx, id))),
  ]);
  await expectTreeInvariants(database.db);
  expect(await teamOf(line[0]!)).toBe(line.length - 1 + 2 * branches.length + line.length);
});

test("a team size reads its chain's team_sums rows by key, about 30 on a chain 10,000 long and a few on a short one, even on the one plan made for every execution", async () => {
  const { db } = database;
  // A chain as long as a line 10,000 deep (4 shards a node), among many short ones.
  await db.execute(sql`INSERT INTO team_sums (chain_id, node, shard, n) SELECT 'probe-long', g, s, 1 FROM generate_series(1, 10000) g, generate_series(0, 3) s`);
  await db.execute(sql`INSERT INTO team_sums (chain_id, node, shard, n) SELECT 'probe-' || c, g, 0, 1 FROM generate_series(1, 20000) c, generate_series(1, 2) g`);
  try {
    await db.execute(sql`ANALYZE team_sums`);
    const [[plan, value], [shortPlan, shortValue]] = await db.transaction(async (tx) => {
      // The generic plan, the one every prepared statement gets on Postgres (src/db/client.ts).
      await tx.execute(sql`SET LOCAL plan_cache_mode = force_generic_plan`);
      await tx.execute(sql.raw(`PREPARE team_probe(text, integer) AS SELECT ${teamWithSql("$1", "$2")} AS n`));
      // (Constants of this test, written into the text: EXECUTE takes no bound parameters.)
      const probe = async (chain: string, depth: number) => {
        const explained = rowsOf<{ "QUERY PLAN": PlanNode[] }>(await tx.execute(sql`${sql.raw(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE team_probe('${chain}', ${depth})`)}`));
        const [row] = rowsOf<{ n: number }>(await tx.execute(sql.raw(`EXECUTE team_probe('${chain}', ${depth})`)));
        return [explained[0]!["QUERY PLAN"][0]!.Plan!, row!.n] as const;
      };
      const answers = [await probe("probe-long", 5), await probe("probe-7", 0)] as const;
      await tx.execute(sql`DEALLOCATE team_probe`);
      return answers;
    });
    // Nodes 6, 8, 16, ..., 8192 exist (2^31 and the like do not): 12 of them, 4 shards each.
    expect(value).toBe(12 * 4);
    expect(probesOf(plan)).toBe(12);
    // A chain of two positions: nodes 1 and 2, the only ones under its last node.
    expect(shortValue).toBe(2);
    expect(probesOf(shortPlan)).toBe(2);
    for (const scan of [plan, shortPlan].flatMap(nodesOf).filter((node) => node["Relation Name"] === "team_sums")) {
      expect(scan["Rows Removed by Filter"] ?? 0).toBe(0);
      if (scan.Alias === "last") {
        // The chain's last node: one step back along the key, once.
        expect(scan["Index Cond"]).toMatch(/chain_id = /);
        expect(scan["Actual Rows"]! * scan["Actual Loops"]!).toBeLessThanOrEqual(1);
      } else {
        // Both key columns in the index condition; nothing read and thrown away.
        expect(scan["Index Cond"]).toMatch(/chain_id = .* AND .*node = /);
        expect(scan["Actual Rows"]! * scan["Actual Loops"]!).toBeLessThanOrEqual(31 * 4);
      }
    }
  } finally {
    await db.execute(sql`DELETE FROM team_sums WHERE chain_id LIKE 'probe-%'`);
  }
});

interface PlanNode {
  Plan?: PlanNode;
  Plans?: PlanNode[];
  "Relation Name"?: string;
  Alias?: string;
  "Index Cond"?: string;
  "Rows Removed by Filter"?: number;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** How many look-ups of a node the plan made (the scans of team_sums other than the last node's). */
const probesOf = (plan: PlanNode) =>
  nodesOf(plan)
    .filter((node) => node["Relation Name"] === "team_sums" && node.Alias !== "last")
    .reduce((loops, node) => loops + node["Actual Loops"]!, 0);
