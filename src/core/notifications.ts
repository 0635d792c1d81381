import { and, asc, count, desc, eq, gt, inArray, isNull, lte, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { isTransaction } from "../db/client";
import { notifications, notificationSettings, users, type Program } from "../db/schema";
import {
  ADMIN_NOTIFICATION_KINDS,
  ALWAYS_MAILED_KINDS,
  NOTIFICATION_KIND_INFO,
  NOTIFICATION_KINDS,
  NOTIFICATION_PAGE_SIZE,
  type MissedReason,
  type NotificationKind,
} from "../shared/constants";
import { refuse } from "./errors";
import { formatUsdt, type Cents } from "../shared/money";
import { pageCount } from "./util";
import { statementOnce } from "./prepared";
import { ADVISORY_LOCKS } from "./advisoryLocks";
import { announce, announceSql, publish, type LiveEvent } from "./liveEvents";

/**
 * Notifications (docs/rules.md#notifications): what a member is told, written in the transaction
 * of the event that causes it, so a refused or rolled-back operation notifies no one. Each carries
 * an event key unique per member: the same event recorded twice (a retried transaction, a replay)
 * notifies once. Live delivery: announced in the same transaction and published once it has
 * committed (./liveEvents.ts); the server's stream (src/server/events.ts) fans them out to
 * signed-in members.
 */

export { EVENTS_CHANNEL, type LiveEvent } from "./liveEvents";

export interface NewNotification {
  userId: string;
  kind: NotificationKind;
  /** Unique per member: the same event never notifies the same member twice. */
  eventKey: string;
  text: string;
  data?: Record<string, unknown>;
}

/** Records one notification in the caller's transaction; see notifyAll. */
export const notify = (tx: Tx, notification: NewNotification) => notifyAll(tx, [notification]);

/**
 * The part of notificationWrites and notificationWrite that announces (its RETURNING, with an `id`
 * never null): for a transfer's `announcing` (ledger.ts Alongside).
 */
export const NOTIFIED = "notified";

/** What `notified` returns of each notification written: its live event, announced (published after the commit). */
const announcedNotification = announceSql(sql`json_build_object('t', 'n', 'u', user_id, 'id', id::text, 'kind', kind, 'text', text, 'at', created_at)::text`);

/**
 * SQL: takes the notifications lock of the member whose id is `userId` (an expression; the lock's
 * second key is its hash), held to the transaction's end: a transaction that notifies the member
 * waits there for one that did and has not ended. Taken before the member's notifications are inserted, it makes the member's
 * notification ids grow in commit order, which the live stream's resume relies on. Two members
 * whose ids hash alike share a lock: they only take turns. (A row of a table locked by an upsert
 * did the same, and cost a written row a notification: docs/performance.md.)
 */
const memberLock = (userId: SQL) => sql`pg_advisory_xact_lock(${sql.raw(String(ADVISORY_LOCKS.notifications))}, hashtext(${userId}))`;

/**
 * Records notifications in the caller's transaction, in user id order, in one statement (the
 * writes of notificationWrites; of notificationWrite for a list of one). For each member, their
 * notifications lock is taken (memberLock, in user id order), then their notifications inserted,
 * unless an event key is already there, and announced (published once the transaction has
 * committed: liveEvents.ts).
 *
 * A kind the member muted is skipped in the same statement: one primary-key read of their
 * settings, and then neither is the member's lock taken for it nor the notification written.
 *
 * Lock order (docs/rules.md#lock-order): called last in an operation, after the accounts; the
 * notification's foreign key takes a KEY SHARE lock on the member's users row, like a missed
 * earning's.
 */
export async function notifyAll(tx: Tx, list: NewNotification[]): Promise<void> {
  if (list.length === 0) return;
  if (list.length === 1) await notifyOneStatement(tx, notificationValues("n", list[0]));
  else await notifyAllStatement(tx, { notes: notificationRows(list) });
}

const notifyAllStatement = statementOnce("notify_all", sql`WITH ${notificationWrites(sql.placeholder("notes"))} SELECT count(*) FROM ${sql.raw(NOTIFIED)}`);
const notifyOneStatement = statementOnce("notify_one", sql`WITH ${notificationWrite("n")} SELECT count(*) FROM ${sql.raw(NOTIFIED)}`);

/**
 * `list` as notificationWrites takes it: JSON, sorted by member (`u`), with each one's kind
 * (`k`), event key (`e`), text (`t`), data (`d`, left out when there is none: the column is then
 * null) and whether the member may mute its kind (`m`).
 */
export function notificationRows(list: NewNotification[]): string {
  const sorted = [...list].sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
  return JSON.stringify(sorted.map((n) => ({ u: n.userId, k: n.kind, e: n.eventKey, t: n.text, d: n.data, m: NOTIFICATION_KIND_INFO[n.kind].mutable })));
}

/**
 * notifyAll's writes, as common table expressions for a bigger statement (the last, `notified`,
 * the notifications written), of `rows` (notificationRows: a placeholder of a statement made
 * once). The members' locks are taken only for rows read through `after` (a condition), so an
 * operation that records its notifications in the statement that moves its money (transfer's
 * `alongside`, with its `moved`) still takes them after the accounts'. Every member's lock is
 * taken before any notification is inserted: the insert reads the locks' part through a sort,
 * which has all of its input before it hands over a row.
 */
export function notificationWrites(rows: Placeholder, after: SQL = sql`true`): SQL {
  return sql`notify_wanted AS (
      SELECT x.v->>'u' AS user_id, x.v->>'k' AS kind, x.v->>'e' AS event_key, x.v->>'t' AS text, x.v->'d' AS data, x.ord
      FROM jsonb_array_elements(${rows}::jsonb) WITH ORDINALITY x(v, ord)
      WHERE NOT ((x.v->>'m')::boolean
        AND EXISTS (SELECT 1 FROM notification_settings s WHERE s.user_id = x.v->>'u' AND x.v->>'k' = ANY (s.muted)))
    ),
    notify_locked AS (
      SELECT u.user_id, ${memberLock(sql`u.user_id`)} AS locked
      FROM (SELECT DISTINCT user_id FROM notify_wanted WHERE ${after} ORDER BY user_id) u
    ),
    ${sql.raw(NOTIFIED)} AS (
      INSERT INTO notifications (user_id, kind, event_key, text, data)
      SELECT w.user_id, w.kind, w.event_key, w.text, w.data FROM notify_wanted w JOIN notify_locked l ON l.user_id = w.user_id ORDER BY w.ord
      ON CONFLICT (user_id, event_key) DO NOTHING
      RETURNING id, ${announcedNotification}
    )`;
}

/**
 * notificationWrites for one notification or none, its values in placeholders of their own
 * (named `prefix` and User, Kind, Event, Text, Data, Mutable; notificationValues fills them): the
 * same parts with the same effect as notificationWrites of a list of one, without the list's JSON,
 * grouping, joining and sorting. Postgres sets up every part of a statement's plan on each run,
 * whether it has rows or not: for the one notification of most purchases, those parts cost more
 * than the writes (docs/performance.md). A null user writes nothing.
 */
export function notificationWrite(prefix: string, after: SQL = sql`true`): SQL {
  const p = (name: string) => sql.placeholder(`${prefix}${name}`);
  return sql`notify_wanted AS (
      SELECT ${p("User")}::text AS user_id, ${p("Kind")}::text AS kind, ${p("Event")}::text AS event_key, ${p("Text")}::text AS text, ${p("Data")}::jsonb AS data
      WHERE ${p("User")}::text IS NOT NULL AND NOT (${p("Mutable")}::boolean
        AND EXISTS (SELECT 1 FROM notification_settings s WHERE s.user_id = ${p("User")}::text AND ${p("Kind")}::text = ANY (s.muted)))
    ),
    notify_locked AS (
      SELECT user_id, ${memberLock(sql`user_id`)} AS locked FROM notify_wanted WHERE ${after}
    ),
    ${sql.raw(NOTIFIED)} AS (
      INSERT INTO notifications (user_id, kind, event_key, text, data)
      SELECT user_id, kind, event_key, text, data FROM notify_wanted WHERE EXISTS (SELECT 1 FROM notify_locked)
      ON CONFLICT (user_id, event_key) DO NOTHING
      RETURNING id, ${announcedNotification}
    )`;
}

/** The values of notificationWrite(prefix) for `note`, or for none. */
export function notificationValues(prefix: string, note: NewNotification | undefined): Record<string, unknown> {
  return {
    [`${prefix}User`]: note?.userId ?? null,
    [`${prefix}Kind`]: note?.kind ?? null,
    [`${prefix}Event`]: note?.eventKey ?? null,
    [`${prefix}Text`]: note?.text ?? null,
    [`${prefix}Data`]: note?.data === undefined ? null : JSON.stringify(note.data),
    [`${prefix}Mutable`]: note ? NOTIFICATION_KIND_INFO[note.kind].mutable : false,
  };
}

/** Tells the admins' live streams that the pending requests changed (published after the commit). */
export async function signalPending(tx: Tx): Promise<void> {
  await announce(tx, { t: "p" });
}

/**
 * Closes the member's open streams in every process: all of them (deleted, signed out
 * everywhere) or those opened with one token (a logout). In a transaction, published after its
 * commit; on `db`, at once. A stream of a process that misses it still ends at its next
 * reconnect, which is refused.
 */
export async function signalStreamsClosed(db: Db | Tx, userId: string, jti?: string): Promise<void> {
  const event: LiveEvent = jti === undefined ? { t: "x", u: userId } : { t: "x", u: userId, j: jti };
  if (isTransaction(db)) await announce(db, event);
  else publish(db, [JSON.stringify(event)]);
}

// Texts, in words a member understands; money from cents.

const programName = (program: Program) => program.toUpperCase();
const levelName = (program: Program, level: number) => `${programName(program)} level ${level}`;

export async function nameOf(tx: Tx | Db, userId: string): Promise<string> {
  const [row] = await tx.select({ name: users.name }).from(users).where(eq(users.id, userId));
  return row?.name ?? "A member";
}

export const texts = {
  partnerJoined: (name: string) => `${name} joined your team as your direct partner.`,
  slotPaid: (buyer: string, slot: number, program: Program, level: number, amount: Cents) =>
    `${buyer} took slot ${slot} of your ${levelName(program, level)} matrix: ${formatUsdt(amount)} paid to you.`,
  /** `toPlatform`: no member above could receive it, and `system` was paid (the matrix view's "System"). */
  slotPassedUp: (buyer: string, slot: number, program: Program, level: number, amount: Cents, toPlatform: boolean) =>
    `${buyer} took slot ${slot} of your ${levelName(program, level)} matrix: the ${formatUsdt(amount)} passed up to ${toPlatform ? "the platform (no member above you could receive it)" : "a member above you"}.`,
  cycleCompleted: (buyer: string, slot: number, program: Program, level: number, amount: Cents, toPlatform: boolean) =>
    `${buyer} took slot ${slot}, the last of your ${levelName(program, level)} matrix: the cycle is complete and the ${formatUsdt(amount)} passed up${toPlatform ? " to the platform" : ""}.`,
  unfreezePaid: (name: string, program: Program, level: number, amount: Cents) =>
    `${name} unfroze ${levelName(program, level)}: ${formatUsdt(amount)} paid to you.`,
  levelFrozen: (program: Program, level: number, cycles: number) =>
    `Your ${levelName(program, level)} froze after ${cycles} completed cycles. Unfreeze it to receive its payments again.`,
  missed: (buyer: string, action: "purchase" | "unfreeze", program: Program, level: number, amount: Cents, reason: MissedReason) =>
    `A payment of ${formatUsdt(amount)} (${buyer}'s ${action} of ${levelName(program, level)}) passed you by: ${
      reason === "frozen" ? "your level was frozen" : "you do not have that level yet"
    }.`,
  giftFrom: (sender: string, amount: Cents) => `${sender} sent you a gift of ${formatUsdt(amount)}.`,
  giftFromPlatform: (amount: Cents) => `You received a gift of ${formatUsdt(amount)} from the platform.`,
  depositAccepted: (amount: Cents) => `Your deposit of ${formatUsdt(amount)} was accepted and added to your balance.`,
  depositDeclined: (amount: Cents, reason: string | null) =>
    `Your deposit of ${formatUsdt(amount)} was declined.${reason ? ` Reason: ${reason}` : ""}`,
  withdrawalAccepted: (amount: Cents, fee: Cents) =>
    `Your withdrawal of ${formatUsdt(amount)} was accepted: ${formatUsdt(amount - fee)} is on its way to your wallet (fee ${formatUsdt(fee)}).`,
  withdrawalDeclined: (amount: Cents, reason: string | null) =>
    `Your withdrawal of ${formatUsdt(amount)} was declined; the amount is available again.${reason ? ` Reason: ${reason}` : ""}`,
  pendingRequest: (name: string, type: "deposit" | "withdrawal", amount: Cents) => `${name} requested a ${type} of ${formatUsdt(amount)}. It waits for a decision.`,
};

/** Every admin (not deleted) is told of a new pending request, and their pending counts refresh. */
export async function notifyAdminsOfRequest(tx: Tx, type: "deposit" | "withdrawal", requestId: string, userId: string, amount: Cents) {
  const admins = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, "admin"), isNull(users.deletedAt)));
  const text = texts.pendingRequest(await nameOf(tx, userId), type, amount);
  await notifyAll(
    tx,
    admins.map((a) => ({ userId: a.id, kind: "pending_request", eventKey: `pending:${type}:${requestId}`, text, data: { type, requestId } })),
  );
  await signalPending(tx);
}

