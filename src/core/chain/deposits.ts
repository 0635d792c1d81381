import { eq, sql } from "drizzle-orm";
import { rowsOf, type Db, type Tx } from "../../db/client";
import { deposits } from "../../db/schema";
import { type ChainEvidence, displayTransactionId, type Network } from "../../shared/chain";
import { formatDollars, type Cents } from "../../shared/money";
import { recordAudit } from "../audit";
import { Refusal, withoutQueryParams } from "../errors";
import { inTransaction } from "../tx";
import { decideDeposit } from "../wallet";
import { type Hex, readAddress } from "./addresses";
import { type ChainSettings, isVerified, verifiedNetworks } from "./config";
import { checkDeposit } from "./verify";

/**
 * Deposits verified on chain, on the database's side (docs/rules.md#deposits): the watcher's
 * queue (claimed with row locks and SKIP LOCKED, never advisory locks, so any number of server
 * processes share one Postgres), and what a look at the chain leads to: a credit by the
 * platform, audited, or evidence for an admin.
 */

/** decided_by of a request the platform accepted on chain evidence. */
export const PLATFORM_DECIDER = "platform";
/** An ID the node does not know yet (not mined, a node behind) is looked for again this long after the request. */
export const NOT_FOUND_RECHECK_SECONDS = 10 * 60;

/** A request the watcher took for a look. `attempt` fences it: a later claim of the same request wins. */
export interface ClaimedDeposit {
  id: string;
  network: Network;
  txHash: string | null;
  address: string;
  amount: Cents;
  attempt: number;
}

interface ClaimedRow {
  id: string;
  network: Network;
  tx_hash: string | null;
  address: string;
  amount: string;
  check_attempts: number | string;
}

/**
 * Takes up to `limit` pending requests on `networks` that are due, and leases them for
 * `leaseSeconds`: their next_check_at moves past the lease, so no other process takes them
 * meanwhile, and a process that dies mid-look leaves them to be taken again once it ends. The
 * rows are picked FOR UPDATE SKIP LOCKED inside the one statement: two processes claiming at
 * once never take the same request.
 */
export async function claimDueDeposits(db: Db, networks: Network[], limit: number, leaseSeconds: number): Promise<ClaimedDeposit[]> {
  if (networks.length === 0) return [];
  const rows = rowsOf<ClaimedRow>(
    await db.execute(sql`
      UPDATE deposits
      SET next_check_at = now() + make_interval(secs => ${leaseSeconds}), check_attempts = check_attempts + 1
      WHERE id IN (
        SELECT id FROM deposits
        WHERE status = 'pending' AND next_check_at IS NOT NULL AND next_check_at <= now()
          AND network IN (${sql.join(
            networks.map((n) => sql`${n}`),
            sql`, `,
          )})
        ORDER BY next_check_at
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED)
      RETURNING id, network, tx_hash, address, amount::text AS amount, check_attempts`),
  );
  return rows.map((r) => ({
    id: r.id,
    network: r.network,
    txHash: r.tx_hash,
    address: r.address,
    amount: BigInt(r.amount),
    attempt: Number(r.check_attempts),
  }));
}

/** The sender's 0x form, or null when the stored address is none of the network's (old rows). */
export function senderHexOf(network: Network, address: string): Hex | null {
  const read = readAddress(network, address);
  return "problem" in read ? null : read.hex;
}

export type CheckOutcome = "credited" | "waiting" | "for_admin" | "skipped";

/**
 * Records what a look found, in one transaction that locks the request first. Skipped when the
 * request is no longer pending (an admin decided meanwhile) or was claimed again since (the
 * later look speaks). `match`: the platform accepts it, exactly like an admin's accept (one
 * transfer external -> member) and audited as the platform's decision with the evidence.
 * `confirming` and `rpc_error` are looked at again after `pollSeconds`; `not_found` too, for
 * NOT_FOUND_RECHECK_SECONDS after the request; anything else waits for an admin.
 */
