import { and, eq, isNull, sql } from "drizzle-orm";
import type { PublicClient } from "viem";
import type { Db, Tx } from "../../db/client";
import { chainWatch, confirmingTransfers, depositAddresses, deposits, users } from "../../db/schema";
import { type ChainEvidence, displayTransactionId, type Network } from "../../shared/chain";
import { MIN_DEPOSIT } from "../../shared/constants";
import { type Cents, formatDollars, formatUsdt } from "../../shared/money";
import { recordAudit } from "../audit";
import { Refusal } from "../errors";
import { newId } from "../util";
import { notify, notifyAdminsOfRequest } from "../notifications";
import { inTransaction } from "../tx";
import { decideDeposit } from "../wallet";
import { displayAddress, type Hex } from "./addresses";
import type { WatchedNetwork } from "./config";
import { PLATFORM_DECIDER } from "./deposits";
import { lockTxHash } from "./requests";
import { clientFor, formatTokenAmount, TRANSFER_TOPIC } from "./verify";

/**
 * The address watcher of one network (docs/rules.md#own-deposit-addresses): it reads the USDT
 * contract's Transfer logs to members' own addresses, block range by block range from a cursor
 * kept in chain_watch, and credits each transfer once it has the network's confirmations. One
 * process reads a network at a time (a lease on its chain_watch row); should two ever read the
 * same range, the unique index on (network, transaction, log index) records each transfer once.
 */

/** Logs filtered by recipient up to this many addresses; beyond, every USDT transfer is read and matched here. */
const FILTERED_UP_TO = 1000;
/** Recipients per eth_getLogs call when filtering (nodes limit a topic's alternatives). */
const TOPICS_PER_CALL = 500;

export interface WatchOptions {
  /** Blocks per eth_getLogs call at most (public nodes refuse wide ranges); halved on an error. */
  range?: number;
  /** Ranges read per pass at most: a watcher far behind catches up over several passes. */
  rangesPerPass?: number;
  timeoutMs?: number;
  client?: PublicClient;
}

export interface WatchResult {
  credited: number;
  /** Recorded for an admin: below the minimum, or the member's account is closed. */
  forAdmin: number;
  /** Transfers seen with too few confirmations. */
  confirming: number;
  /** Why crediting stopped short of the confirmed head this pass (a node that failed or disagreed), else null. */
  delayed: string | null;
  /** Another process holds the network's lease. */
  leased: boolean;
  /** Confirmed blocks left unread: another pass should follow at once. */
  behind: boolean;
}

/** What one process keeps between passes: the members' addresses (never reused, so read once) and the range that works. */
export interface WatchState {
  network: Network;
  addresses: Map<Hex, { userId: string; address: string }>;
  /** Indexes below this are in `addresses`. */
  loadedBelow: number;
  range: number;
  /** Whether this process already stepped its first pass back a margin of blocks. */
  steppedBack: boolean;
}

export const newWatchState = (network: Network, range = 1000): WatchState => ({ network, addresses: new Map(), loadedBelow: 0, range, steppedBack: false });

interface RpcLog {
  address?: string;
  topics?: string[];
  data?: string;
  blockNumber?: string;
  blockHash?: string;
  transactionHash?: string;
  logIndex?: string;
  removed?: boolean;
}

/** One USDT transfer to a member's address, as the logs carry it. */
interface SeenTransfer {
  txHash: string;
  logIndex: number;
  block: bigint;
  blockHash: string | null;
  from: Hex;
  to: Hex;
  value: bigint;
  userId: string;
  toAddress: string;
  raw: RpcLog;
}

const HEX_TOPIC_ADDRESS = /^0x0{24}[0-9a-f]{40}$/;
const QUANTITY = /^0x[0-9a-f]+$/;

