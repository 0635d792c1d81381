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
  log(`${c.req.method} ${c.req.path} failed`, error);
  return c.json({ msg: MSG.serverError }, 500);
}
