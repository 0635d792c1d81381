import { eq } from "drizzle-orm";
import type { Tx } from "../db/client";
import { users } from "../db/schema";

/**
 * The referral tree is cut into chains: paths that go straight down. A user's first partner
 * continues the user's chain; every later partner starts a chain of their own. Each user stores
 * the id of the first user of their chain (`chain_id`) and their depth, and those never change.
 *
 * On a chain the ancestors of a user are exactly the chain's users above them, so "the deepest
 * eligible ancestor within this chain" is one index probe on user_levels (program, level,
 * chain_id, depth), however long the chain is. The receiver search (receiver.ts) makes one probe
 * per chain on the way up instead of one lookup per ancestor: a referral line 10,000 deep is one
 * chain, and a walk through it costs the same as through 10.
 *
 * The number of chains a walk crosses is the number of times the way up leaves a user through
 * a partner other than their first: the depth of the tree at most, a handful in a random tree.
 */
export async function chainOfNewPartner(tx: Tx, referrer: { id: string; chainId: string }, newId: string): Promise<string> {
  // Callers hold the referrer's team_counts row lock (every sign-up under a referrer takes it),
  // so no other partner of theirs can commit between this read and the insert. The unique
  // index (chain_id, depth) would refuse a second user at the same place regardless.
  const [earlier] = await tx.select({ id: users.id }).from(users).where(eq(users.referrerId, referrer.id)).limit(1);
  return earlier ? newId : referrer.chainId;
}