// Reading

export interface NotificationItem {
  id: string;
  kind: NotificationKind;
  text: string;
  createdAt: Date;
  read: boolean;
}

const itemColumns = {
  id: sql<string>`${notifications.id}::text`,
  kind: notifications.kind,
  text: notifications.text,
  createdAt: notifications.createdAt,
  read: sql<boolean>`${notifications.readAt} IS NOT NULL`,
};

export async function unreadCount(db: Db | Tx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return Number(row?.n ?? 0);
}

/**
 * GET /api/user/notifications: a page, newest first, with the unread count. The page, the number
 * of pages and the unread count are read in one snapshot (a read-only REPEATABLE READ
 * transaction), so they agree while notifications arrive or are read.
 */
export function notificationsOf(db: Db, userId: string, page: number) {
  return db.transaction((tx) => notificationPage(tx, userId, page), { isolationLevel: "repeatable read", accessMode: "read only" });
}

async function notificationPage(tx: Tx, userId: string, page: number) {
  const [total] = await tx.select({ n: count() }).from(notifications).where(eq(notifications.userId, userId));
  const items = await tx
    .select(itemColumns)
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.id))
    .limit(NOTIFICATION_PAGE_SIZE)
    .offset((page - 1) * NOTIFICATION_PAGE_SIZE);
  return {
    items: items as NotificationItem[],
    totalPages: pageCount(Number(total?.n ?? 0), NOTIFICATION_PAGE_SIZE),
    unread: await unreadCount(tx, userId),
  };
}

