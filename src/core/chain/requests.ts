import { and, eq, isNotNull, isNull, ne, sql } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { deposits, withdrawals } from "../../db/schema";
import { DEFAULT_NETWORK, type Network, networkOfMethod, readTransactionId } from "../../shared/chain";
import type { Cents } from "../../shared/money";
import { refuse, refuseField } from "../errors";
import { isUniqueViolation } from "../tx";
import { ADVISORY_LOCKS } from "../advisoryLocks";
import { readAddress } from "./addresses";

/**
 * Deposit and withdrawal requests and their transaction IDs (docs/rules.md#deposits): the row of
 * a new deposit (canonical ID, address checked in full), the clash with a live request, the payout
 * ID of a withdrawal, and the columns the admin's list shows.
 */

/** The unique index that keeps one live request per canonical transaction ID, whatever the network. */
export const LIVE_TX_INDEX = "deposits_live_tx_uq";

/** The unique index that keeps a payout's canonical transaction ID on one withdrawal. */
export const PAYOUT_TX_INDEX = "withdrawals_payout_tx_uq";

/**
 * Until this transaction ends, no other one checks or claims this canonical transaction ID, as a
 * deposit or as a payout: the two live in different tables, so no unique index can settle a
 * deposit and a payout racing with the same ID. Keyed on the ID's first 32 bits. Taken after the
 * request's row and the people's, before any `accounts` row (docs/rules.md#lock-order).
 */
