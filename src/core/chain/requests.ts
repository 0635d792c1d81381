import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { deposits, withdrawals } from "../../db/schema";
import { DEFAULT_NETWORK, type Network, networkOfMethod, readTransactionId } from "../../shared/chain";
import type { Cents } from "../../shared/money";
import { refuse } from "../errors";
import { isUniqueViolation } from "../tx";
import { readAddress } from "./addresses";

/**
 * Deposit and withdrawal requests and their transaction IDs (docs/rules.md#deposits): the row of
 * a new deposit (canonical ID, address checked in full), the clash with a live request, the payout
 * ID of a withdrawal, and the columns the admin's list shows.
 */

/** The unique index that keeps one live request per (network, canonical transaction ID). */
export const LIVE_TX_INDEX = "deposits_live_tx_uq";

export interface DepositInput {
  network?: Network;
  address: string;
  transactionId: string;
  amount: Cents;
}

/**
 * The row of a new deposit request: the transaction ID in its canonical form and as the network
 * writes it, the sender's address checked in full (checksum included). Refused (400,
 * `validation`) with the reason when either is not one of the network's. `checkOnChain`: the
 * network is verified on chain, so the watcher looks at it at once.
 */
export function depositRow(input: DepositInput, checkOnChain: boolean) {
  const network = input.network ?? DEFAULT_NETWORK;
  const id = readTransactionId(network, input.transactionId);
  if ("problem" in id) return refuse("validation", id.problem);
  const address = readAddress(network, input.address);
  if ("problem" in address) return refuse("validation", address.problem);
  return {
    network,
    address: address.display,
    transactionId: id.display,
    txHash: id.canonical,
    amount: input.amount,
    nextCheckAt: checkOnChain ? sql`now()` : null,
  };
}

/** Whether a pending or accepted request already has this transaction on this network. */
export async function liveDepositClash(tx: Tx, row: { network: Network; txHash: string }): Promise<boolean> {
  const [clash] = await tx
    .select({ id: deposits.id })
    .from(deposits)
    .where(and(eq(deposits.network, row.network), eq(deposits.txHash, row.txHash), sql`${deposits.status} <> 'declined'`));
  return clash !== undefined;
}

/**
 * A deposit being accepted that has no canonical ID (a request from before verification) takes
 * the one its typed text names, read loosely by the database function `typed_tx_hash`
 * (migration 0016: NFKC, every space and invisible character dropped, lower case, no 0x), in the
 * same transaction as the credit: the unique index of live requests then refuses it
 * (`duplicate_transaction`) while another pending or accepted request holds that transaction.
 * Migrations 0008 and 0016 gave the canonical ID to one live request per transaction (an
 * accepted one first) and left the others without one; without this, an admin could accept each
 * of them, one transaction credited once per spelling. Text that names no transaction stays as
 * it is: the admin's judgment.
 */
export async function adoptTypedTxHash(tx: Tx, depositId: string): Promise<void> {
  const [row] = await tx
    .select({ named: sql<string | null>`typed_tx_hash(${deposits.transactionId})`, txHash: deposits.txHash })
    .from(deposits)
    .where(eq(deposits.id, depositId));
  if (!row || row.txHash !== null || row.named === null) return;
  try {
    await tx.update(deposits).set({ txHash: row.named }).where(eq(deposits.id, depositId));
  } catch (error) {
    if (isUniqueViolation(error, LIVE_TX_INDEX)) return refuse("duplicate_transaction");
    throw error;
  }
}

/**
 * Records the payout's transaction ID on a withdrawal being accepted: checked against the
 * withdrawal's own network (src/shared/chain.ts), kept in canonical form. Answers it as the
 * network writes it, for the audit record.
 */
export async function recordPayout(tx: Tx, withdrawalId: string, text: string): Promise<string> {
  const [row] = await tx.select({ method: withdrawals.accountType }).from(withdrawals).where(eq(withdrawals.id, withdrawalId));
  if (!row) return refuse("request_not_found");
  const id = readTransactionId(networkOfMethod(row.method), text);
  if ("problem" in id) return refuse("validation", id.problem.replace("The transaction ID", "The payout transaction ID"));
  await tx.update(withdrawals).set({ payoutTxHash: id.canonical }).where(eq(withdrawals.id, withdrawalId));
  return id.display;
}

/** SQL: a canonical ID as `network` writes it (0x in front for BEP20); null stays null. */
export const displayedTxHash = (network: unknown, txHash: unknown) =>
  sql<string | null>`CASE WHEN ${txHash} IS NULL THEN NULL WHEN ${network} = 'BEP20' THEN '0x' || ${txHash} ELSE ${txHash} END`;

/** The columns the admin's deposit list adds for verification: the network, the canonical ID, the evidence. */
export const depositChainColumns = {
  network: deposits.network,
  /** As the network writes it; null for an old request whose typed text was no valid ID (or repeated a live one). */
  canonicalTransactionId: displayedTxHash(deposits.network, deposits.txHash),
  chain: deposits.chainEvidence,
  /** The watcher will look again (too few confirmations, a node error, not found yet). */
  checking: sql<boolean>`(${deposits.status} = 'pending' AND ${deposits.nextCheckAt} IS NOT NULL)`,
};

/** The admin's withdrawal list: the payout's transaction ID as the network writes it, when recorded. */
export const payoutTransactionIdColumn = sql<string | null>`CASE WHEN ${withdrawals.payoutTxHash} IS NULL THEN NULL WHEN ${withdrawals.accountType} LIKE '%BEP20' THEN '0x' || ${withdrawals.payoutTxHash} ELSE ${withdrawals.payoutTxHash} END`;
