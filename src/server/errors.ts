import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { Refusal, withoutQueryParams } from "../core/errors";
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