/** A log in the shape a Transfer of `token` must have, or null: whatever else a node sends is never read as money. */
function readLog(log: RpcLog, token: Hex): Omit<SeenTransfer, "userId" | "toAddress"> | null {
  const topics = (log.topics ?? []).map((t) => t.toLowerCase());
  if (log.removed || log.address?.toLowerCase() !== token || topics.length !== 3 || topics[0] !== TRANSFER_TOPIC) return null;
  if (!HEX_TOPIC_ADDRESS.test(topics[1]!) || !HEX_TOPIC_ADDRESS.test(topics[2]!) || !/^0x[0-9a-f]{64}$/i.test(log.data ?? "")) return null;
  const tx = log.transactionHash?.toLowerCase() ?? "";
  const block = log.blockNumber?.toLowerCase() ?? "";
  const index = log.logIndex?.toLowerCase() ?? "";
  if (!/^0x[0-9a-f]{64}$/.test(tx) || !QUANTITY.test(block) || !QUANTITY.test(index)) return null;
  return {
    txHash: tx.slice(2),
    logIndex: Number(BigInt(index)),
    block: BigInt(block),
    blockHash: log.blockHash?.toLowerCase() ?? null,
    from: `0x${topics[1]!.slice(-40)}` as Hex,
    to: `0x${topics[2]!.slice(-40)}` as Hex,
    value: BigInt(log.data!),
    raw: log,
  };
}

const hex = (n: bigint) => `0x${n.toString(16)}`;

/** Reads the addresses given since the last pass (they are never removed or reused). */
async function loadAddresses(db: Db, state: WatchState): Promise<void> {
  const rows = await db
    .select({ index: depositAddresses.index, hex: depositAddresses.hex, userId: depositAddresses.userId, address: depositAddresses.address })
    .from(depositAddresses)
    .where(and(eq(depositAddresses.network, state.network), sql`${depositAddresses.index} >= ${state.loadedBelow}`));
  for (const row of rows) {
    state.addresses.set(row.hex as Hex, { userId: row.userId, address: row.address });
    state.loadedBelow = Math.max(state.loadedBelow, row.index + 1);
  }
}

/** The transfers to members' addresses in blocks from..to, read in as many calls as the recipients need. */
async function transfersIn(client: PublicClient, settings: WatchedNetwork, state: WatchState, from: bigint, to: bigint): Promise<SeenTransfer[]> {
  const recipients = [...state.addresses.keys()];
  if (recipients.length === 0) return [];
  const filters: (string[] | null)[] = [];
  if (recipients.length > FILTERED_UP_TO) filters.push(null);
  else for (let i = 0; i < recipients.length; i += TOPICS_PER_CALL) filters.push(recipients.slice(i, i + TOPICS_PER_CALL).map((a) => `0x${a.slice(2).padStart(64, "0")}`));
  const out: SeenTransfer[] = [];
  for (const recipientsTopic of filters) {
    const logs = (await client.request({
      method: "eth_getLogs",
      params: [{ address: settings.token, fromBlock: hex(from), toBlock: hex(to), topics: [TRANSFER_TOPIC, null, recipientsTopic] }],
    } as never)) as RpcLog[];
    if (!Array.isArray(logs)) throw new Error("eth_getLogs answered something other than a list");
    for (const log of logs) {
      const read = readLog(log, settings.token);
      if (!read || read.block < from || read.block > to) continue;
      const member = state.addresses.get(read.to);
      if (member) out.push({ ...read, userId: member.userId, toAddress: member.address });
    }
  }
  return out.sort((a, b) => (a.block === b.block ? a.logIndex - b.logIndex : a.block < b.block ? -1 : 1));
}

interface RpcReceipt {
  transactionHash?: string;
  status?: string;
  blockNumber?: string;
  blockHash?: string;
  logs?: RpcLog[];
}

/**
 * Whether the transaction's receipt holds the transfer as the log said: succeeded, in the same
 * block, with the same log at the same index. A node that cannot show it delays the credit.
 */
