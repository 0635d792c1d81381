import type { Db, Tx } from "../db/client";
import { isConnectionLost } from "../db/connectionLost";
import { transactionBegunWithFirst } from "../db/pipelinedBegin";
import { announced, publish } from "./liveEvents";

const RETRYABLE = new Set(["40001", "40P01"]); // serialization failure, deadlock detected

export function pgCode(error: unknown): string | undefined {
  for (let e: unknown = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && code.length === 5) return code;
  }
  return undefined;
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (pgCode(error) !== "23505") return false;
  if (!constraint) return true;
  for (let e: unknown = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    const name = (e as { constraint_name?: string; constraint?: string }).constraint_name ?? (e as { constraint?: string }).constraint;
    if (name) return name === constraint;
  }
  return String((error as Error)?.message ?? "").includes(constraint);
}

/**
 * What each transaction's work sent with its COMMIT (sendWithCommit): the statements, and the
 * transaction's live events when the last of them reads them.
 */
const sentLast = new WeakMap<Tx, { statements: Promise<unknown>[]; events?: Promise<string[]> }>();

/**
 * `statement`, the last of the work of inTransaction, goes out with the COMMIT: the work returns
 * without waiting for it, so the statement, the events read and the COMMIT are sent one after
 * the other, and answered in one round trip. It must refuse by failing, never by what it answers (nobody reads it before
 * the COMMIT): its error aborts the transaction, Postgres answers the COMMIT with a rollback, and
 * inTransaction throws that error (so a deadlock in it is retried as any other). `transfer` is
 * such a statement (src/core/ledger.ts).
 *
 * `events`: the transaction's live events as the statement answers them, read by the statement
 * itself after its own announcements (every event announced in the transaction: announced's
 * read, made by the statement). Then inTransaction makes no read of its own, and the statement
 * and the COMMIT go out alone (`transferAnswering`, src/core/ledger.ts).
 */
export function sendWithCommit(tx: Tx, statement: Promise<unknown>, events?: Promise<string[]>): void {
  const last = sentLast.get(tx);
  if (!last) throw new Error("sendWithCommit is for the work of inTransaction, which sends the COMMIT");
  statement.catch(() => {});
  last.statements.push(statement);
  // Only the last statement's read has them all: one sent after it without them voids it.
  events?.catch(() => {});
  last.events = events;
}

/**
 * Runs `work` in one database transaction: all of its writes happen or none do. Deadlocks,
 * serialization failures and a connection lost before the COMMIT are retried with a short
 * jittered back-off, so callers never see them.
 * The live events the work announced are published once the commit has succeeded
 * (liveEvents.ts): a rolled-back attempt publishes nothing.
 *
 * `beginWithFirst`: the BEGIN goes out with the work's first statement, which must check that it
 * runs inside the transaction (src/db/pipelinedBegin.ts).
 */
export async function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>, options: { attempts?: number; beginWithFirst?: boolean } = {}): Promise<T> {
  const { attempts = 8, beginWithFirst = false } = options;
  const open = <R>(inside: (tx: Tx) => Promise<R>) => (beginWithFirst ? transactionBegunWithFirst(db, inside) : db.transaction(inside));
  let lostBefore = false;
  for (let attempt = 1; ; attempt++) {
    const last: { statements: Promise<unknown>[]; events?: Promise<string[]> } = { statements: [] };
    let committing = false;
    try {
      let done: { result: T; events: Promise<string[]> };
      try {
        done = await open(async (tx) => {
          sentLast.set(tx, last);
          const result = await work(tx);
          committing = true;
          // Read by the last statement (sendWithCommit's `events`), or sent now and answered before
          // the COMMIT that follows it at once: the events are read in the commit's round trip, not
          // one of their own. Should the read fail, the transaction is aborted, Postgres answers
          // the COMMIT with a rollback, and the failure is thrown below.
          let events = last.events;
          if (!events) {
            events = announced(tx);
            events.catch(() => {});
          }
          return { result, events };
        });
      } finally {
        // A statement sent with the COMMIT that failed aborted the transaction (the events read
        // failed after it, and the COMMIT rolled back, or the driver said so): its failure, the
        // cause, is the one thrown.
        for (const statement of last.statements) await statement;
      }
      publish(db, await done.events);
      return done.result;
    } catch (error) {
      // A connection lost before the COMMIT was sent committed nothing: the work runs again (on
      // another connection). Lost after, the outcome is unknown, and said so (503).
      // Once: a database that is down answers 503 at once, not after every attempt.
      const lostFirst: boolean = !committing && !lostBefore && isConnectionLost(error);
      lostBefore ||= lostFirst;
      if (attempt >= attempts || !(RETRYABLE.has(pgCode(error) ?? "") || lostFirst)) throw error;
      await Bun.sleep(Math.random() * 5 * attempt);
    }
  }
}
