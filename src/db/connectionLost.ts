/**
 * Whether a statement failed because the database could not be reached, not because of the
 * statement: its connection was closed or refused, the server is shutting down or starting up,
 * or the one it reached cannot write (a standby not yet promoted). Such a failure is answered 503
 * `database_unavailable` with Retry-After (src/server/errors.ts); a read may be sent again.
 */
export const isConnectionLost = (error: unknown): boolean => connectionLostCode(error) !== undefined;

/** The code (postgres.js's, the socket's or Postgres's) that says the connection was lost. */
export function connectionLostCode(error: unknown): string | undefined {
  for (let e: unknown = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && (LOST.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return code;
  }
  return undefined;
}

const LOST = new Set([
  // postgres.js's own, and the socket's
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "ECONNRESET",
  "ECONNREFUSED",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTCONN",
  "EHOSTUNREACH",
  // Postgres: admin_shutdown, crash_shutdown, cannot_connect_now, read_only_sql_transaction
  "57P01",
  "57P02",
  "57P03",
  "25006",
]);
