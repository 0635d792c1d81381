import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { Refusal, withoutQueryParams } from "../core/errors";
import { codeForStatus, ERRORS, type ErrorBody, type ErrorCode } from "../shared/errors";
import { API, type ApiEndpoint, type Endpoint } from "../shared/contract";
import { connectionLostCode } from "../db/connectionLost";
import type { AppEnv } from "./env";

/**
 * The one way the server answers a refusal: `{msg, code}` with the code's own status, and
 * `field` when the refusal is about one field of the request (`refusalBody`).
 */
export function refusal(c: Context, code: ErrorCode, msg: string = ERRORS[code].msg, retryAfter?: number, field?: RefusalField) {
  if (retryAfter !== undefined) c.header("Retry-After", String(Math.max(1, Math.ceil(retryAfter))));
  return c.json(refusalBody(c, code, msg, field), ERRORS[code].status as ContentfulStatusCode);
}

/**
 * Where a refusal was found: a field the operation named (`named`), or the field of the body a
 * schema refused it at (`foundAt`), which counts only for a code the endpoint's `fields` names.
 */
export type RefusalField = { named: string } | { foundAt: string };

/**
 * A refusal's body: the field the operation named; else, for a code the endpoint's contract names
 * in `fields`, the field the schema found it at or the contract's; else none (docs/rules.md#errors).
 */
export function refusalBody(c: Context, code: ErrorCode, msg: string, field?: RefusalField): ErrorBody {
  let named = field && "named" in field ? field.named : undefined;
  if (named === undefined) {
    const declared = endpointAt(c.req.method, c.req.path)?.fields?.[code];
    if (declared !== undefined) named = field && "foundAt" in field ? field.foundAt : declared;
  }
  return named === undefined ? { msg, code } : { msg, code, field: named };
}

/** Each endpoint with `fields`, and its path as a pattern (only those: the others name none). */
const WITH_FIELDS = Object.values(API)
  .filter((e): e is ApiEndpoint & { fields: NonNullable<Endpoint["fields"]> } => "fields" in e && e.fields !== undefined)
  .map((e) => ({ endpoint: e, pattern: new RegExp(`^/api${e.path.replace(/[.]/g, "\\.").replace(/:[A-Za-z]+/g, "[^/]+")}$`) }));

const endpointAt = (method: string, path: string) => WITH_FIELDS.find((e) => e.endpoint.method === method && e.pattern.test(path))?.endpoint;

/** When a client hears 503 `database_unavailable`: a failover takes a few seconds. */
const DATABASE_RETRY_AFTER_S = 3;

/** One answer for anything a handler throws: refusals keep their code and msg, the rest is a logged 500. */
export function onError(error: Error, c: Context<AppEnv>) {
  if (error instanceof Refusal) return refusal(c, error.code, error.msg, error.retryAfter, error.field === undefined ? undefined : { named: error.field });
  if (error instanceof HTTPException) {
    // Raised by the framework below the routes: a body that is not JSON (400), too large (413).
    const code = error.status === 400 ? "bad_json" : codeForStatus(error.status);
    return refusal(c, code);
  }
  const log = c.get("deps")?.log ?? ((m: string, e?: unknown) => console.error(m, e));
  const lost = connectionLostCode(error);
  if (lost !== undefined) {
    // Not this request's fault: the database is down or failing over (docs/operations.md).
    log(`${c.req.method} ${c.req.path}: database unavailable (${lost})`);
    return refusal(c, "database_unavailable", undefined, DATABASE_RETRY_AFTER_S);
  }
  log(`${c.req.method} ${c.req.path} failed`, withoutQueryParams(error));
  return refusal(c, "server_error");
}

