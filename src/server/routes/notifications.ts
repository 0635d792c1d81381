import { Hono } from "hono";
import * as z from "zod/mini";
import {
  latestNotificationId,
  type LiveEvent,
  markRead,
  type NotificationItem,
  notificationSettingsOf,
  notificationsAfter,
  notificationsOf,
  saveNotificationSettings,
} from "../../core/notifications";
import { MAX_STREAMS_PER_MEMBER } from "../../shared/constants";
import { API, notificationItem } from "../../shared/contract";
import { MSG } from "../../shared/messages";
import { type TokenClaims, type TokenUser, tokenUser } from "../../core/sessions";
import type { AppEnv, Deps } from "../env";
import { refusal } from "../errors";
import { type EventHub, hubFor, stoppingRetry } from "../events";
import { reply } from "../reply";
import { validate } from "../validate";

/** Comment lines this often keep proxies (and Bun's idle timeout) from closing a quiet stream. */
export const HEARTBEAT_MS = 15_000;
/** Chunks a stream may have waiting for a slow reader; one more drops the connection (it resumes with Last-Event-ID). */
export const STREAM_QUEUE_LIMIT = 256;
/**
 * The most notifications a stream sends from the table at once (a resume with Last-Event-ID, or a
 * stream fallen behind). Past it, one `reset` event instead (id: the member's newest
 * notification): the client refetches what it shows. A resume from 0 over thousands of
 * notifications sent hundreds of MB and slowed everyone's requests.
 */
export const REPLAY_LIMIT = 100;

const encoder = new TextEncoder();
const frame = (event: string, data: string, id?: string) => `${id === undefined ? "" : `id: ${id}\n`}event: ${event}\ndata: ${data}\n\n`;
const notificationFrame = (n: NotificationItem) => frame("notification", JSON.stringify(z.encode(notificationItem, n)), n.id);

/** A Last-Event-ID: the id of the last notification the client received. */
function lastEventId(header: string | undefined): bigint | null {
  const text = header?.trim();
  return text && /^[0-9]{1,18}$/.test(text) ? BigInt(text) : null;
}

/** What a member's live stream is made of (the handler below has checked the token, twice). */
interface StreamOf {
  db: Deps["db"];
  log: Deps["log"];
  hub: EventHub;
  user: TokenUser;
  claims: TokenClaims;
  /** The id of the last notification the client has: the stream sends those after it. */
  resumeAfter: bigint;
  request: Request;
}

/** The member's live stream (see notificationRoutes): subscribed to the process's hub as it starts. */
function eventStream({ db, log, hub, user, claims, resumeAfter, request }: StreamOf): ReadableStream<Uint8Array> {
  let stop = () => {};
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        let closed = false;
        let sentUpTo = resumeAfter;
        const send = (text: string) => {
          if (closed) return;
          if ((controller.desiredSize ?? 1) <= 0) {
            // The reader is too slow: drop the connection rather than grow the queue.
            stop();
            try {
              controller.error(new Error("slow reader"));
            } catch {}
            return;
          }
          controller.enqueue(encoder.encode(text));
        };
        // Sends, from the table, every notification of the member after the last one sent, in
        // id order (commit order per member): one read at a time; a call during a read makes
        // one more read after it.
        let reading: Promise<void> | null = null;
        let again = false;
        /** Balance and pending events that came during a read: sent after it, in the order they came. */
        let held: string[] = [];
        const catchUp = () => {
          if (closed) return;
          if (reading) return void (again = true);
          reading = (async () => {
            try {
              do {
                again = false;
                const missed = await notificationsAfter(db, user.id, sentUpTo, REPLAY_LIMIT + 1);
                if (closed) return;
                if (missed.length > REPLAY_LIMIT) {
                  const newest = await latestNotificationId(db, user.id);
                  if (closed) return;
                  send(frame("reset", "{}", String(newest)));
                  sentUpTo = newest;
                } else {
                  for (const n of missed) {
                    send(notificationFrame(n));
                    sentUpTo = BigInt(n.id);
                  }
                }
              } while (again && !closed);
            } catch (error) {
              log?.("events: reading a stream's notifications failed", error);
              stop();
              try {
                controller.error(error);
              } catch {}
            } finally {
              reading = null;
              const after = held;
              held = [];
              for (const text of after) send(text);
            }
          })();
        };
        // Sent after the notifications being read, if any: an operation's notification comes
        // before the balance change it made, as its events were announced.
        const sendAfterReading = (text: string) => (reading ? held.push(text) : send(text));
        // A notification event is a hint (it may come after a later one, or not at all when the
        // process that committed it died: src/core/liveEvents.ts); the table says what to send.
        const deliver = (event: LiveEvent) => {
          if (closed) return;
          if (event.t === "n") {
            if (BigInt(event.id) > sentUpTo) catchUp();
          } else if (event.t === "b") sendAfterReading(frame("balance", "{}"));
          else sendAfterReading(frame("pending", "{}"));
        };
        const close = (retryMs?: number) => {
          // The hint goes whatever the queue holds: the stream ends with it.
          if (retryMs !== undefined && !closed) {
            try {
              controller.enqueue(encoder.encode(`retry: ${retryMs}\n\n`));
            } catch {}
          }
          stop();
          try {
            controller.close();
          } catch {}
        };
        const unsubscribe = hub.subscribe({
          userId: user.id,
          admin: user.role === "admin",
          jti: claims.jti,
          deliver,
          close,
          sentUpTo: () => sentUpTo,
          catchUp,
        });
        const heartbeat = setInterval(() => send(": heartbeat\n\n"), HEARTBEAT_MS);
        // A stream lasts no longer than its token: it ends when the token expires, and
        // reconnecting with that token is refused (401), as any request with it is.
        const expiry = setTimeout(close, Math.max(0, claims.exp * 1000 - Date.now()));
        stop = () => {
          closed = true;
          clearInterval(heartbeat);
          clearTimeout(expiry);
          unsubscribe();
        };
        send(`retry: 2000\nevent: ready\nid: ${resumeAfter}\ndata: {}\n\n`);
        catchUp();
      },
      cancel() {
        stop();
      },
    },
    { highWaterMark: STREAM_QUEUE_LIMIT, size: () => 1 },
  );
  // Aborted by the client: Bun cancels the stream, and the request's signal says so too.
  request.signal?.addEventListener?.("abort", () => stop());
  return stream;
}