export async function lockTxHash(tx: Tx, txHash: string): Promise<void> {
  const key = Number.parseInt(txHash.slice(0, 8), 16) | 0;
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${ADVISORY_LOCKS.txHash}::int, ${key}::int)`);
}

/** Whether a withdrawal's payout is this transaction (`except`: that withdrawal does not count). */
async function isPayout(tx: Tx, txHash: string, except?: string): Promise<boolean> {
  const [payout] = await tx
    .select({ id: withdrawals.id })
    .from(withdrawals)
    .where(except === undefined ? eq(withdrawals.payoutTxHash, txHash) : and(eq(withdrawals.payoutTxHash, txHash), ne(withdrawals.id, except)))
    .limit(1);
  return payout !== undefined;
}

/**
 * Whether a pending or accepted deposit has this transaction, on any network. `claimsOnly`: leave
 * out transfers the address watcher read (a payout may well be a transfer to a member's address).
 */
async function isLiveDeposit(tx: Tx, txHash: string, claimsOnly = false): Promise<boolean> {
  const [clash] = await tx
    .select({ id: deposits.id })
    .from(deposits)
    .where(and(eq(deposits.txHash, txHash), sql`${deposits.status} <> 'declined'`, claimsOnly ? isNull(deposits.logIndex) : undefined))
    .limit(1);
  return clash !== undefined;
}

/** Whether the address watcher recorded a transfer of this transaction (live: not declined). */
async function isWatchedTransfer(tx: Tx, txHash: string): Promise<boolean> {
  const [watched] = await tx
    .select({ id: deposits.id })
    .from(deposits)
    .where(and(eq(deposits.txHash, txHash), isNotNull(deposits.logIndex), sql`${deposits.status} <> 'declined'`))
    .limit(1);
  return watched !== undefined;
}

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
  if ("problem" in id) return refuseField("transactionId", "validation", id.problem);
  const address = readAddress(network, input.address);
  // Only the server checks the checksum: the form learns which field it is about.
  if ("problem" in address) return refuseField("address", "validation", address.problem);
  return {
    network,
    address: address.display,
    transactionId: id.display,
    txHash: id.canonical,
    amount: input.amount,
    nextCheckAt: checkOnChain ? sql`now()` : null,
  };
}

/**
 * Whether a new deposit request's transaction is taken: a pending or accepted request has it, on
 * any network (TRC20 and BEP20 IDs share the canonical form: the same 32 bytes are one
 * transaction), or it is a withdrawal's payout (the platform's own payment, shown to the member).
 * The caller holds the ID's lock (lockTxHash), so that a payout cannot take it meanwhile.
 */
export async function liveDepositClash(tx: Tx, row: { txHash: string }): Promise<boolean> {
  return (await isLiveDeposit(tx, row.txHash)) || (await isPayout(tx, row.txHash));
}

/**
 * A deposit being accepted that has no canonical ID (a request from before verification) takes
 * the one its typed text names, read loosely by the database function `typed_tx_hash`
 * (migration 0016: NFKC, every space and invisible character dropped, lower case, no 0x), in the
 * same transaction as the credit: the unique index of live requests then refuses it
 * (`duplicate_transaction`) while another pending or accepted request holds that transaction.
 * Migrations 0008, 0016 and 0018 gave the canonical ID to one live request per transaction (an
 * accepted one first) and left the others without one; without this, an admin could accept each
 * of them, one transaction credited once per spelling (or per network). Text that names no
 * transaction stays as it is: the admin's judgment. Either way, a deposit whose transaction is a
 * withdrawal's payout (a request from before payouts were checked) is refused too.
 */
export async function adoptTypedTxHash(tx: Tx, depositId: string): Promise<void> {
  const [row] = await tx
    .select({ named: sql<string | null>`typed_tx_hash(${deposits.transactionId})`, txHash: deposits.txHash, logIndex: deposits.logIndex })
    .from(deposits)
    .where(eq(deposits.id, depositId));
  // A transfer the address watcher read is its own proof, kept once by its own unique index.
  if (row?.logIndex != null) return;
  const hash = row?.txHash ?? row?.named ?? null;
  if (!row || hash === null) return;
  await lockTxHash(tx, hash);
  if ((await isPayout(tx, hash)) || (await isWatchedTransfer(tx, hash))) return refuse("duplicate_transaction");
  if (row.txHash !== null) return;
  try {
    await tx.update(deposits).set({ txHash: row.named }).where(eq(deposits.id, depositId));
  } catch (error) {
    if (isUniqueViolation(error, LIVE_TX_INDEX)) return refuse("duplicate_transaction");
    throw error;
  }
}

/**
 * Records the payout's transaction ID on a withdrawal being accepted (after its row is claimed,
 * before its accounts are locked: the ID's lock comes before them): checked against the
 * withdrawal's own network (src/shared/chain.ts), kept in canonical form. Answers it as the
 * network writes it, for the audit record. Refused (`duplicate_transaction`) when another
 * withdrawal's payout or a pending or accepted deposit request has that transaction, on any
 * network; the unique index of payouts settles two decisions racing with it.
 */
export async function recordPayout(tx: Tx, withdrawalId: string, text: string): Promise<string> {
  const [row] = await tx.select({ method: withdrawals.accountType }).from(withdrawals).where(eq(withdrawals.id, withdrawalId));
  if (!row) return refuse("request_not_found");
  const id = readTransactionId(networkOfMethod(row.method), text);
  if ("problem" in id) return refuse("validation", id.problem.replace("The transaction ID", "The payout transaction ID"));
  await lockTxHash(tx, id.canonical);
  if ((await isPayout(tx, id.canonical, withdrawalId)) || (await isLiveDeposit(tx, id.canonical, true))) return refuse("duplicate_transaction");
  try {
    await tx.update(withdrawals).set({ payoutTxHash: id.canonical }).where(eq(withdrawals.id, withdrawalId));
  } catch (error) {
    if (isUniqueViolation(error, PAYOUT_TX_INDEX)) return refuse("duplicate_transaction");
    throw error;
  }
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
  toAddress: deposits.toAddress,
  chainAmount: deposits.chainAmount,
};

/** The admin's withdrawal list: the payout's transaction ID as the network writes it, when recorded. */
export const payoutTransactionIdColumn = sql<string | null>`CASE WHEN ${withdrawals.payoutTxHash} IS NULL THEN NULL WHEN ${withdrawals.accountType} LIKE '%BEP20' THEN '0x' || ${withdrawals.payoutTxHash} ELSE ${withdrawals.payoutTxHash} END`;
