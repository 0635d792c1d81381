import { withoutQueryParams } from "./errors";
import { type SQL, sql } from "drizzle-orm";
import { type Db, finishBeforeClose, type Tx } from "../db/client";
import { runPrepared, statementOnce } from "./prepared";
import type { NotificationKind } from "../shared/constants";

/**
 * The live events: hints to the members' open streams (src/server/events.ts) that something of
 * theirs changed. They travel on Postgres NOTIFY (PGlite has the same in one process), but not
 * from inside the operation's transaction: Postgres makes every transaction that notifies commit
 * one after another (it holds a database-wide lock from the notify until its commit is on disk),
 * which capped money operations at the disk's flush rate (a bare UPDATE went from about 4,800 to
 * 1,700 transactions a second when it also notified; docs/performance.md).
 *
 * So an operation announces its events in its transaction (`announce`: kept in a
 * transaction-local setting, so a rolled-back transaction or savepoint announces nothing), and
 * inTransaction (tx.ts) reads them just before the commit and publishes them once the commit has
 * succeeded: a process's events go out in batches, one NOTIFY statement at a time (`publish`).
 *
 * What that changes for the streams: events of different operations may arrive in another order
 * than their commits, and a process that dies between a commit and its publish loses those
 * events. Neither loses a notification: the streams take a notification event as a hint and read
 * the member's notifications from the table after the last one sent (ids grow in commit order per
 * member), and each process also looks for notifications its streams have not had every
 * CATCH_UP_MS (events.ts). A lost balance or pending hint means a screen refreshes at its next
 * event instead.
 */

export const EVENTS_CHANNEL = "matrix_events";

/** What travels on EVENTS_CHANNEL (JSON): a new notification, balances changed, pending requests changed. */
export type LiveEvent =
  | { t: "n"; u: string; id: string; kind: NotificationKind; text: string; at: string }
  | { t: "b"; u: string[] }
  | { t: "p" }
  /** Close the member's streams: all of them, or those of one token (`j`, its jti: a logout). */
  | { t: "x"; u: string; j?: string };

/** The transaction-local setting the announced events gather in, separated by RECORD_SEPARATOR. */
const SETTING = "matrix.live_events";
const RECORD_SEPARATOR = "\u001e";

/**
 * SQL: announces `payload` (an SQL text expression: a LiveEvent as JSON) from inside a statement
 * of the caller's transaction, for instance as a column of a RETURNING list: published after the
 * commit, never if it rolls back. Answers text (nothing to read).
 */
export function announceSql(payload: SQL): SQL<string> {
  return sql<string>`set_config('${sql.raw(SETTING)}', coalesce(current_setting('${sql.raw(SETTING)}', true), '') || (${payload}) || chr(30), true)`;
}

/** Announces `event` in the caller's transaction (see announceSql): one round trip. */
export async function announce(tx: Tx, event: LiveEvent): Promise<void> {
  await announceStatement(tx, { event: JSON.stringify(event) });
}

const announceStatement = statementOnce("live_events_announce", sql`SELECT ${announceSql(sql`${sql.placeholder("event")}::text`)}`);

/** The events announced in the caller's transaction so far (inTransaction reads them before committing, every transaction). */
export async function announced(tx: Tx): Promise<string[]> {
  const [row] = await announcedStatement(tx, {});
  return announcedEvents(row?.events ?? null);
}

/**
 * SQL: the events announced in the transaction so far, as text (announcedEvents reads it): for a
 * statement that answers them itself, after its own announcements (src/core/tx.ts sendWithCommit).
 */
export const announcedSql = sql<string | null>`current_setting('${sql.raw(SETTING)}', true)`;

/** The events in announcedSql's text. */
export function announcedEvents(text: string | null): string[] {
  return (text ?? "").split(RECORD_SEPARATOR).filter((e) => e !== "");
}

const announcedStatement = statementOnce<{ events: string | null }>("live_events_announced", sql`SELECT ${announcedSql} AS events`);

/**
 * `gapMs`: at most one NOTIFY transaction per this many milliseconds, per process and database.
 * Under load the events of many operations share one; each is a transaction Postgres commits one
 * at a time, and the server sends and reads. When every purchase made its own, they cost the
 * server about 70 us of CPU a purchase and Postgres 10 to 40 (docs/performance.md). An
 * event after a quiet spell goes at once; one under load waits at most this long, well within
 * what a member watching a screen notices. (Tests lengthen it to see it work.)
 */
export const publishing = { gapMs: 10 };

/** Events waiting to be published, per database handle, whether a publish is under way, and when the last began. */
const outboxes = new WeakMap<Db, { waiting: string[]; busy: boolean; lastAt: number }>();

/**
 * Publishes committed events on EVENTS_CHANNEL. Events that come while a NOTIFY statement is on
 * its way, or within `publishing.gapMs` of the last one's start, wait and go together in the next, so
 * a busy process sends few: each is a transaction of its own, which Postgres commits one at a
 * time. Its commit does not wait for the disk (synchronous_commit off: the events are hints, with
 * nothing to keep). A failure is logged; the streams' own catch-up covers what was lost.
 */
export function publish(db: Db, events: string[]): void {
  if (events.length === 0) return;
  let outbox = outboxes.get(db);
  if (!outbox) outboxes.set(db, (outbox = { waiting: [], busy: false, lastAt: -Infinity }));
  outbox.waiting.push(...events);
  if (outbox.busy) return;
  outbox.busy = true;
  const box = outbox;
  // The database's close() waits for the last publish (it may be waiting out the gap).
  finishBeforeClose(db, (async () => {
    while (box.waiting.length > 0) {
      const wait = box.lastAt + publishing.gapMs - performance.now();
      if (wait > 0) await Bun.sleep(wait);
      box.lastAt = performance.now();
      const batch = box.waiting.splice(0, box.waiting.length);
      try {
        // One statement, its own transaction; the setting lasts to the end of it, its commit.
        await runPrepared(
          db,
          "live_events_publish",
          sql`SELECT set_config('synchronous_commit', 'off', true), pg_notify(${EVENTS_CHANNEL}, e) FROM json_array_elements_text(${JSON.stringify(batch)}::json) AS e`,
        );
      } catch (error) {
        console.error("live events: a publish failed", withoutQueryParams(error));
      }
    }
    box.busy = false;
  })());
}