async function confirmedByReceipt(client: PublicClient, t: SeenTransfer): Promise<{ ok: true; logs: number } | { ok: false; why: string }> {
  const receipt = (await client.request({ method: "eth_getTransactionReceipt", params: [`0x${t.txHash}`] })) as RpcReceipt | null;
  if (!receipt) return { ok: false, why: `no receipt for 0x${t.txHash}` };
  if (receipt.transactionHash?.toLowerCase() !== `0x${t.txHash}`) return { ok: false, why: `the receipt asked for 0x${t.txHash} is another transaction's` };
  if (receipt.status !== "0x1") return { ok: false, why: `0x${t.txHash} did not succeed` };
  if (!receipt.blockNumber || BigInt(receipt.blockNumber) !== t.block) return { ok: false, why: `0x${t.txHash} is in another block than its log said` };
  if (t.blockHash && receipt.blockHash && receipt.blockHash.toLowerCase() !== t.blockHash) return { ok: false, why: `0x${t.txHash}'s block changed` };
  const same = (receipt.logs ?? []).find((l) => l.logIndex !== undefined && QUANTITY.test(l.logIndex.toLowerCase()) && Number(BigInt(l.logIndex)) === t.logIndex);
  const again = same && readLog({ ...same, blockNumber: same.blockNumber ?? receipt.blockNumber, transactionHash: same.transactionHash ?? receipt.transactionHash }, t.raw.address!.toLowerCase() as Hex);
  if (!again || again.from !== t.from || again.to !== t.to || again.value !== t.value) return { ok: false, why: `0x${t.txHash}'s receipt does not hold the transfer its log showed` };
  return { ok: true, logs: receipt.logs?.length ?? 0 };
}

/** The whole cents of token units (a fraction of a cent stays where it is) and the exact amount as text. */
function centsOf(value: bigint, decimals: number): { cents: Cents; exact: string } {
  const cents = decimals >= 2 ? value / 10n ** BigInt(decimals - 2) : value * 10n ** BigInt(2 - decimals);
  return { cents, exact: formatTokenAmount(value, decimals) };
}

export type CreditOutcome = "credited" | "for_admin" | "known";

/**
 * Records one confirmed transfer and credits it, in one transaction: the deposit row (unique on
 * network, transaction and log index: a transfer already recorded is left as it is), then, at or
 * above the minimum deposit and for a member whose account is open, the platform's accept (the
 * ledger's transfer from external, the member's notice, the audit record). Below the minimum, or
 * for a closed account, the row waits for an admin, who may credit it by hand.
 */
export async function creditTransfer(db: Db, settings: WatchedNetwork, t: SeenTransfer, head: bigint, receiptLogs: number): Promise<CreditOutcome> {
  const { cents, exact } = centsOf(t.value, settings.decimals);
  if (cents <= 0n) return "known";
  const belowMinimum = cents < MIN_DEPOSIT;
  const from = displayAddress(settings.network, t.from);
  const evidence: ChainEvidence = {
    verdict: belowMinimum ? "below_minimum" : "match",
    checkedAt: new Date().toISOString(),
    found: true,
    status: "success",
    blockNumber: t.block.toString(),
    confirmations: Number(head - t.block + 1n),
    requiredConfirmations: settings.confirmations,
    token: displayAddress(settings.network, settings.token),
    tokenIsUsdt: true,
    from,
    to: t.toAddress,
    amount: exact,
    transfers: receiptLogs,
    error: null,
  };
  return inTransaction(db, async (tx) => {
    // Lock order (docs/rules.md#lock-order): the member's row, the transaction ID, then the accounts.
    const [open] = await tx.select({ id: users.id }).from(users).where(and(eq(users.id, t.userId), isNull(users.deletedAt))).for("share");
    await lockTxHash(tx, t.txHash);
    const id = newId();
    const [recorded] = await tx
      .insert(deposits)
      .values({
        id,
        userId: t.userId,
        network: settings.network,
        address: from,
        transactionId: displayTransactionId(settings.network, t.txHash),
        txHash: t.txHash,
        amount: cents,
        logIndex: t.logIndex,
        toAddress: t.toAddress,
        blockNumber: t.block,
        chainAmount: exact,
        chainEvidence: evidence,
      })
      .onConflictDoNothing({ target: [deposits.network, deposits.txHash, deposits.logIndex], where: sql`${deposits.logIndex} IS NOT NULL` })
      .returning({ id: deposits.id });
    if (!recorded) return "known";
    await tx
      .delete(confirmingTransfers)
      .where(and(eq(confirmingTransfers.network, settings.network), eq(confirmingTransfers.txHash, t.txHash), eq(confirmingTransfers.logIndex, t.logIndex)));
    if (open && !belowMinimum) {
      try {
        // A savepoint: should the credit be refused (a balance at its maximum), the row stays for an admin.
        await tx.transaction((sp) => acceptArrival(sp as unknown as Tx, id, settings.network, t, evidence));
        return "credited";
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
      }
    }
    await notifyAdminsOfRequest(tx, "deposit", id, t.userId, cents);
    if (open) {
      await notify(tx, {
        userId: t.userId,
        kind: "deposit_decided",
        eventKey: `deposit-received:${id}`,
        text: belowMinimum ? arrivedBelowMinimum(exact, settings.network) : arrivedForReview(exact, settings.network),
        data: { requestId: id, status: "pending" },
      });
    }
    return "for_admin";
  });
}