/** The member's notifications after `afterId`, oldest first: what a resumed stream missed. */
export async function notificationsAfter(db: Db, userId: string, afterId: bigint, limit: number): Promise<NotificationItem[]> {
  const rows = await db
    .select(itemColumns)
    .from(notifications)
    .where(and(eq(notifications.userId, userId), gt(notifications.id, afterId)))
    .orderBy(asc(notifications.id))
    .limit(limit);
  return rows as NotificationItem[];
}

/** The id of the member's newest notification; 0 when none. */
export async function latestNotificationId(db: Db, userId: string): Promise<bigint> {
  const [row] = await db
    .select({ id: notifications.id })
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.id))
    .limit(1);
  return row ? BigInt(row.id) : 0n;
}

/**
 * Marks the member's own notifications read: those named (ids of others are ignored), or all; with
 * `upTo` (the newest the member was shown), all up to that id only, so one that came after the
 * member's list was loaded stays unread. Answers the unread count.
 */
export async function markRead(db: Db, userId: string, which: { ids?: string[]; all?: boolean; upTo?: string }): Promise<number> {
  const mine = and(eq(notifications.userId, userId), isNull(notifications.readAt));
  if (which.all) {
    await db
      .update(notifications)
      .set({ readAt: new Date() })
      .where(which.upTo === undefined ? mine : and(mine, lte(notifications.id, BigInt(which.upTo))));
  } else if (which.ids && which.ids.length > 0) {
    const ids = which.ids.map((id) => BigInt(id));
    await db
      .update(notifications)
      .set({ readAt: new Date() })
      .where(and(mine, inArray(notifications.id, ids)));
  }
  return unreadCount(db, userId);
}

