import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Tx } from "../db/client";
import { ADVISORY_LOCKS } from "./advisoryLocks";
import { runPrepared } from "./prepared";

/**
 * Team sizes (a user's partners, their partners, and so on, not counting deleted users) without
 * a counter per upline: a sign-up 10,000 levels deep writes about as much as one near the root,
 * and sign-ups do not queue on the root's row.
 *
 * The referral tree is cut into chains (chains.ts). A user's way up is a list of crossings, one
 * per chain: on their own chain at their own depth, then on the chain of their chain's first
 * user's referrer at that referrer's depth, and so on to the root. The team of a user U (U
 * included) is exactly the users whose way up crosses U's chain at U's depth or deeper.
 *
 * So each chain keeps a Fenwick tree over the position p = depth + 1 (table team_sums, written
 * by migration 0011): node i holds how many ways up cross the chain at positions i to
 * i + lowbit(i) - 1. A crossing at p adds 1 to the nodes p & ~(2^k - 1) (about log2(p) of them);
 * the count from depth d down is the sum of the nodes (d | (2^k - 1)) + 1 up to the chain's last
 * node (teamWithSql): at most about 30 primary-key probes, whatever the team's size, and only a
 * few on a short chain.
 *
 * Every node's count is split over TEAM_SHARDS rows, and each sign-up writes one shard picked
 * at random, so two sign-ups wait on each other's rows only when their shards meet.
 */
export const TEAM_SHARDS = 4;

/**
 * Sign-ups and deletions take the chains' advisory lock shared (they never wait on each other for
 * it); a chain handover (chains.ts) takes it alone, because it moves users and team_sums between
 * chains.
 */
const CHAINS_LOCK = ADVISORY_LOCKS.chains;

/** For a sign-up or a deletion: no chain handover runs until this transaction ends. */
export async function shareChains(tx: Tx): Promise<void> {
  await runPrepared(tx, "teams_share_chains", sql`SELECT pg_advisory_xact_lock_shared(${CHAINS_LOCK}::bigint)`);
}

