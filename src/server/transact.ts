import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import {
  AlreadyAnswered,
  refuseBusy,
  reserveKey,
  saveAnswer,
  storedAnswer,
  sweepKeys,
  type IdempotencyClaim,
} from "../core/idempotency";
import { inTransaction, pgCode } from "../core/tx";
import { isErrorCode, KEY_CODES } from "../shared/errors";
import type { Tx } from "../db/client";
import type { AppEnv } from "./env";
import { refusal } from "./errors";
import { type AnswerOf, successStatus, wire } from "./reply";
import type { ApiEndpoint } from "../shared/contract";

const KEY_FORMAT = /^[\x21-\x7e]{1,200}$/;

function replay(c: Context<AppEnv>, answer: { status: number; body: string }) {
  c.header("Idempotent-Replayed", "true");
  return c.body(answer.body, answer.status as ContentfulStatusCode, { "Content-Type": "application/json" });
}

/**
 * Money calls may carry an Idempotency-Key. Same user, key and request: the first answer is
 * replayed and nothing moves again. Same key, other request: 422. Same key still running: 409.
 * Mounted after requireUser on the routes that move money; the route itself runs through
 * `transact`, which stores the answer in the operation's own transaction.
 */
export const idempotency = createMiddleware<AppEnv>(async (c, next) => {
  const key = c.req.header("Idempotency-Key");
  if (key === undefined) return next();
  if (!KEY_FORMAT.test(key)) return refusal(c, "bad_idempotency_key");
  const body = await c.req.text();
  const digest = new Bun.CryptoHasher("sha256").update(`${c.req.method} ${c.req.path}\n${body}`).digest("hex");
  const claim: IdempotencyClaim = { userId: c.get("user").id, key, requestHash: digest };
  const { db } = c.get("deps");

  const earlier = await storedAnswer(db, claim);
  if (earlier && earlier.requestHash !== claim.requestHash) return refusal(c, "idempotency_conflict");
  if (earlier && earlier.status !== 0) return replay(c, earlier);

  c.set("idempotency", claim);
  await next();
  if (Math.random() < 0.01) await sweepKeys(db);
  // A refusal of the operation is an answer too: keep it, so a retry hears the same thing. A
  // refusal about the key itself (busy, reused) is not the operation's answer.
  const status = c.res.status;
  if (status >= 400 && status < 500 && c.res.headers.get("Idempotent-Replayed") === null) {
    const text = await c.res.clone().text();
    if (!KEY_CODES.has(codeOf(text))) await saveAnswer(db, claim, { status, body: text });
  }
});

/** The `code` of a refusal's body (every refusal carries one; see src/shared/errors.ts). */
function codeOf(body: string) {
  try {
    const code: unknown = JSON.parse(body)?.code;
    return isErrorCode(code) ? code : "server_error";
  } catch {
    return "server_error";
  }
}

/**
 * Runs a money operation in one transaction and answers `answer(result)` through the endpoint's
 * contract. With an idempotency claim, the key is reserved and the answer stored in that same
 * transaction, so the operation and its record commit together or not at all.
 *
 * `answer` may be the answer itself when it does not depend on the result: it is then stored
 * with the key's reservation, and nothing is written after the operation.
 */
export async function transact<T, E extends ApiEndpoint>(
  c: Context<AppEnv>,
  endpoint: E,
  work: (tx: Tx) => Promise<T>,
  answer: ((result: T) => AnswerOf<E>) | AnswerOf<E>,
) {
  const claim = c.get("idempotency");
  const { db } = c.get("deps");
  const status = successStatus(endpoint);
  const known = typeof answer === "function" ? undefined : wire(endpoint, answer);
  try {
    const body = await inTransaction(db, async (tx) => {
      if (claim) await reserveKey(tx, claim, known === undefined ? undefined : { status, body: JSON.stringify(known) });
      const result = await work(tx);
      if (known !== undefined) return known;
      const body = wire(endpoint, (answer as (result: T) => AnswerOf<E>)(result));
      if (claim) await saveAnswer(tx, claim, { status, body: JSON.stringify(body) });
      return body;
    });
    return c.json(body, status);
  } catch (error) {
    if (claim && error instanceof AlreadyAnswered) {
      const stored = await storedAnswer(db, claim);
      if (stored && stored.requestHash !== claim.requestHash) return refusal(c, "idempotency_conflict");
      if (stored && stored.status !== 0) return replay(c, stored);
    }
    if (claim && (error instanceof AlreadyAnswered || pgCode(error) === "55P03")) return refuseBusy();
    throw error;
  }
}