// Settings (docs/rules.md#notifications): which kinds the member receives.

export interface NotificationKindSetting {
  kind: NotificationKind;
  label: string;
  muted: boolean;
  mutable: boolean;
  /** Mailed too: the member asked for it, or it is always mailed (`mailable` false). */
  mailed: boolean;
  mailable: boolean;
}

/** GET /api/user/notifications/settings: every kind the member can receive (admins' kinds to admins only). */
export async function notificationSettingsOf(db: Db | Tx, userId: string, admin: boolean): Promise<NotificationKindSetting[]> {
  const [row] = await db
    .select({ muted: notificationSettings.muted, mailed: notificationSettings.mailed })
    .from(notificationSettings)
    .where(eq(notificationSettings.userId, userId));
  const muted = new Set<string>(row?.muted ?? []);
  const mailed = new Set<string>(row?.mailed ?? []);
  return NOTIFICATION_KINDS.filter((kind) => admin || !ADMIN_NOTIFICATION_KINDS.includes(kind)).map((kind) => {
    const always = ALWAYS_MAILED_KINDS.includes(kind);
    return {
      kind,
      label: NOTIFICATION_KIND_INFO[kind].label,
      muted: muted.has(kind),
      mutable: NOTIFICATION_KIND_INFO[kind].mutable,
      mailed: always || mailed.has(kind),
      mailable: !always,
    };
  });
}

