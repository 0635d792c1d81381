import { withoutQueryParams } from "../core/errors";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "../db/client";
import { EVENTS_CHANNEL, type LiveEvent } from "../core/notifications";

/**
 * The live events of one server process: one LISTEN on EVENTS_CHANNEL (a dedicated connection of
 * its own on Postgres, postgres.js `listen`; PGlite delivers its NOTIFY in process), fanned out to
 * the streams of the members they concern (src/server/routes/events.ts). Every process listens,
 * so an event committed through one reaches a member streaming from another. Events are published
 * after their operation's commit (src/core/liveEvents.ts): never for a rolled-back one, but not
 * always in commit order, and lost if the publishing process dies first; notification events are
 * hints the streams check against the table, and the hub also looks every CATCH_UP_MS.
 */
export interface Subscriber {
  userId: string;
  admin: boolean;
  /** The token the stream was opened with: a logout closes that token's streams only. */
  jti?: string;
  deliver(event: LiveEvent): void;
  /** Ends the stream (the member was deleted or signed out; with `retryMs`, the server is stopping: the client comes back after that long). */
  close(retryMs?: number): void;
  /** The id of the last notification the stream sent. */
  sentUpTo(): bigint;
  /** Sends the member's notifications after sentUpTo, from the table. */
  catchUp(): void;
}

export interface EventHub {
  subscribe(subscriber: Subscriber): () => void;
  /** Streams a member has open in this process. */
  streamsOf(userId: string): number;
  /** Streams open in this process (tests, the chaos run, the metrics). */
  readonly size: number;
  /** The process is stopping: ends every stream with a hint to reconnect after about `retryMs` (spread, so they do not all come back at once). */
  endAll(retryMs: number): void;
}

type Listen = (channel: string, onPayload: (payload: string) => void) => Promise<unknown>;
/** The id of the newest notification of each of these members (0 when none). */
type Newest = (userIds: string[]) => Promise<Map<string, bigint>>;

/**
 * How often a process looks for notifications its streams have not sent: those whose live event
 * was lost (src/core/liveEvents.ts). One query for all its streams.
 */
export const CATCH_UP_MS = 2_000;

function newestOf(db: Db): Newest {
  return async (userIds) => {
    const rows = rowsOf<{ id: string; newest: string | null }>(
      await db.execute(sql`SELECT u.id, (SELECT max(n.id) FROM notifications n WHERE n.user_id = u.id)::text AS newest FROM json_array_elements_text(${JSON.stringify(userIds)}::json) AS u(id)`),
    );
    return new Map(rows.map((r) => [r.id, BigInt(r.newest ?? "0")]));
  };
}

function listenerOf(db: Db): Listen {
  const client = (db as unknown as { $client: { listen: Listen } }).$client;
  return (channel, onPayload) => client.listen(channel, onPayload);
}

export function createHub(listen: Listen, log: (message: string, error?: unknown) => void = () => {}, newest?: Newest): { hub: EventHub; ready: Promise<unknown> } {
  const byUser = new Map<string, Set<Subscriber>>();
  const admins = new Set<Subscriber>();
  let size = 0;

  // While streams are open: the streams behind their member's newest notification catch up.
  let timer: ReturnType<typeof setInterval> | undefined;
  let looking = false;
  const look = async () => {
    if (looking || !newest || byUser.size === 0) return;
    looking = true;
    try {
      const latest = await newest([...byUser.keys()]);
      for (const [userId, id] of latest) for (const s of byUser.get(userId) ?? []) if (s.sentUpTo() < id) s.catchUp();
    } catch (error) {
      log("events: looking for notifications not sent failed", withoutQueryParams(error));
    } finally {
      looking = false;
    }
  };

  const each = (set: Set<Subscriber> | undefined, event: LiveEvent) => {
    if (set) for (const s of [...set]) s.deliver(event);
  };
  const onPayload = (payload: string) => {
    let event: LiveEvent;
    try {
      event = JSON.parse(payload) as LiveEvent;
    } catch (error) {
      return log("events: a payload that is not JSON", error);
    }
    if (event.t === "n") each(byUser.get(event.u), event);
    else if (event.t === "b") for (const u of new Set(event.u)) each(byUser.get(u), event);
    else if (event.t === "p") each(admins, event);
    else if (event.t === "x") {
      const set = byUser.get(event.u);
      if (set) for (const s of [...set]) if (event.j === undefined || s.jti === event.j) s.close();
    }
  };

  const hub: EventHub = {
    subscribe(subscriber) {
      let set = byUser.get(subscriber.userId);
      if (!set) byUser.set(subscriber.userId, (set = new Set()));
      set.add(subscriber);
      if (subscriber.admin) admins.add(subscriber);
      size++;
      if (!timer && newest) {
        timer = setInterval(() => void look(), CATCH_UP_MS);
        (timer as { unref?: () => void }).unref?.();
      }
      let done = false;
      return () => {
        if (done) return;
        done = true;
        size--;
        set.delete(subscriber);
        if (set.size === 0 && byUser.get(subscriber.userId) === set) byUser.delete(subscriber.userId);
        admins.delete(subscriber);
        if (size === 0 && timer) {
          clearInterval(timer);
          timer = undefined;
        }
      };
    },
    streamsOf(userId) {
      return byUser.get(userId)?.size ?? 0;
    },
    get size() {
      return size;
    },
    endAll(retryMs) {
      for (const set of [...byUser.values()]) for (const s of [...set]) s.close(Math.round(retryMs * (1 + Math.random())));
    },
  };
  return { hub, ready: listen(EVENTS_CHANNEL, onPayload) };
}

const hubs = new WeakMap<Db, Promise<EventHub>>();
/** The hubs listening already, for the figures read synchronously. */
const listening = new WeakMap<Db, EventHub>();

/** Live event streams open in this process on `db`. */
export const openStreams = (db: Db): number => listening.get(db)?.size ?? 0;

/** Set once the process is stopping: the retry hint its streams end with. */
const stopping = new WeakMap<Db, number>();

/**
 * The process is stopping: the streams on `db` end with a hint to reconnect after `retryMs` to
 * 2 x `retryMs` (to another process, or to this server once started again), and a new one gets
 * only that hint (`stoppingRetry`).
 */
export async function endStreams(db: Db, retryMs: number): Promise<void> {
  stopping.set(db, retryMs);
  const hub = await hubs.get(db)?.catch(() => undefined);
  hub?.endAll(retryMs);
}

/** The retry hint a new stream gets while the process is stopping; undefined while it is not. */
export const stoppingRetry = (db: Db): number | undefined => stopping.get(db);

/** The process's hub on `db`, listening from the first stream on. */
export function hubFor(db: Db, log?: (message: string, error?: unknown) => void): Promise<EventHub> {
  let found = hubs.get(db);
  if (!found) {
    const { hub, ready } = createHub(listenerOf(db), log, newestOf(db));
    found = ready.then(() => {
      listening.set(db, hub);
      return hub;
    });
    found.catch(() => hubs.delete(db));
    hubs.set(db, found);
  }
  return found;
}
