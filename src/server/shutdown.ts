import type { Server } from "bun";
import type { Db } from "../db/client";
import { endStreams } from "./events";

/** How long requests in flight have to finish once a stop begins; past it their connections are closed. */
export const DRAIN_MS = 10_000;
/** The reconnection hint event streams end with (1 to 2 times this, spread): the client comes back to whichever process answers then. */
export const STREAM_RETRY_MS = 1_000;

/**
 * The first half of a clean stop (SIGTERM): the port is let go at once (with WORKERS, the other
 * workers take its new connections; alone, a caller is refused until the server is back), every
 * request in flight is answered, for DRAIN_MS at most, and the live event streams end with a
 * `retry:` hint instead of holding the stop. Resolves once no connection is left; the database is
 * closed after it, so nothing acknowledged is cut short.
 */
export async function drain(server: Server<unknown>, db: Db, drainMs = DRAIN_MS): Promise<void> {
  const drained = server.stop();
  await endStreams(db, STREAM_RETRY_MS);
  const force = setTimeout(() => void server.stop(true), drainMs);
  try {
    await drained;
  } finally {
    clearTimeout(force);
  }
}