const arrivedBelowMinimum = (exact: string, network: Network) =>
  `${exact} USDT arrived at your ${network} deposit address. It is below the minimum deposit of ${formatUsdt(MIN_DEPOSIT)}, so it was not added to your balance; an admin will review it.`;
const arrivedForReview = (exact: string, network: Network) => `${exact} USDT arrived at your ${network} deposit address. An admin will review it before it is added to your balance.`;

async function acceptArrival(tx: Tx, id: string, network: Network, t: SeenTransfer, evidence: ChainEvidence) {
  const decided = await decideDeposit(tx, id, "accepted", PLATFORM_DECIDER, null);
  await recordAudit(tx, {
    adminId: null,
    action: "deposit_decision",
    targetType: "deposit",
    targetId: id,
    before: { status: "pending", userId: decided.userId, amount: formatDollars(decided.amount) },
    after: {
      status: "accepted",
      by: "platform",
      network,
      transactionId: displayTransactionId(network, t.txHash),
      logIndex: t.logIndex,
      chain: { block: evidence.blockNumber, confirmations: evidence.confirmations, token: evidence.token, from: evidence.from, to: evidence.to, amount: evidence.amount },
    },
  });
}

/** Takes the network's lease for `seconds`, or answers null while another process holds it. */
async function takeLease(db: Db, network: Network, seconds: number) {
  const [row] = await db
    .update(chainWatch)
    .set({ leaseUntil: sql`now() + make_interval(secs => ${seconds})` })
    .where(and(eq(chainWatch.network, network), sql`(${chainWatch.leaseUntil} IS NULL OR ${chainWatch.leaseUntil} < now())`))
    .returning({ nextBlock: chainWatch.nextBlock, headBlock: chainWatch.headBlock });
  return row ?? null;
}

/**
 * One pass over one network: take the lease, read the latest block, credit the confirmed
 * transfers from the cursor on (range by range, the cursor moved after each), then record the
 * transfers still confirming, and give the lease back. A node that fails, goes back, or shows a
 * log its receipt does not hold stops the pass where it is: crediting waits for the next one.
 */
