import { DrizzleQueryError } from "drizzle-orm/errors";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { Refusal, type RefusalKind } from "../core/errors";
import { MSG } from "../shared/messages";
import type { AppEnv } from "./env";

const STATUS: Record<RefusalKind, ContentfulStatusCode> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unprocessable: 422,
  throttled: 429,
};

/** One answer for anything a handler throws: refusals keep their msg, the rest is a logged 500. */
export function onError(error: Error, c: Context<AppEnv>) {
  if (error instanceof Refusal) return c.json({ msg: error.msg }, STATUS[error.kind]);
  if (error instanceof HTTPException) {
    const status = error.status as ContentfulStatusCode;
    const msg = status === 400 ? MSG.badJson : status === 413 ? MSG.tooLarge : error.message || MSG.serverError;
    return c.json({ msg }, status);
  }
  const log = c.get("deps")?.log ?? ((m: string, e?: unknown) => console.error(m, e));
  log(`${c.req.method} ${c.req.path} failed`, withoutQueryParams(error));
  return c.json({ msg: MSG.serverError }, 500);
}

type DriverError = Error & { code?: unknown; severity?: unknown; constraint?: unknown; constraint_name?: unknown };

/**
 * Database errors carry the statement's parameters and the failing row: password hashes, emails,
 * wallet addresses. The log gets the statement, the driver's message, code and constraint only.
 */
function withoutQueryParams(error: Error): Error {
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