/** For a chain handover: waits for every sign-up and deletion in flight, and holds off new ones. */
export async function ownChains(tx: Tx): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${CHAINS_LOCK})`);
}

/**
 * Adds `delta` to the team of every user on `userId`'s way up, `userId` included: +1 at a
 * sign-up, -1 at a deletion. One statement; about log2(depth) rows per chain crossed, taken in
 * key order (so two of these never deadlock on each other).
 */
export async function countOnTheWayUp(tx: Tx, userId: string, delta: 1 | -1): Promise<void> {
  const shard = Math.floor(Math.random() * TEAM_SHARDS);
  // Prepared (./prepared.ts): planning the recursive walk and the node lists cost more than running them.
  await runPrepared(tx, "teams_count_way_up", sql`
    WITH RECURSIVE way(chain_id, depth) AS (
      SELECT chain_id, depth FROM users WHERE id = ${userId}
      UNION ALL
      SELECT r.chain_id, r.depth FROM way JOIN users head ON head.id = way.chain_id JOIN users r ON r.id = head.referrer_id
    )
    INSERT INTO team_sums (chain_id, node, shard, n)
    SELECT way.chain_id, nodes.node, ${shard}, ${delta}::integer
    FROM way, LATERAL (SELECT DISTINCT (way.depth + 1) & ~((1 << k) - 1) AS node FROM generate_series(0, 30) AS k) nodes
    WHERE nodes.node > 0
    ORDER BY 1, 2
    ON CONFLICT (chain_id, node, shard) DO UPDATE SET n = team_sums.n + excluded.n`);
}

const dialect = new PgDialect();

/** 2^k - 1 for k = 0..30: node (depth | mask) + 1 for each covers the positions from depth + 1 on. */
const MASKS = Array.from({ length: 31 }, (_, k) => 2 ** k - 1);

/**
 * SQL text: how many users (not deleted) have a way up that crosses chain `chain` at depth
 * `depth` or deeper: the team of the user there, that user included. The sum of the nodes
 * (depth | (2^k - 1)) + 1, each a probe of team_sums' primary key on both columns, never a scan
 * of the chain: one look-up per node, joined laterally to the masks. Written as `node = ANY
 * (...)` (an array of 31 expressions, or one made by a subquery), Postgres planned for chains of
 * the average length and took only `chain_id` as the index condition, filtering the nodes out of
 * every row of the chain: 14,500 rows and 7.4 ms for a member 10,000 deep (teams.test.ts checks
 * the plan). Inline rather than an SQL function, so that it is planned with the statement that
 * uses it. Qualify `chain` and `depth` ("u.chain_id"): a bare chain_id would name team_sums' own
 * column in there.
 */
export const teamWithSql = (chain: string, depth: string) => dialect.sqlToQuery(teamWith(sql.raw(chain), sql.raw(depth))).sql;

/** teamWithSql as drizzle SQL (the one place the formula is written): `chain` and `depth` are columns or SQL, or values (sent as parameters). */
function teamWith(chain: SQLWrapper | string, depth: SQLWrapper | number): SQL<number> {
  // Mask 2^k - 1 adds a node only where bit k - 1 of the depth is 0 (else it is the node of
  // mask 2^(k-1) - 1 again): each node once. No node past the chain's last one holds anything,
  // so those are not looked up: a chain of a few users costs a few look-ups, not 30 (the last
  // node is one backward step of the same key, run once per team). OFFSET 0 keeps the look-up a
  // subquery of its own, run once per mask on the primary key (chain_id, node), whatever
  // Postgres thinks of the chain.
  return sql<number>`(SELECT coalesce(sum(t.n), 0)::integer
    FROM unnest(${sql.raw(`'{${MASKS.join(",")}}'::integer[]`)}) AS m,
      LATERAL (SELECT s.n FROM team_sums s WHERE s.chain_id = ${chain} AND s.node = ((${depth})::integer | m) + 1 OFFSET 0) t
    WHERE (m = 0 OR ((${depth})::integer & ((m + 1) >> 1)) = 0)
      AND ((${depth})::integer | m) < (SELECT max(last.node) FROM team_sums last WHERE last.chain_id = ${chain}))`;
}

/**
 * SQL: the team size of a user, from their users row's columns: everyone counted from their place
 * down, less the user themselves (who is counted unless deleted).
 */
export function teamSize(user: { chainId: SQLWrapper; depth: SQLWrapper; deletedAt: SQLWrapper }): SQL<number> {
  return sql<number>`(${teamWith(user.chainId, user.depth)} - CASE WHEN ${user.deletedAt} IS NULL THEN 1 ELSE 0 END)`;
}

/**
 * The team_sums side of a chain handover (chains.ts handOver), before any user moves. The user at
 * `depth` on chain `chain` keeps their chain, which from depth + 1 on goes on through `branch`
 * (the first user of a chain of its own) instead of `heir`, whose part of the chain becomes a
 * chain of its own (named `heir`). Counts per position, p = depth + 1:
 *
 *   chain, up to p:      unchanged, but at p: + size(heir's part) - size(branch's chain)
 *   chain, from p + 1:   branch's chain's counts
 *   heir:                chain's old counts from p + 1
 *
 * Nodes that start after p hold positions after p only, so they move as they are (the heir's
 * chain is read from p + 1 on only, so it needs no others; the branch's nodes before p + 1 are
 * never read and go). The nodes over p are the update path of p; node i of them holds positions
 * i to e = i + lowbit(i) - 1, and changes by teamWith(chain, e) - teamWith(branch, e): the
 * heir's part of its range leaves, the branch's comes in, and at p the difference of the sizes.
 * Callers hold ownChains.
 */
export async function moveTeamSums(tx: Tx, { chain, depth, heir, branch }: { chain: string; depth: number; heir: string; branch: string }): Promise<void> {
  const p = depth + 1;
  // First, while every node still holds the old counts (one statement reads one snapshot).
  const end = sql`path.node + (path.node & -path.node) - 1`;
  await tx.execute(sql`
    INSERT INTO team_sums (chain_id, node, shard, n)
    SELECT ${chain}, path.node, 0, ${teamWith(chain, end)} - ${teamWith(branch, end)}
    FROM (SELECT DISTINCT ${p}::integer & ~((1 << k) - 1) AS node FROM generate_series(0, 30) AS k) path
    WHERE path.node > 0
    ORDER BY 1, 2
    ON CONFLICT (chain_id, node, shard) DO UPDATE SET n = team_sums.n + excluded.n`);
  await tx.execute(sql`DELETE FROM team_sums WHERE chain_id = ${branch} AND node <= ${p}`);
  await tx.execute(sql`UPDATE team_sums SET chain_id = ${heir} WHERE chain_id = ${chain} AND node > ${p}`);
  await tx.execute(sql`UPDATE team_sums SET chain_id = ${chain} WHERE chain_id = ${branch}`);
}
