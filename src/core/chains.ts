import { and, eq, gt, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { runPrepared } from "./prepared";
import { users } from "../db/schema";
import { moveTeamSums, ownChains, teamSize } from "./teams";
import { inTransaction } from "./tx";

/**
 * The referral tree is cut into chains: paths that go straight down, in the manner of a
 * heavy-path decomposition. Every user with partners has exactly one partner who continues
 * their chain; every other partner starts a chain of their own. Each user stores the id of the
 * first user of their chain (`chain_id`) next to their depth, and user_levels copies both.
 *
 * On a chain the ancestors of a user are exactly the chain's users above them, so "the deepest
 * eligible ancestor within this chain" is one index probe on user_levels (program, level,
 * chain_id, depth), however long the chain is. The receiver search (receiver.ts) makes one probe
 * per chain on the way up instead of one lookup per ancestor.
 *
 * Which partner continues: the first one, until another partner's team outgrows theirs more
 * than twice over; then that branch takes the chain over (rebalanceChains). So wherever a walk
 * leaves a chain, the user it leaves has a team at least half again as big as the partner it
 * came from, and a walk crosses at most log1.5(users) chains: about 28 among 100,000 users,
 * whatever the shape of the tree. A plain line 10,000 deep is one chain. (Team counts leave
 * deleted users out, so deletions in an heir's team can loosen the bound for a while; the next
 * sign-up in the bigger branch restores it.)
 */
export async function chainOfNewPartner(tx: Tx, referrerId: string, newId: string): Promise<string> {
  // Callers hold the referrer's team_counts row lock (every sign-up under a referrer takes it) and
  // shareChains (no takeover moves the referrer meanwhile), so this read is current until the
  // insert. The unique index (chain_id, depth) would refuse a clash regardless.
  const [referrer] = await tx.select({ chainId: users.chainId }).from(users).where(eq(users.id, referrerId));
  const [partner] = await tx.select({ id: users.id }).from(users).where(eq(users.referrerId, referrerId)).limit(1);
  return partner ? newId : referrer!.chainId;
}

/**
 * After a sign-up has committed (users.ts signUp): wherever on the new user's way up their branch
 * now has more than twice the members of the branch that continues the chain, the new user's
 * branch takes the chain over. Sizes are team + 1 (the partner themselves).
 *
 * Only where the way up leaves a chain (at a chain's first user, whose referrer's heir is someone
 * else) can that happen, so this goes up chain by chain too: one step per chain, not per upline.
 * Most sign-ups find nothing to do, and look without a lock. A takeover runs in a transaction of
 * its own that takes ownChains before anything else (so it holds no row a sign-up could be
 * waiting for while it waits for the sign-ups in flight), and looks again once it has it.
 *
 * Two sign-ups in flight each count without the other, and a crash can come between a sign-up
 * and its takeover; either way a takeover that is due waits for the next sign-up in that branch.
 * The bound on chains crossed is a matter of speed, and it holds again then.
 */
export async function rebalanceChains(db: Db, newUserId: string): Promise<void> {
  if ((await takeoversAbove(db, newUserId)).length === 0) return;
  await inTransaction(db, (tx) => handOverWhereDue(tx, newUserId));
}

/** The takeovers due on `userId`'s way up, made under ownChains, in the caller's transaction. */
export async function handOverWhereDue(tx: Tx, userId: string): Promise<void> {
  await ownChains(tx);
  // A takeover changes who continues the chain at `at` only, so each can go on its own.
  for (const { at, branch } of await takeoversAbove(tx, userId)) await handOver(tx, at, branch);
}

/** The places on `userId`'s way up where their branch has outgrown the heir more than twice. */
async function takeoversAbove(db: Db | Tx, userId: string) {
  const size = (u: string) => sql`(${teamSize({ chainId: sql.raw(`${u}.chain_id`), depth: sql.raw(`${u}.depth`), deletedAt: sql.raw(`${u}.deleted_at`) })} + 1)`;
  // Prepared (./prepared.ts): after every sign-up, and planning it costs more than running it.
  return runPrepared<{ at: string; branch: string }>(
    db,
    "chains_takeovers_above",
    sql`
      WITH RECURSIVE up(branch, at) AS (
        SELECT head.id, head.referrer_id FROM users u JOIN users head ON head.id = u.chain_id WHERE u.id = ${userId}
        UNION ALL
        SELECT head.id, head.referrer_id FROM up JOIN users a ON a.id = up.at JOIN users head ON head.id = a.chain_id
      )
      SELECT up.at, up.branch
      FROM up
      JOIN users p ON p.id = up.at
      JOIN users heir ON heir.chain_id = p.chain_id AND heir.depth = p.depth + 1
      JOIN users b ON b.id = up.branch
      WHERE heir.id <> up.branch AND ${size("b")} > 2 * ${size("heir")}`,
  );
}

/** `branch` (a partner of `at` who starts a chain) continues `at`'s chain in place of the heir. */
async function handOver(tx: Tx, at: string, branch: string): Promise<void> {
  const [top] = await tx.select({ chainId: users.chainId, depth: users.depth }).from(users).where(eq(users.id, at));
  const [heir] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.chainId, top!.chainId), eq(users.depth, top!.depth + 1)));
  await moveTeamSums(tx, { chain: top!.chainId, depth: top!.depth, heir: heir!.id, branch });
  const below = and(eq(users.chainId, top!.chainId), gt(users.depth, top!.depth));
  // The heir and the chain below them become a chain of their own, then the branch's chain
  // joins `at`'s. Both statements use the (chain_id, depth) index and never collide in it.
  await tx.update(users).set({ chainId: heir!.id }).where(below);
  await tx.update(users).set({ chainId: top!.chainId }).where(eq(users.chainId, branch));
  await tx.execute(sql`
    UPDATE user_levels ul SET chain_id = u.chain_id
    FROM users u
    WHERE u.id = ul.user_id AND u.depth > ${top!.depth} AND u.chain_id IN (${heir!.id}, ${top!.chainId})
      AND ul.chain_id <> u.chain_id`);
}
