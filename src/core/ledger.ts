import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "../db/client";
import { accounts, transfers, type TransferKind } from "../db/schema";
import type { Cents } from "../shared/money";
import type { ErrorCode } from "../shared/errors";
import { refuse } from "./errors";

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
 */
export async function transfer(tx: Tx, input: TransferInput): Promise<bigint> {
  const { from, to, amount, kind } = input;
  if (amount <= 0n) throw new Error(`transfer amount must be positive, got ${amount}`);
  if (from === to) throw new Error("transfer needs two different accounts");

  const debit = () =>
    tx
      .update(accounts)
      .set({ balance: sql`${accounts.balance} - ${amount}` })
      .where(and(eq(accounts.id, from), sql`(${accounts.kind} <> 'user' OR ${accounts.balance} - ${accounts.held} >= ${amount})`))
      .returning({ balance: accounts.balance });
  const credit = () =>
    tx
      .update(accounts)
      .set({ balance: sql`${accounts.balance} + ${amount}` })
      .where(eq(accounts.id, to))
      .returning({ balance: accounts.balance });

  // Row locks are taken in id order, the same order lockAccounts uses.
  let debited: { balance: bigint }[];
  let credited: { balance: bigint }[];
  if (from < to) {
    debited = await debit();
    if (debited.length === 0) return refuse(input.insufficientCode ?? "insufficient_balance");
    credited = await credit();
  } else {
    credited = await credit();
    debited = await debit();
    if (debited.length === 0) return refuse(input.insufficientCode ?? "insufficient_balance");
  }
  if (credited.length === 0) throw new Error(`account ${to} does not exist`);

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
    .returning({ id: transfers.id });
  return row!.id;
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
    .returning({ id: accounts.id });
  if (updated.length === 0) refuse(insufficientCode);
}

export async function createAccount(tx: Tx, id: string, kind: "user" | "system" | "external"): Promise<void> {
  await tx.insert(accounts).values({ id, kind }).onConflictDoNothing();
}
