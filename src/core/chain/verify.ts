import { createPublicClient, formatUnits, http, type PublicClient, toEventSelector } from "viem";
import type { ChainEvidence, ChainVerdict, Network } from "../../shared/chain";
import type { Cents } from "../../shared/money";
import { displayAddress, type Hex } from "./addresses";
import type { VerifiedNetwork } from "./config";

/**
 * One look at the chain for one deposit: the transaction's receipt and the latest block, read
 * through the network's Ethereum-compatible JSON-RPC (BNB Smart Chain's nodes, and TRON full
 * nodes, which serve eth_getTransactionReceipt and eth_blockNumber with logs in 0x form). It
 * answers what it found as evidence, with a verdict (src/shared/chain.ts, CHAIN_VERDICTS); it
 * never writes anything and never throws: a node that fails or is slow is a verdict too
 * (`rpc_error`), never a credit.
 */

/** ERC-20 (and TRC-20) `Transfer(address indexed from, address indexed to, uint256 value)`. */
export const TRANSFER_TOPIC = toEventSelector("Transfer(address,address,uint256)");

export type { ChainEvidence } from "../../shared/chain";

/** What a request claims: the canonical transaction ID (64 hex), who sent, how much. */
export interface DepositClaim {
  network: Network;
  txHash: string;
  /** The sender's 0x form (lower case); null when the stored address is no valid one. */
  senderHex: Hex | null;
  amount: Cents;
}

interface RpcLog {
  address?: string;
  topics?: string[];
  data?: string;
  removed?: boolean;
}

interface RpcReceipt {
  transactionHash?: string;
  status?: string;
  blockNumber?: string;
  logs?: RpcLog[];
}

interface Transfer {
  token: Hex;
  from: Hex;
  to: Hex;
  value: bigint;
}

const clients = new Map<string, PublicClient>();

/** One JSON-RPC client per node and time-out, kept for the process. */
export function clientFor(url: string, timeoutMs: number): PublicClient {
  const key = `${timeoutMs} ${url}`;
  let client = clients.get(key);
  if (!client) {
    // No retries inside a look: the watcher looks again later, and a look stays bounded in time.
    client = createPublicClient({ transport: http(url, { timeout: timeoutMs, retryCount: 0, batch: false }) }) as PublicClient;
    clients.set(key, client);
  }
  return client;
}

const lower = (text: string) => text.toLowerCase() as Hex;
const topicAddress = (topic: string) => lower(`0x${topic.slice(-40)}`);

/** The Transfer events of a receipt (well-formed ones; logs a reorganization removed are left out). */
export function transfersOf(receipt: RpcReceipt): Transfer[] {
  const out: Transfer[] = [];
  for (const log of receipt.logs ?? []) {
    const topics = log.topics ?? [];
    if (log.removed || topics.length !== 3 || topics[0]?.toLowerCase() !== TRANSFER_TOPIC) continue;
    if (!log.address || !/^0x[0-9a-fA-F]{40}$/.test(log.address) || !/^0x[0-9a-fA-F]{64}$/.test(log.data ?? "")) continue;
    out.push({ token: lower(log.address), from: topicAddress(topics[1]!), to: topicAddress(topics[2]!), value: BigInt(log.data!) });
  }
  return out;
}

/** The token units that make `cents`: cents x 10^(decimals - 2). */
export const unitsOfCents = (cents: Cents, decimals: number) => (decimals >= 2 ? cents * 10n ** BigInt(decimals - 2) : cents / 10n ** BigInt(2 - decimals));

/** Token units as USDT text with at least 2 decimals: "100.00", "99.999999". */
export function formatTokenAmount(value: bigint, decimals: number): string {
  const text = formatUnits(value, decimals);
  const [whole, fraction = ""] = text.split(".");
  return `${whole}.${fraction.padEnd(2, "0")}`;
}

