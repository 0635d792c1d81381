import { DrizzleQueryError } from "drizzle-orm/errors";
import { ERRORS, type ErrorCode } from "../shared/errors";

/**
 * An expected refusal: the operation was not done. `code` is one of the closed list in
 * src/shared/errors.ts, which gives it its HTTP status and its sentence; `msg` differs from that
 * sentence only when it carries a figure (the minutes left of a login throttle).
 */
export class Refusal extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly msg: string = ERRORS[code].msg,
    /** Seconds until trying again may succeed (throttling): sent as Retry-After. */
    readonly retryAfter?: number,
    /** The request's field it is about, when only the operation can tell (src/shared/errors.ts ErrorBody). */
    readonly field?: string,
  ) {
    super(msg);
    this.name = "Refusal";
  }
}

export const refuse = (code: ErrorCode, msg?: string, retryAfter?: number): never => {
  throw new Refusal(code, msg, retryAfter);
};

/** A refusal about one field of the request (`field` of the answer). */
export const refuseField = (field: string, code: ErrorCode, msg?: string): never => {
  throw new Refusal(code, msg, undefined, field);
};

type DriverError = Error & { code?: unknown; severity?: unknown; constraint?: unknown; constraint_name?: unknown };

/**
 * Database errors carry the statement's parameters and the failing row: password hashes, emails,
 * wallet addresses. The log gets the statement, the driver's message, code and constraint only:
 * every error logged goes through this (a request's, and those of the work done in the background).
 */
export function withoutQueryParams(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const query = error instanceof DrizzleQueryError ? error.query : undefined;
  const driver = (error instanceof DrizzleQueryError ? error.cause : error) as DriverError | undefined;
  const fromDatabase = typeof driver?.code === "string" && typeof driver.severity === "string";
  if (query === undefined && !fromDatabase) return error;
  const constraint = driver?.constraint ?? driver?.constraint_name;
  const safe = new Error(
    [
      query !== undefined && `Failed query: ${query}`,
      driver && `${fromDatabase ? `${driver.severity} ${driver.code}: ` : ""}${driver.message}`,
      typeof constraint === "string" && `constraint: ${constraint}`,
    ]
      .filter(Boolean)
      .join("\n"),
  );
  const frames = (error.stack ?? "").split("\n").filter((line) => /^\s+at /.test(line));
  safe.stack = [safe.message, ...frames].join("\n");
  return safe;
}
