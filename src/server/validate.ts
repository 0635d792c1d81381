import { zValidator } from "@hono/zod-validator";
import type { Context, ValidationTargets } from "hono";
import type * as z from "zod/mini";
import { MSG } from "../shared/messages";
import { refusalCodeOf } from "../shared/schemas";
import { refusal } from "./errors";

/**
 * Validates a request part with a shared schema; a refusal answers 400 with the first problem in
 * words (or the code the problem asks for: `refusedAs`). A JSON body sent under another
 * Content-Type, or none, is not read at all (Hono's validator sees an empty object), so it is
 * refused as such rather than by a missing field it did send. Text
 * that is not well-formed Unicode (a lone surrogate, which JSON's \u escapes can spell) is
 * refused as a character not allowed: Postgres cannot hold it.
 */
export const validate = <Target extends keyof ValidationTargets, Schema extends z.ZodMiniType>(target: Target, schema: Schema) =>
  zValidator(target, schema, (result, c) => {
    if (target === "json" && !sentAsJson(c)) return refusal(c, "validation", MSG.bodyNotJson);
    if (result.success) return wellFormed(result.data) ? undefined : refusal(c, "bad_character");
    const issue = result.error.issues[0];
    const code = refusalCodeOf(issue);
    // A code of its own is about the field it was found at (docs/rules.md#errors).
    const foundAt = issue?.path[0];
    return code ? refusal(c, code, undefined, undefined, typeof foundAt === "string" ? { foundAt } : undefined) : refusal(c, "validation", firstProblem(result.error.issues));
  });

/** The first problem a schema found, in words; a body that is no object at all says so. */
export function firstProblem(issues: readonly { path: readonly PropertyKey[]; code: string; message: string }[]): string {
  const issue = issues[0];
  return !issue || (issue.path.length === 0 && issue.code === "invalid_type") ? "The request body must be a JSON object." : issue.message;
}

/**
 * Whether the request's body is sent as JSON: its Content-Type is JSON's (read as Hono's validator
 * reads it), or it has no body (nothing to read, so no type needed). A body without a
 * Content-Type is not read by the validator: it is not taken for JSON either.
 */
export function sentAsJson(c: Context): boolean {
  const type = c.req.header("content-type");
  if (type === undefined) return !hasBody(c);
  return /^application\/([\w.-]+\+)?json$/i.test(type.split(";")[0]!.trim());
}

/** Whether the request comes with a body (a Content-Length above 0, or a body without one: chunked). */
function hasBody(c: Context): boolean {
  const length = c.req.header("content-length");
  return length === undefined ? c.req.raw.body !== null : Number(length) > 0;
}

/** A UTF-16 surrogate that is not half of a pair (with the u flag, a pair is one code point). */
const LONE_SURROGATE = /\p{Cs}/u;

/** Whether every string in a validated value is well-formed Unicode. */
function wellFormed(value: unknown): boolean {
  if (typeof value === "string") return !LONE_SURROGATE.test(value);
  if (Array.isArray(value)) return value.every(wellFormed);
  if (value !== null && typeof value === "object") return Object.values(value).every(wellFormed);
  return true;
}

/**
 * Path parameters that name nothing we have (an unknown program, level or id) answer 404: a level
 * as `level_not_found`, whatever its number (the server answers levels 13 to 99 so too).
 */
export const validatePath = <Schema extends z.ZodMiniType>(schema: Schema) =>
  zValidator("param", schema, (result, c) => {
    if (result.success) return;
    const issue = result.error.issues[0];
    return issue?.path[0] === "level" ? refusal(c, "level_not_found") : refusal(c, "not_found", issue?.message);
  });
