import type { Db } from "../db/client";
import { EVENTS_CHANNEL, type LiveEvent } from "../core/notifications";

/**
 * The live events of one server process: one LISTEN on EVENTS_CHANNEL (a dedicated connection of
 * its own on Postgres, postgres.js `listen`; PGlite delivers its NOTIFY in process), fanned out to
 * the streams of the members they concern (src/server/routes/events.ts). Every process listens,
 * so an event committed through one reaches a member streaming from another. Postgres delivers
 * notifications at commit only, in commit order; a rolled-back operation sends none.
 */
export interface Subscriber {
  userId: string;
  admin: boolean;
  /** The token the stream was opened with: a logout closes that token's streams only. */
  jti?: string;
  deliver(event: LiveEvent): void;
  /** Ends the stream (the member was deleted or signed out). */
  close(): void;
}

export interface EventHub {
  subscribe(subscriber: Subscriber): () => void;
  /** Streams open in this process (tests, the chaos run). */
  readonly size: number;
}

type Listen = (channel: string, onPayload: (payload: string) => void) => Promise<unknown>;

function listenerOf(db: Db): Listen {
  const client = (db as unknown as { $client: { listen: Listen } }).$client;
  return (channel, onPayload) => client.listen(channel, onPayload);
}

export function createHub(listen: Listen, log: (message: string, error?: unknown) => void = () => {}): { hub: EventHub; ready: Promise<unknown> } {
  const byUser = new Map<string, Set<Subscriber>>();
  const admins = new Set<Subscriber>();
  let size = 0;

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
      let done = false;
      return () => {
        if (done) return;
        done = true;
        size--;
        set.delete(subscriber);
        if (set.size === 0 && byUser.get(subscriber.userId) === set) byUser.delete(subscriber.userId);
        admins.delete(subscriber);
      };
    },
    get size() {
      return size;
    },
  };
  return { hub, ready: listen(EVENTS_CHANNEL, onPayload) };
}

const hubs = new WeakMap<Db, Promise<EventHub>>();

/** The process's hub on `db`, listening from the first stream on. */
export function hubFor(db: Db, log?: (message: string, error?: unknown) => void): Promise<EventHub> {
  let found = hubs.get(db);
  if (!found) {
    const { hub, ready } = createHub(listenerOf(db), log);
    found = ready.then(() => hub);
    found.catch(() => hubs.delete(db));
    hubs.set(db, found);
  }
  return found;
}
