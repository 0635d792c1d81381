import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "../db/client";
import { accounts, transfers, type TransferKind } from "../db/schema";
import { MAX_BALANCE } from "../shared/constants";
import type { Cents } from "../shared/money";
import type { ErrorCode } from "../shared/errors";
import { refuse } from "./errors";
import { EVENTS_CHANNEL, type LiveEvent } from "./notifications";

/** The operator's own funds: unplaced pass-ups, withdrawal fees, admin gifts. */
export const SYSTEM = "system";
/** The outside world: deposits come from it, paid-out withdrawals go to it. */
export const EXTERNAL = "external";

export interface TransferInput {
  from: string;
  to: string;
  amount: Cents;
  kind: TransferKind;
  requestId?: string;
  program?: string;
  level?: number;
  /** Message for the refusal when `from` is a user whose available balance is short. */
  insufficientCode?: ErrorCode;
}

/**
 * Locks the given accounts in one fixed order (by id), so that transactions touching the same
 * accounts queue instead of deadlocking.
 */
export async function lockAccounts(tx: Tx, ids: string[]) {
  const unique = [...new Set(ids)].sort();
  return tx
    .select({ id: accounts.id, kind: accounts.kind, balance: accounts.balance, held: accounts.held })
    .from(accounts)
    .where(inArray(accounts.id, unique))
    .orderBy(asc(accounts.id))
    .for("update");
}

/**
 * Moves `amount` from one account to another and records it in the ledger. A user account is
 * debited only when its available balance (balance minus held withdrawals) covers the amount;
 * otherwise the whole operation is refused with `insufficientCode`.
 *
 * No balance passes MAX_BALANCE (docs/rules.md#money): a credit that would take the receiving
 * account above it, or a debit that would take `system` or `external` (which may go negative)
 * below minus it, is refused with `balance_limit`. Both are conditions of the same UPDATE that
 * moves the money, written so that the comparison itself cannot overflow.
 */
export async function transfer(tx: Tx, input: TransferInput): Promise<bigint> {
  const { from, to, amount, kind } = input;
  if (amount <= 0n) throw new Error(`transfer amount must be positive, got ${amount}`);
  if (from === to) throw new Error("transfer needs two different accounts");
  if (amount > MAX_BALANCE) return refuse("balance_limit");

  const debit = () =>
    tx
      .update(accounts)
      .set({ balance: sql`${accounts.balance} - ${amount}` })
      .where(
        and(
          eq(accounts.id, from),
          sql`(CASE WHEN ${accounts.kind} = 'user' THEN ${accounts.balance} - ${accounts.held} >= ${amount} ELSE ${accounts.balance} >= ${amount - MAX_BALANCE} END)`,
        ),
      )
      .returning({ balance: accounts.balance });
  const credit = () =>
    tx
      .update(accounts)
      .set({ balance: sql`${accounts.balance} + ${amount}` })
      .where(and(eq(accounts.id, to), sql`${accounts.balance} <= ${MAX_BALANCE - amount}`))
      .returning({ balance: accounts.balance });
  /** Why the debit matched no row: a user short of money, or an operator account at its floor. */
  const debitRefusal = async () => {
    const [payer] = await tx.select({ kind: accounts.kind }).from(accounts).where(eq(accounts.id, from));
    if (!payer) throw new Error(`account ${from} does not exist`);
    return refuse(payer.kind === "user" ? (input.insufficientCode ?? "insufficient_balance") : "balance_limit");
  };
  const creditRefusal = async () => {
    const [payee] = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, to));
    if (!payee) throw new Error(`account ${to} does not exist`);
    return refuse("balance_limit");
  };

  // Row locks are taken in id order, the same order lockAccounts uses.
  let debited: { balance: bigint }[];
  let credited: { balance: bigint }[];
  if (from < to) {
    debited = await debit();
    if (debited.length === 0) return debitRefusal();
    credited = await credit();
    if (credited.length === 0) return creditRefusal();
  } else {
    credited = await credit();
    if (credited.length === 0) return creditRefusal();
    debited = await debit();
    if (debited.length === 0) return debitRefusal();
  }

  const [row] = await tx
    .insert(transfers)
    .values({
      fromAccount: from,
      toAccount: to,
      amount,
      kind,
      fromBalanceAfter: debited[0]!.balance,
      toBalanceAfter: credited[0]!.balance,
      requestId: input.requestId ?? null,
      program: input.program ?? null,
      level: input.level ?? null,
    })
    // The members' live streams hear that their balance changed, at commit (src/core/notifications.ts).
    .returning({ id: transfers.id, signal: balanceSignal([from, to]) });
  return row!.id;
}

/**
 * A pg_notify of the user accounts among `ids` (their available balance changed), as a column of
 * the statement that changes it: no round trip of its own, delivered only at commit.
 */
function balanceSignal(ids: string[]) {
  const users = ids.filter((id) => id !== SYSTEM && id !== EXTERNAL);
  const event: LiveEvent = { t: "b", u: users };
  return users.length === 0 ? sql<null>`null` : sql<null>`pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify(event)})`;
}

/** Adds to (or, with a negative delta, releases) the amount held for pending withdrawals. */
export async function hold(tx: Tx, accountId: string, delta: Cents, insufficientCode: ErrorCode): Promise<void> {
  const updated = await tx
    .update(accounts)
    .set({ held: sql`${accounts.held} + ${delta}` })
    .where(
      and(
        eq(accounts.id, accountId),
        delta > 0n ? sql`${accounts.balance} - ${accounts.held} >= ${delta}` : sql`${accounts.held} + ${delta} >= 0`,
      ),
    )
    .returning({ id: accounts.id, signal: balanceSignal([accountId]) });
  if (updated.length === 0) refuse(insufficientCode);
}

export async function createAccount(tx: Tx, id: string, kind: "user" | "system" | "external"): Promise<void> {
  await tx.insert(accounts).values({ id, kind }).onConflictDoNothing();
}