/**
 * PUT /api/user/notifications/settings: the member mutes exactly `muted` (the others are received
 * again) and, when `mailed` is given, has exactly those kinds mailed too (the trigger of migration
 * 0022 queues the mail with the notification; a kind always mailed is so without being named). A
 * security notice (mutable false) is refused with notification_not_mutable, and nothing changes.
 * One upsert: two saves at once end as one of them, never a mix.
 */
export async function saveNotificationSettings(
  db: Db | Tx,
  userId: string,
  muted: readonly NotificationKind[],
  mailed?: readonly NotificationKind[],
): Promise<void> {
  const kinds = [...new Set(muted)].sort();
  if (kinds.some((kind) => !NOTIFICATION_KIND_INFO[kind].mutable)) refuse("notification_not_mutable");
  const mailedKinds = mailed === undefined ? undefined : [...new Set(mailed)].filter((kind) => !ALWAYS_MAILED_KINDS.includes(kind)).sort();
  await db
    .insert(notificationSettings)
    .values({ userId, muted: kinds, ...(mailedKinds ? { mailed: mailedKinds } : {}) })
    .onConflictDoUpdate({ target: notificationSettings.userId, set: { muted: kinds, ...(mailedKinds ? { mailed: mailedKinds } : {}), updatedAt: new Date() } });
}