export async function settleCheck(db: Db, claimed: ClaimedDeposit, evidence: ChainEvidence, pollSeconds: number): Promise<CheckOutcome> {
  return inTransaction(db, async (tx) => {
    const [row] = await tx
      .select({ status: deposits.status, attempt: deposits.checkAttempts })
      .from(deposits)
      .where(eq(deposits.id, claimed.id))
      .for("update");
    if (!row || row.status !== "pending" || row.attempt !== claimed.attempt) return "skipped";
    const again = sql`now() + make_interval(secs => ${pollSeconds})`;
    const next =
      evidence.verdict === "confirming" || evidence.verdict === "rpc_error"
        ? again
        : evidence.verdict === "not_found"
          ? sql`CASE WHEN ${deposits.createdAt} > now() - make_interval(secs => ${NOT_FOUND_RECHECK_SECONDS}) THEN ${again} END`
          : null;
    await tx.update(deposits).set({ chainEvidence: evidence, nextCheckAt: next }).where(eq(deposits.id, claimed.id));
    if (evidence.verdict !== "match") return evidence.verdict === "confirming" || evidence.verdict === "rpc_error" ? "waiting" : "for_admin";
    try {
      // A savepoint: should the credit be refused (a balance at its maximum), the evidence stays and an admin decides.
      await tx.transaction((sp) => acceptOnChain(sp as unknown as Tx, claimed, evidence));
      return "credited";
    } catch (error) {
      if (error instanceof Refusal) return "for_admin";
      throw error;
    }
  });
}

/** The platform accepts a deposit the chain proved, and records its decision in the audit trail. */
async function acceptOnChain(tx: Tx, claimed: ClaimedDeposit, evidence: ChainEvidence) {
  const decided = await decideDeposit(tx, claimed.id, "accepted", PLATFORM_DECIDER, null);
  await recordAudit(tx, {
    adminId: null,
    action: "deposit_decision",
    targetType: "deposit",
    targetId: claimed.id,
    before: { status: "pending", userId: decided.userId, amount: formatDollars(decided.amount) },
    after: {
      status: "accepted",
      by: "platform",
      network: claimed.network,
      transactionId: claimed.txHash === null ? null : displayTransactionId(claimed.network, claimed.txHash),
      chain: {
        block: evidence.blockNumber,
        confirmations: evidence.confirmations,
        token: evidence.token,
        from: evidence.from,
        to: evidence.to,
        amount: evidence.amount,
      },
    },
  });
}


export interface PassResult {
  credited: number;
  waiting: number;
  forAdmin: number;
  skipped: number;
  failed: number;
}

export interface PassOptions {
  /** Requests taken per claim. */
  batch?: number;
  /** Claims per pass at most: a pass stays bounded however long the queue. */
  maxBatches?: number;
  /** The look itself (tests put a failing node in its place). */
  check?: typeof checkDeposit;
  log?: (message: string, error?: unknown) => void;
}

/**
 * One pass of the watcher: claims the due requests of the verified networks a batch at a time,
 * looks at the chain for each batch at once, and settles each look in its own transaction. A
 * look that fails is `rpc_error` (looked at again later); a settlement that fails (the database)
 * is logged and the request is taken again when its lease ends. Nothing is kept in memory.
 */
export async function checkDueDeposits(db: Db, chain: ChainSettings, options: PassOptions = {}): Promise<PassResult> {
  const { batch = 20, maxBatches = 10, check = checkDeposit, log = console.error } = options;
  const result: PassResult = { credited: 0, waiting: 0, forAdmin: 0, skipped: 0, failed: 0 };
  const networks = verifiedNetworks(chain);
  if (networks.length === 0) return result;
  // Two calls of at most the time-out each, and room to settle: then another process may take it.
  const leaseSeconds = Math.ceil((4 * chain.rpcTimeoutMs) / 1000) + 30;
  for (let round = 0; round < maxBatches; round++) {
    const claimed = await claimDueDeposits(
      db,
      networks.map((n) => n.network),
      batch,
      leaseSeconds,
    );
    const looks = await Promise.all(
      claimed.map(async (request) => {
        const settings = chain.networks[request.network];
        if (!isVerified(settings) || request.txHash === null) return null;
        const claim = { network: request.network, txHash: request.txHash, senderHex: senderHexOf(request.network, request.address), amount: request.amount };
        return check(settings, claim, chain.rpcTimeoutMs);
      }),
    );
    for (const [i, request] of claimed.entries()) {
      const evidence = looks[i];
      try {
        if (!evidence) {
          await db.update(deposits).set({ nextCheckAt: null }).where(eq(deposits.id, request.id));
          result.skipped++;
          continue;
        }
        const outcome = await settleCheck(db, request, evidence, chain.pollSeconds);
        if (outcome === "credited") result.credited++;
        else if (outcome === "waiting") result.waiting++;
        else if (outcome === "for_admin") result.forAdmin++;
        else result.skipped++;
      } catch (error) {
        result.failed++;
        log(`deposit ${request.id}: recording the chain check failed; it is taken again when its lease ends`, withoutQueryParams(error));
      }
    }
    if (claimed.length < batch) break;
  }
  return result;
}
