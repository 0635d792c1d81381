import { sql } from "drizzle-orm";
import { PostgresJsSession, PostgresJsTransaction } from "drizzle-orm/postgres-js/session";
import type { ReservedSql, Sql } from "postgres";
import type { Db, Tx } from "./client";

/**
 * A transaction whose BEGIN goes out with its first statement, in one write: one round trip
 * fewer (docs/rules.md, "One transaction per operation").
 *
 * The danger is a BEGIN that fails (a cancel request that lands on it, say) while the statement
 * behind it is already on its way: that statement would run on its own, outside any transaction,
 * and commit alone. So the BEGIN marks its transaction, and the first statement must check the
 * mark (`inBlock`): where the check fails, the statement writes and locks nothing. The driver
 * enforces its half: a first statement that does not check the mark is not sent, a second one is
 * not sent before the BEGIN has answered, and once a BEGIN has failed, nothing more is sent and
 * the transaction fails with the BEGIN's error.
 *
 * The mark is DEFERRABLE, which costs no statement of its own: `BEGIN DEFERRABLE` makes
 * `transaction_deferrable` read 'on' for the transaction, and nothing else (it changes nothing
 * unless the transaction is also SERIALIZABLE and READ ONLY, and ours read and write). Outside it
 * the setting reads its default, 'off' (the pool pins the default, src/db/client.ts).
 *
 * The check: `${inBlock} = ${blockMark(tx)}`. blockMark is 'on' in such a transaction and 'off'
 * in any other (where BEGIN was answered before anything else was sent, or on the embedded
 * database, which has no wire).
 */
const IN_BLOCK_TEXT = "current_setting('transaction_deferrable')";
export const inBlock = sql.raw(IN_BLOCK_TEXT);

/** The BEGIN, marked. */
const BEGIN = "BEGIN DEFERRABLE";

/** Marks the driver handle of a transaction begun with its first statement. */
const BEGUN_WITH_FIRST = Symbol("begun with its first statement");

/** What `inBlock` must equal in the first statement of the transaction `tx` (see above). */
export function blockMark(tx: Tx): "on" | "off" {
  const client = (tx._.session as unknown as { client?: Record<symbol, unknown> }).client;
  return client?.[BEGUN_WITH_FIRST] === true ? "on" : "off";
}

/** The part of postgres.js's handle that drizzle's session and runPrepared use. */
type Scoped = Pick<Sql, "unsafe"> & { savepoint: (work: (sql: Scoped) => Promise<unknown>) => Promise<unknown>; [BEGUN_WITH_FIRST]: true };

/**
 * Runs `work` in a transaction whose BEGIN goes with its first statement, on postgres.js; on the
 * embedded database (no round trips to save) a transaction as any other.
 */
export function transactionBegunWithFirst<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  const session: unknown = db._.session;
  if (!(session instanceof PostgresJsSession)) return db.transaction(work);
  // As drizzle's own transaction does (PostgresJsSession.transaction), on a handle of ours.
  const { client, dialect, schema, options } = session as unknown as { client: Sql; dialect: never; schema: never; options: never };
  return beginWithFirst(client, (scoped) => {
    const inner = new PostgresJsSession(scoped as never, dialect, schema, options);
    return work(new PostgresJsTransaction(dialect, inner, schema) as unknown as Tx);
  });
}

async function beginWithFirst<T>(pool: Sql, work: (scoped: Scoped) => Promise<T>): Promise<T> {
  const reserved: ReservedSql = await pool.reserve();
  let begun: Promise<void> | undefined;
  let answered = false;
  let failure: { error: unknown } | undefined;
  let savepoints = 0;

  /** Whether `text` may go out now; sends the BEGIN ahead of the first statement. */
  const admit = (text: string) => {
    if (failure) throw failure.error;
    if (begun) {
      if (!answered) throw new Error("a transaction's second statement was sent before its BEGIN was answered");
      return;
    }
    if (!text.includes(IN_BLOCK_TEXT)) throw new Error("the first statement of a transaction begun with it must check its BEGIN's mark (inBlock)");
    begun = reserved
      .unsafe(BEGIN)
      .execute()
      .then(
        () => void (answered = true),
        (error: unknown) => void ((answered = true), (failure = { error })),
      );
  };
  const scoped: Scoped = {
    unsafe: ((text: string, args?: unknown[], options?: object) => {
      admit(text);
      return reserved.unsafe(text, args as never, options);
    }) as Sql["unsafe"],
    // As postgres.js's: a savepoint before the work, rolled back to when the work fails.
    async savepoint(inner) {
      const name = `s${savepoints++}`;
      await scoped.unsafe(`SAVEPOINT ${name}`);
      try {
        return await inner(scoped);
      } catch (error) {
        await scoped.unsafe(`ROLLBACK TO SAVEPOINT ${name}`);
        throw error;
      }
    },
    [BEGUN_WITH_FIRST]: true,
  };

  try {
    let result: T;
    try {
      result = await work(scoped);
    } catch (error) {
      await begun;
      if (failure) throw failure.error;
      if (begun) await reserved.unsafe("ROLLBACK");
      throw error;
    }
    await begun;
    if (failure) throw failure.error;
    if (begun) await reserved.unsafe("COMMIT");
    return result;
  } finally {
    reserved.release();
  }
}