export async function watchNetwork(db: Db, settings: WatchedNetwork, state: WatchState, options: WatchOptions = {}): Promise<WatchResult> {
  const { rangesPerPass = 20, timeoutMs = 10_000 } = options;
  const client = options.client ?? clientFor(settings.rpcUrl, timeoutMs);
  const result: WatchResult = { credited: 0, forAdmin: 0, confirming: 0, delayed: null, leased: false, behind: false };
  // Renewed after each range: a process killed mid-pass holds the network for one lease at most.
  const leaseSeconds = Math.ceil((4 * timeoutMs) / 1000) + 15;
  await db.insert(chainWatch).values({ network: settings.network, xpub: settings.addressKey.xpub }).onConflictDoNothing();
  const lease = await takeLease(db, settings.network, leaseSeconds);
  if (!lease) return { ...result, leased: true };
  try {
    let head: bigint;
    try {
      head = await client.getBlockNumber({ cacheTime: 0 });
    } catch (error) {
      return { ...result, delayed: `the node's latest block could not be read: ${messageOf(error)}` };
    }
    if (lease.headBlock !== null && head < lease.headBlock) {
      return { ...result, delayed: `the node's latest block went back from ${lease.headBlock} to ${head}` };
    }
    await db.update(chainWatch).set({ headBlock: head }).where(eq(chainWatch.network, settings.network));
    await loadAddresses(db, state);
    let cursor = lease.nextBlock ?? head;
    if (!state.steppedBack) {
      // A transfer confirmed and then undone by a deeper reorganisation is read again; what was recorded stays recorded once.
      const margin = BigInt(Math.max(2 * settings.confirmations, 12));
      cursor = cursor > margin ? cursor - margin : 0n;
      state.steppedBack = true;
    }
    const confirmedHead = head - BigInt(settings.confirmations) + 1n;
    for (let ranges = 0; cursor <= confirmedHead; ranges++) {
      if (ranges === rangesPerPass) {
        result.behind = true;
        break;
      }
      const to = min(cursor + BigInt(state.range) - 1n, confirmedHead);
      let seen: SeenTransfer[];
      try {
        seen = await transfersIn(client, settings, state, cursor, to);
        state.range = Math.min(state.range * 2, options.range ?? 1000);
      } catch (error) {
        if (state.range > 1) {
          state.range = Math.max(1, Math.floor(state.range / 2));
          continue;
        }
        result.delayed = `eth_getLogs failed at block ${cursor}: ${messageOf(error)}`;
        break;
      }
      const checked = await Promise.all(seen.map((t) => confirmedByReceipt(client, t).catch((error) => ({ ok: false as const, why: messageOf(error) }))));
      const firstBad = checked.findIndex((c) => !c.ok);
      const good = firstBad === -1 ? seen : seen.filter((t) => t.block < seen[firstBad]!.block);
      for (const [i, t] of good.entries()) {
        const outcome = await creditTransfer(db, settings, t, head, (checked[i] as { logs: number }).logs);
        if (outcome === "credited") result.credited++;
        else if (outcome === "for_admin") result.forAdmin++;
      }
      const next = firstBad === -1 ? to + 1n : seen[firstBad]!.block;
      await db
        .update(chainWatch)
        .set({ nextBlock: sql`greatest(coalesce(${chainWatch.nextBlock}, 0), ${next.toString()}::bigint)`, leaseUntil: sql`now() + make_interval(secs => ${leaseSeconds})` })
        .where(eq(chainWatch.network, settings.network));
      if (firstBad !== -1) {
        result.delayed = (checked[firstBad] as { why: string }).why;
        break;
      }
      cursor = next;
    }
    if (!result.behind && result.delayed === null) result.confirming = await recordConfirming(db, client, settings, state, max(cursor, confirmedHead + 1n), head);
    return result;
  } finally {
    await db.update(chainWatch).set({ leaseUntil: null }).where(eq(chainWatch.network, settings.network));
  }
}

/** Replaces the network's confirming transfers with those in blocks from..head (none when the range is empty). */
async function recordConfirming(db: Db, client: PublicClient, settings: WatchedNetwork, state: WatchState, from: bigint, head: bigint): Promise<number> {
  let seen: SeenTransfer[] = [];
  if (from <= head) {
    try {
      seen = await transfersIn(client, settings, state, from, head);
    } catch {
      // Only what members are shown while they wait: the next pass reads it again.
      return 0;
    }
  }
  const rows = seen
    .map((t) => ({ t, ...centsOf(t.value, settings.decimals) }))
    .filter((r) => r.cents > 0n)
    .map(({ t, cents, exact }) => ({
      network: settings.network,
      txHash: t.txHash,
      logIndex: t.logIndex,
      userId: t.userId,
      blockNumber: t.block,
      fromAddress: displayAddress(settings.network, t.from),
      toAddress: t.toAddress,
      amount: cents,
      chainAmount: exact,
    }));
  await inTransaction(db, async (tx) => {
    await tx.delete(confirmingTransfers).where(eq(confirmingTransfers.network, settings.network));
    if (rows.length > 0) await tx.insert(confirmingTransfers).values(rows).onConflictDoNothing();
  });
  return rows.length;
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);
const max = (a: bigint, b: bigint) => (a > b ? a : b);
const messageOf = (error: unknown) => (error instanceof Error ? ((error as { shortMessage?: string }).shortMessage ?? error.message) : String(error)).slice(0, 300);