const STREAM_HEADERS = { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store", "X-Accel-Buffering": "no" };

/**
 * The member's notifications, and their live stream (Server-Sent Events). Behind requireUser.
 *
 * GET /api/user/events: `notification` events carry the notification (id: its _id, growing per
 * member in commit order), `balance` says the member's balance changed, `pending` (admins) that
 * the pending requests changed. Notifications are always sent from the table, after the last one
 * sent (at first the Last-Event-ID): a live event only says when to look (and the process's hub
 * looks now and then too, src/server/events.ts), so none is sent twice, out of order, or missed;
 * a stream more than REPLAY_LIMIT behind gets one `reset` instead (id: the newest), and the client
 * refetches. A comment every HEARTBEAT_MS. A reader that lets STREAM_QUEUE_LIMIT chunks pile up is
 * dropped (it reconnects with Last-Event-ID and loses nothing), so memory stays bounded. A
 * member holds at most MAX_STREAMS_PER_MEMBER streams at once in a process: one more is refused
 * (429 `throttled`), and that tab keeps its data by polling. When the process stops, every
 * stream ends with a `retry:` hint (src/server/events.ts endStreams).
 */
/** When a member at MAX_STREAMS_PER_MEMBER may try another stream (the client waits longer anyway). */
const RETRY_STREAM_SECONDS = 30;

export const notificationRoutes = new Hono<AppEnv>()
  .get(API.notifications.path, validate("query", API.notifications.query), async (c) =>
    reply(c, API.notifications, await notificationsOf(c.get("deps").db, c.get("user").id, c.req.valid("query").page)),
  )
  .post(API.notificationsRead.path, validate("json", API.notificationsRead.body), async (c) => {
    const body = c.req.valid("json");
    const unread = await markRead(c.get("deps").db, c.get("user").id, "all" in body ? { all: true, upTo: body.upTo } : { ids: body.ids });
    return reply(c, API.notificationsRead, { unread });
  })
  .get(API.notificationSettings.path, async (c) => {
    const user = c.get("user");
    return reply(c, API.notificationSettings, { kinds: await notificationSettingsOf(c.get("deps").db, user.id, user.role === "admin") });
  })
  .put(API.saveNotificationSettings.path, validate("json", API.saveNotificationSettings.body), async (c) => {
    const { db } = c.get("deps");
    const user = c.get("user");
    const { muted, mailed } = c.req.valid("json");
    await saveNotificationSettings(db, user.id, muted, mailed);
    return reply(c, API.saveNotificationSettings, { kinds: await notificationSettingsOf(db, user.id, user.role === "admin") });
  })
  .get(API.events.path, async (c) => {
    const { db, log } = c.get("deps");
    // The process is stopping (src/server/main.ts): only the hint to come back shortly.
    const retry = stoppingRetry(db);
    if (retry !== undefined) return new Response(`retry: ${retry}\n\n`, { headers: STREAM_HEADERS });
    const user = c.get("user");
    const claims = c.get("claims");
    const hub = await hubFor(db, log);
    if (hub.streamsOf(user.id) >= MAX_STREAMS_PER_MEMBER) return refusal(c, "throttled", MSG.tooManyStreams, RETRY_STREAM_SECONDS);
    // The token was checked before this handler ran, and a logout or a deletion committed since
    // signalled the streams open then, not this one yet. So: a watch on the member's signals
    // first, then the token checked again; the stream's own subscription (made as it starts,
    // below) takes over from the watch before it ends. The watch is made at once after the count
    // (no await in between), so it holds the stream's place: streams asked for at the same
    // moment count each other, and the member's limit holds however many come at once.
    let signalledClosed = false;
    let resumeAfter = lastEventId(c.req.header("Last-Event-ID"));
    const watch = hub.subscribe({
      userId: user.id,
      admin: false,
      jti: claims.jti,
      deliver: () => {},
      close: () => void (signalledClosed = true),
      sentUpTo: () => resumeAfter ?? 0n,
      catchUp: () => {},
    });
    let stream: ReadableStream<Uint8Array>;
    try {
      // A first connection starts from the member's newest notification (told to the client in
      // the `ready` event's id), read before the stream subscribes: what commits in between is
      // sent from the table, and a later reconnect resumes from there instead of replaying the
      // member's whole history.
      resumeAfter ??= await latestNotificationId(db, user.id);
      if (!(await tokenUser(db, claims)) || signalledClosed) return refusal(c, "bad_token");
      stream = eventStream({ db, log, hub, user, claims, resumeAfter, request: c.req.raw });
    } finally {
      watch();
    }
    // Bun closes a connection idle for 10 s by default: not this one (the heartbeat keeps proxies' timers).
    (c.env as { timeout?: (request: Request, seconds: number) => void } | undefined)?.timeout?.(c.req.raw, 0);

    return new Response(stream, { headers: STREAM_HEADERS });
  });
