import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Tx } from "../db/client";
import { accounts, type TransferKind } from "../db/schema";
import { MAX_BALANCE } from "../shared/constants";
import type { Cents } from "../shared/money";
import { type ErrorCode, isErrorCode } from "../shared/errors";
import { refuse } from "./errors";
import { announcedEvents, announcedSql, announceSql, type LiveEvent } from "./liveEvents";
import { statementOnce } from "./prepared";

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
 * Writes that go in the statement of a transfer, what an operation records after its money
 * moved: common table expressions (`name AS (...)`, one or more, comma-separated; not named
 * `moved_first`, `moved_second` or `recorded`). The statement is made once per `name` (and lock
 * order): `writes` gives them with placeholders (`sql.placeholder`, named apart from the
 * transfer's own: prefix them), the same on every call, and `values` fills them for this call.
 * `writes` is given `id`, an expression of the new transfer's id (null when an update was
 * refused, which refuses the whole operation and rolls it back), and `moved`, a condition that
 * holds once the money has moved: a write whose rows are read through it takes its locks after
 * the accounts'. `announcing` names the writes whose rows announce live events (announceSql, such
 * as notificationWrites' `notified`; each returns an `id` that is never null): the statement
 * reads the transaction's events after them (transferAnswering).
 */
export interface Alongside {
  name: string;
  writes: (transfer: { id: SQL; moved: SQL }) => SQL[];
  announcing?: string[];
  values: Record<string, unknown>;
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
 *
 * One statement: the account with the lower id is updated first (the lock order), then the
 * other one, then the ledger row, which takes both balances after the move. The order is the
 * statement's data flow, not the order its parts are written in: the second update matches a
 * row only once the first one has answered its row (EXISTS over the first's RETURNING), and the
 * ledger row is made from both answers. When the first update matches no row, the second updates
 * nothing. The statement is made once per shape (transferStatement), and filled on each call.
 *
 * A refused transfer fails its statement (`transfer_refused`, a function of the database that
 * looks up why and raises the refusal's code; docs/rules.md#money): the transaction is aborted
 * then and there, so nothing the statement or its transaction wrote can commit, even where the
 * statement went out with the COMMIT, unread (`sendWithCommit`, src/core/tx.ts). The refusal is
 * thrown here as the operation's.
 *
 * `alongside` adds writes to the same statement (see Alongside): rows that name the new transfer,
 * what the operation records after its money moved. They must take no row lock that the lock
 * order puts before `accounts`, or wait for `moved` first.
 */
export async function transfer(tx: Tx, input: TransferInput, alongside?: Alongside): Promise<bigint> {
  return (await transferAnswering(tx, input, alongside)).id;
}

/**
 * transfer, answering the new transfer's id and the transaction's live events, as its statement
 * read them after its own announcements and its writes': every event of the transaction so far.
 * For the last statement of a transaction, sent with the COMMIT (sendWithCommit's `events`): no
 * read of the events of its own.
 */
export async function transferAnswering(tx: Tx, input: TransferInput, alongside?: Alongside): Promise<{ id: bigint; events: string[] }> {
  const { from, to, amount, kind } = input;
  if (amount <= 0n) throw new Error(`transfer amount must be positive, got ${amount}`);
  if (from === to) throw new Error("transfer needs two different accounts");
  if (amount > MAX_BALANCE) return refuse("balance_limit");

  // The members' live streams hear that their balance changed, at commit (src/core/notifications.ts): `signal`.
  const signal = balanceEvent([from, to]);
  // Row locks are taken in id order, the same order lockAccounts uses: the lower id first.
  const statement = transferStatement(from < to, signal !== undefined, alongside);
  const values = {
    from,
    to,
    amount,
    kind,
    requestId: input.requestId ?? null,
    program: input.program ?? null,
    level: input.level ?? null,
    insufficient: input.insufficientCode ?? "insufficient_balance",
    debitFloor: amount - MAX_BALANCE,
    creditCeiling: MAX_BALANCE - amount,
    signal: signal ?? null,
    ...alongside?.values,
  };
  const [row] = await statement(tx, values).catch((error: unknown) => {
    const code = transferRefusal(error);
    if (code === NO_ACCOUNT) throw new Error(`transfer from ${from} to ${to}: no such account`);
    if (code) refuse(code);
    throw error;
  });
  return { id: BigInt(row!.id), events: announcedEvents(row!.events) };
}

type TransferStatement = (tx: Tx, values: Record<string, unknown>) => Promise<{ id: string; events: string | null }[]>;
const transferStatements = new Map<string, TransferStatement>();

/**
 * transfer()'s statement for one shape, made once: which account is updated first, whether a
 * member hears of it, and the writes alongside (by name). Its values are placeholders.
 */
function transferStatement(debitFirst: boolean, signals: boolean, alongside: Alongside | undefined): TransferStatement {
  const shape = `${debitFirst ? "debit" : "credit"} first, ${signals ? "signalled" : "silent"}, ${alongside?.name ?? "alone"}`;
  let statement = transferStatements.get(shape);
  if (statement) return statement;
  const p = (name: string) => sql.placeholder(name);
  const debit = sql`UPDATE accounts SET balance = balance - ${p("amount")}::bigint WHERE id = ${p("from")}
    AND (CASE WHEN kind = 'user' THEN balance - held >= ${p("amount")}::bigint ELSE balance >= ${p("debitFloor")}::bigint END)`;
  const credit = sql`UPDATE accounts SET balance = balance + ${p("amount")}::bigint WHERE id = ${p("to")} AND balance <= ${p("creditCeiling")}::bigint`;
  // Why nothing was recorded, for transfer_refused: the debit matched no row, or the credit did.
  const debitRefused = debitFirst ? sql`NOT EXISTS (SELECT 1 FROM moved_first)` : sql`EXISTS (SELECT 1 FROM moved_first)`;
  const signal = signals ? announceSql(sql`${p("signal")}::text`) : sql`null`;
  const extra = alongside?.writes({ id: sql`(SELECT id FROM recorded)`, moved: sql`EXISTS (SELECT 1 FROM recorded)` }) ?? [];
  // The events are read once every part that announces has run to its end (else a write the main
  // query does not read runs after it): a CASE evaluates its condition first, and looking for a
  // row without an id reads every row of the part. `recorded` (one row at most) was read by the
  // columns before. Parts that announce nothing run after, as before.
  const announcing = (alongside?.announcing ?? []).map((name) => sql`NOT EXISTS (SELECT 1 FROM ${sql.raw(name)} WHERE id IS NULL)`);
  statement = statementOnce<{ id: string; events: string | null }>(
    alongside ? `ledger_transfer_${alongside.name}` : "ledger_transfer",
    sql`WITH moved_first AS (${debitFirst ? debit : credit} RETURNING balance),
      moved_second AS (${debitFirst ? credit : debit} AND EXISTS (SELECT 1 FROM moved_first) RETURNING balance),
      recorded AS (
        INSERT INTO transfers (from_account, to_account, amount, kind, from_balance_after, to_balance_after, request_id, program, level)
        SELECT ${p("from")}::text, ${p("to")}::text, ${p("amount")}::bigint, ${p("kind")}::text, ${sql.raw(debitFirst ? "moved_first.balance, moved_second.balance" : "moved_second.balance, moved_first.balance")},
          ${p("requestId")}::text, ${p("program")}::text, ${p("level")}::smallint
        FROM moved_first, moved_second
        RETURNING id, ${signal} AS signal
      )${sql.join(extra.map((ctes) => sql`, ${ctes}`))}
      SELECT (SELECT id::text FROM recorded) AS id, (SELECT signal FROM recorded) AS signal,
        CASE WHEN NOT EXISTS (SELECT 1 FROM recorded)
          THEN transfer_refused(${debitRefused}, ${p("from")}::text, ${p("to")}::text, ${p("insufficient")}::text) END AS refused,
        ${announcing.length === 0 ? announcedSql : sql`CASE WHEN (${sql.join(announcing, sql` AND `)}) IS NOT NULL THEN ${announcedSql} END`} AS events`,
  );
  transferStatements.set(shape, statement);
  return statement;
}

/** What transfer_refused raises for an account that does not exist: not a refusal, a bug. */
const NO_ACCOUNT = "no_such_account";

/**
 * The code a transfer's statement was refused with (transfer_refused: SQLSTATE P0001, the code
 * as its message, and its hint), wherever the driver put the database's error; else undefined.
 */
function transferRefusal(error: unknown): ErrorCode | typeof NO_ACCOUNT | undefined {
  for (let e: unknown = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    const { code, message, hint } = e as { code?: unknown; message?: unknown; hint?: unknown };
    if (code !== "P0001" || hint !== TRANSFER_REFUSED_HINT) continue;
    if (message === NO_ACCOUNT || isErrorCode(message)) return message;
  }
  return undefined;
}

/** The hint transfer_refused gives its errors (drizzle/0014_transfer_refused_looks_up.sql). */
const TRANSFER_REFUSED_HINT = "transfer refused";

/**
 * The live event of the user accounts among `ids` (their available balance changed), as JSON;
 * undefined when none of them is a member's.
 */
function balanceEvent(ids: string[]): string | undefined {
  const users = ids.filter((id) => id !== SYSTEM && id !== EXTERNAL);
  return users.length === 0 ? undefined : JSON.stringify({ t: "b", u: users } satisfies LiveEvent);
}

/**
 * balanceEvent announced as a column of the statement that changes the balances: no round trip
 * of its own, published only after the commit (liveEvents.ts).
 */
function balanceSignal(ids: string[]) {
  const event = balanceEvent(ids);
  return event === undefined ? sql<null>`null` : announceSql(sql`${event}::text`);
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
