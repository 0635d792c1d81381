import { DrizzleQueryError } from "drizzle-orm/errors";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { Refusal } from "../core/errors";
import { codeForStatus, ERRORS, type ErrorBody, type ErrorCode } from "../shared/errors";
import type { AppEnv } from "./env";

/** The one way the server answers a refusal: `{msg, code}` with the code's own status. */
export function refusal(c: Context, code: ErrorCode, msg: string = ERRORS[code].msg, retryAfter?: number) {
  if (retryAfter !== undefined) c.header("Retry-After", String(Math.max(1, Math.ceil(retryAfter))));
  return c.json({ msg, code } satisfies ErrorBody, ERRORS[code].status as ContentfulStatusCode);
}

/** One answer for anything a handler throws: refusals keep their code and msg, the rest is a logged 500. */
export function onError(error: Error, c: Context<AppEnv>) {
  if (error instanceof Refusal) return refusal(c, error.code, error.msg, error.retryAfter);
  if (error instanceof HTTPException) {
    // Raised by the framework below the routes: a body that is not JSON (400), too large (413).
    const code = error.status === 400 ? "bad_json" : codeForStatus(error.status);
    return refusal(c, code);
  }
  const log = c.get("deps")?.log ?? ((m: string, e?: unknown) => console.error(m, e));
  log(`${c.req.method} ${c.req.path} failed`, withoutQueryParams(error));
  return refusal(c, "server_error");
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
