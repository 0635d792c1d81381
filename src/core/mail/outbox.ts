import { sql } from "drizzle-orm";
import { type Db, rowsOf, type Tx } from "../../db/client";
import type { MailTemplate } from "./templates";

/**
 * The mail outbox (docs/rules.md#account-recovery-and-mail). A mail is a row of `mail_outbox`
 * written in the transaction of what causes it, so a cause that rolls back mails nothing, and one
 * that commits is mailed even when no SMTP server answers at the time. `cause_key` is unique:
 * however often a cause is recorded, it mails once. The mailers of every server process
 * (src/server/mailer.ts) claim due rows, send them after the commit, and retry with growing
 * pauses while the SMTP server is down or refuses.
 */

export interface NewMail {
  /** Unique per cause: "reset:<token id>", "signin:<session>", "withdrawal:<id>:requested"... */
  causeKey: string;
  /** The member the mail is about; their name goes into the mail. */
  userId: string;
  /** The address to mail; the member's current one when absent. */
  to?: string;
  template: MailTemplate;
  data?: Record<string, unknown>;
}

/**
 * Queues a mail in the caller's transaction (or on its own, atomically, on `db`). One statement:
 * the member's name and address are read in it; a deleted member is mailed nothing. It inserts a
 * row of its own only and locks no row of anyone's, so it adds no step to the lock order.
 */
export async function queueMail(tx: Tx | Db, mail: NewMail): Promise<void> {
  await tx.execute(sql`
    INSERT INTO mail_outbox (cause_key, user_id, to_address, template, data)
    SELECT ${mail.causeKey}, u.id, coalesce(${mail.to ?? null}::text, u.email), ${mail.template},
      jsonb_build_object('name', u.name) || ${JSON.stringify(mail.data ?? {})}::jsonb
    FROM users u
    WHERE u.id = ${mail.userId} AND u.deleted_at IS NULL
    ON CONFLICT (cause_key) DO NOTHING`);
}

/** A mail a mailer claimed: its row, and the attempt it claimed it in (the fence of its outcome). */
export interface ClaimedMail {
  id: string;
  causeKey: string;
  to: string;
  template: MailTemplate;
  data: Record<string, unknown>;
  createdAt: Date;
  attempt: number;
}

interface ClaimedRow {
  id: string;
  cause_key: string;
  to_address: string;
  template: MailTemplate;
  data: Record<string, unknown> | string | null;
  created_at: Date | string;
  attempts: number | string;
}

/**
 * Claims up to `limit` mails that are due, in one statement: their next attempt moves
 * `leaseSeconds` ahead (no other mailer takes them meanwhile; a mailer that dies mid-send leaves
 * them to be taken again when the lease ends) and their attempt count grows (a later claim
 * fences the earlier one's outcome). FOR UPDATE SKIP LOCKED: mailers claiming at once never take
 * the same mail, nor wait for each other.
 */
export async function claimDueMail(db: Db, limit: number, leaseSeconds: number): Promise<ClaimedMail[]> {
  const rows = rowsOf<ClaimedRow>(
    await db.execute(sql`
      UPDATE mail_outbox
      SET next_attempt_at = now() + make_interval(secs => ${leaseSeconds}), attempts = attempts + 1
      WHERE id IN (
        SELECT id FROM mail_outbox
        WHERE sent_at IS NULL AND next_attempt_at <= now()
        ORDER BY next_attempt_at
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED)
      RETURNING id::text AS id, cause_key, to_address, template, data, created_at, attempts`),
  );
  return rows.map((r) => ({
    id: r.id,
    causeKey: r.cause_key,
    to: r.to_address,
    template: r.template,
    data: (typeof r.data === "string" ? JSON.parse(r.data) : r.data) ?? {},
    createdAt: new Date(r.created_at),
    attempt: Number(r.attempts),
  }));
}

/**
 * The mail was accepted by the SMTP server (or logged): sent. What it held (a link's token among
 * it) is forgotten; the subject stays, for the operator. Fenced: a claim made since (this send
 * outlived its lease) speaks instead.
 */
export async function markSent(db: Db, mail: ClaimedMail, subject: string): Promise<void> {
  await db.execute(sql`
    UPDATE mail_outbox SET sent_at = now(), subject = ${subject}, data = NULL, last_error = NULL
    WHERE id = ${mail.id} AND attempts = ${mail.attempt} AND sent_at IS NULL`);
}

/** The send failed: tried again after `retrySeconds`, with the reason kept for the operator. */
export async function markFailed(db: Db, mail: ClaimedMail, reason: string, retrySeconds: number): Promise<void> {
  await db.execute(sql`
    UPDATE mail_outbox SET next_attempt_at = now() + make_interval(secs => ${retrySeconds}), last_error = ${reason.slice(0, 500)}
    WHERE id = ${mail.id} AND attempts = ${mail.attempt} AND sent_at IS NULL`);
}

/** Sent mails older than `days` go (about one pass in fifty calls this). */
export async function sweepSentMail(db: Db, days: number): Promise<void> {
  await db.execute(sql`DELETE FROM mail_outbox WHERE sent_at < now() - make_interval(days => ${days})`);
}