/**
 * What the receipt says about the claim. The checks run in order and the first that fails is
 * the verdict: found, succeeded, a transfer of USDT to our address (else: one of another token
 * to us?), from the sender given, of exactly the amount (to the cent: the on-chain value must be
 * the claimed cents x 10^(decimals - 2), nothing more, nothing less), enough confirmations.
 * A transaction with several transfers is judged by the one that matches best; only a transfer
 * to our address can ever match.
 */
export function judge(settings: VerifiedNetwork, claim: DepositClaim, receipt: RpcReceipt | null, latest: bigint, checkedAt: Date): ChainEvidence {
  const base: ChainEvidence = {
    verdict: "not_found",
    checkedAt: checkedAt.toISOString(),
    found: false,
    status: null,
    blockNumber: null,
    confirmations: null,
    requiredConfirmations: settings.confirmations,
    token: null,
    tokenIsUsdt: false,
    from: null,
    to: null,
    amount: null,
    transfers: 0,
    error: null,
  };
  if (!receipt || !receipt.blockNumber) return base;
  const block = BigInt(receipt.blockNumber);
  const confirmations = latest >= block ? Number(latest - block + 1n) : 0;
  const status = receipt.status === "0x1" ? "success" : "reverted";
  const transfers = transfersOf(receipt);
  const found: ChainEvidence = { ...base, found: true, status, blockNumber: block.toString(), confirmations, transfers: transfers.length };

  const usdt = transfers.filter((t) => t.token === settings.token);
  const toUs = transfers.filter((t) => t.to === settings.depositHex);
  const ours = usdt.filter((t) => t.to === settings.depositHex);
  const fromSender = ours.filter((t) => claim.senderHex !== null && t.from === claim.senderHex);
  const expected = unitsOfCents(claim.amount, settings.decimals);
  const exact = fromSender.filter((t) => t.value === expected);
  const shown = exact[0] ?? fromSender[0] ?? ours[0] ?? toUs[0] ?? usdt[0] ?? transfers[0];
  const evidence: ChainEvidence = shown
    ? {
        ...found,
        token: displayAddress(settings.network, shown.token),
        tokenIsUsdt: shown.token === settings.token,
        from: displayAddress(settings.network, shown.from),
        to: displayAddress(settings.network, shown.to),
        amount: shown.token === settings.token ? formatTokenAmount(shown.value, settings.decimals) : shown.value.toString(),
      }
    : found;

  const verdict: ChainVerdict =
    status !== "success"
      ? "reverted"
      : ours.length === 0
        ? toUs.length > 0
          ? "wrong_token"
          : "not_to_us"
        : fromSender.length === 0
          ? "wrong_sender"
          : exact.length === 0
            ? "wrong_amount"
            : confirmations < settings.confirmations
              ? "confirming"
              : "match";
  return { ...evidence, verdict };
}

/** Looks at the chain for `claim`. Never throws: a node error or time-out is the verdict `rpc_error`. */
export async function checkDeposit(settings: VerifiedNetwork, claim: DepositClaim, timeoutMs: number, now = () => new Date()): Promise<ChainEvidence> {
  const client = clientFor(settings.rpcUrl, timeoutMs);
  try {
    const receipt = (await client.request({
      method: "eth_getTransactionReceipt",
      params: [`0x${claim.txHash}`],
    })) as RpcReceipt | null;
    // A receipt for another transaction (a faulty or caching proxy in front of the node) says
    // nothing about this one: it is a node error, never evidence.
    if (receipt && receipt.transactionHash?.toLowerCase() !== `0x${claim.txHash}`) {
      throw new Error(`the node answered with the receipt of another transaction (${String(receipt.transactionHash).slice(0, 80)})`);
    }
    // The latest block after the receipt, so that it is never older than the receipt's block.
    const latest = receipt ? BigInt((await client.request({ method: "eth_blockNumber" })) as string) : 0n;
    return judge(settings, claim, receipt, latest, now());
  } catch (error) {
    const message = error instanceof Error ? ((error as { shortMessage?: string }).shortMessage ?? error.message) : String(error);
    return { ...judge(settings, claim, null, 0n, now()), verdict: "rpc_error", error: message.slice(0, 300) };
  }
}
