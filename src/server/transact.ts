import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { Refusal, withoutQueryParams } from "../core/errors";
import {
  AlreadyAnswered,
  keepAnswer,
  KeyReservation,
  refuseBusy,
  reserveKey,
  saveAnswer,
  storedAnswer,
  sweepKeys,
  type IdempotencyClaim,
  type StoredAnswer,
} from "../core/idempotency";
import { inTransaction, pgCode } from "../core/tx";
import { type ErrorBody, ERRORS, isErrorCode, KEY_CODES } from "../shared/errors";
import type { Tx } from "../db/client";
import type { AppEnv } from "./env";
import { refusal, refusalBody } from "./errors";
import { type AnswerOf, successStatus, wire } from "./reply";
import type { ApiEndpoint } from "../shared/contract";

const KEY_FORMAT = /^[\x21-\x7e]{1,200}$/;

/** A JSON answer made whole here: the middleware's comes after the route answered, out of c.json's reach. */
const jsonAnswer = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { "Content-Type": "application/json", ...headers } });

/** The stored answer of an earlier call with the key, marked as replayed. */
const replay = (answer: StoredAnswer) => jsonAnswer(answer.status, answer.body, { "Idempotent-Replayed": "true" });

const CONFLICT = ERRORS.idempotency_conflict;

/**
 * Money calls may carry an Idempotency-Key. Same user, key and request: the first answer is
 * replayed and nothing moves again. Same key, other request: 422. Same key still running: 409.
 * Mounted after requireUser on the routes that move money; the route itself runs through
 * `transact`, which reserves the key in the operation's own transaction and stores the answer
 * there, or finds the key taken and answers as above.
 *
 * So nothing is read before the route runs: a key seen before is found by transact's
 * reservation, in the round trips the operation makes anyway. Only a refusal made before the
 * operation (the request's validation) is looked up here, afterwards, so that it too answers as
 * an earlier call with the key says (422, or that call's answer replayed); otherwise it is kept,
 * so a retry hears the same thing. A refusal about the key itself (busy, reused), or a 429 (a
 * limit reached, the server busy), is not the operation's answer and is not kept.
 */
export const idempotency = createMiddleware<AppEnv>(async (c, next) => {
  const key = c.req.header("Idempotency-Key");
  if (key === undefined) return next();
  if (!KEY_FORMAT.test(key)) return refusal(c, "bad_idempotency_key");
  const body = await c.req.text();
  const digest = new Bun.CryptoHasher("sha256").update(`${c.req.method} ${c.req.path}\n${body}`).digest("hex");
  const claim: IdempotencyClaim = { userId: c.get("user").id, key, requestHash: digest };
  const { db } = c.get("deps");

  c.set("idempotency", claim);
  await next();
  // Housekeeping after the operation has answered: its failure must not turn a done operation into a 500.
  if (Math.random() < 0.01) await sweepKeys(db).catch((error) => (c.get("deps").log ?? console.error)("sweeping old Idempotency-Keys failed", withoutQueryParams(error)));
  if (c.get("answerKept")) return;
  const status = c.res.status;
  // 429 says "not now" (a limit, the server busy): it is no answer of the operation, and the same
  // key may be sent again later.
  if (status < 400 || status >= 500 || status === 429 || c.res.headers.get("Idempotent-Replayed") !== null) return;
  const text = await c.res.clone().text();
  if (KEY_CODES.has(codeOf(text))) return;
  const earlier = answerAsKeySays(await storedAnswer(db, claim), claim);
  if (earlier) c.res = earlier;
  else if (!(await saveAnswer(db, claim, { status, body: text }))) {
    // A twin with the key was running, unseen by the read above: its answer is the key's.
    c.res = answerAsKeySays(await storedAnswer(db, claim), claim) ?? c.res;
  }
});

/**
 * The answer to a call whose key holds an earlier call's: 422 for another request, that answer
 * replayed for the same one; undefined when the key holds no answer yet.
 */
function answerAsKeySays(earlier: (StoredAnswer & { requestHash: string }) | undefined, claim: IdempotencyClaim): Response | undefined {
  if (!earlier) return undefined;
  if (earlier.requestHash !== claim.requestHash) return jsonAnswer(CONFLICT.status, JSON.stringify({ msg: CONFLICT.msg, code: "idempotency_conflict" } satisfies ErrorBody));
  return earlier.status !== 0 ? replay(earlier) : undefined;
}

/** The `code` of a refusal's body (every refusal carries one; see src/shared/errors.ts). */
function codeOf(body: string) {
  try {
    const code: unknown = JSON.parse(body)?.code;
    return isErrorCode(code) ? code : "server_error";
  } catch {
    return "server_error";
  }
}

/** An operation's refusal, to be kept as its key's answer in the operation's own transaction. */
class KeptRefusal {
  constructor(readonly refusal: Refusal) {}
}

/**
 * A refusal of the operation itself, kept as the answer of its key: 4xx, not about the key, not a
 * 429 (which says "not now", and is never kept).
 */
const keepsAsAnswer = (error: unknown): error is Refusal => {
  if (!(error instanceof Refusal) || KEY_CODES.has(error.code)) return false;
  const { status } = ERRORS[error.code];
  return status >= 400 && status < 500 && status !== 429;
};

async function keptIfRefused<T>(run: () => Promise<T>): Promise<T | KeptRefusal> {
  try {
    return await run();
  } catch (error) {
    if (keepsAsAnswer(error)) return new KeptRefusal(error);
    throw error;
  }
}

/**
 * Writes the refusal as the key's answer, in the transaction that reserved the key, which then
 * commits with nothing else of the operation. A twin call with the key waits on that row until
 * then, and finds the refusal (the same request: it is replayed; another: 422). Were the refusal
 * rolled back with the operation and stored afterwards, the twin could take the key in between
 * and run.
 */
async function keep(c: Context<AppEnv>, tx: Tx, claim: IdempotencyClaim, kept: KeptRefusal): Promise<KeptRefusal> {
  const { code, msg, field } = kept.refusal;
  // The body the refusal is answered with (its field included), so a replay says the same.
  await keepAnswer(tx, claim, { status: ERRORS[code].status, body: JSON.stringify(refusalBody(c, code, msg, field === undefined ? undefined : { named: field })) });
  return kept;
}

/**
 * A money operation whose first statement reserves the Idempotency-Key itself (KeyReservation):
 * `key` is undefined for a call without a key. That statement goes out with the transaction's
 * BEGIN, key or not, so it must check that it runs inside the transaction (`inBlock`,
 * src/db/pipelinedBegin.ts; the key's reservation does). It refuses (throws a Refusal) only
 * before it has written anything but the key's row: the refusal is committed as the key's answer,
 * with that row alone.
 */
export interface ReservingKey<T> {
  reservingKey: (tx: Tx, key: KeyReservation | undefined) => Promise<T>;
}

/**
 * Runs a money operation in one transaction and answers `answer(result)` through the endpoint's
 * contract. With an idempotency claim, the key is reserved and the answer stored in that same
 * transaction, so the operation and its record commit together or not at all: by a statement of
 * its own before the operation, or, for an operation that says so (ReservingKey), by the
 * operation's first statement.
 *
 * `answer` may be the answer itself when it does not depend on the result: it is then stored
 * with the key's reservation, and nothing is written after the operation.
 *
 * The transaction's BEGIN goes out with the statement that reserves the key (one round trip
 * fewer), or, for a ReservingKey operation, with its first statement.
 */
export async function transact<T, E extends ApiEndpoint>(
  c: Context<AppEnv>,
  endpoint: E,
  work: ((tx: Tx) => Promise<T>) | ReservingKey<T>,
  answer: ((result: T) => AnswerOf<E>) | AnswerOf<E>,
) {
  const claim = c.get("idempotency");
  const { db } = c.get("deps");
  const status = successStatus(endpoint);
  const known = typeof answer === "function" ? undefined : wire(endpoint, answer);
  const knownAnswer = known === undefined ? undefined : { status, body: JSON.stringify(known) };
  try {
    const body = await inTransaction(db, async (tx) => {
      let result: T;
      if (typeof work === "function") {
        if (!claim) result = await work(tx);
        else {
          await reserveKey(tx, claim, knownAnswer);
          // Under a savepoint: a refusal undoes the operation's writes, not the key's row.
          const outcome = await keptIfRefused(() => tx.transaction((inner) => work(inner as unknown as Tx)));
          if (outcome instanceof KeptRefusal) return keep(c, tx, claim, outcome);
          result = outcome;
        }
      } else {
        const key = claim && new KeyReservation(tx, claim, knownAnswer);
        // A ReservingKey operation refuses before it writes anything but the key's row.
        const outcome = await keptIfRefused(() => work.reservingKey(tx, key));
        if (key && !key.settled) throw new Error(`${endpoint.path}: the operation did not reserve its Idempotency-Key`);
        if (outcome instanceof KeptRefusal) {
          if (!claim) throw outcome.refusal;
          return keep(c, tx, claim, outcome);
        }
        result = outcome;
      }
      if (known !== undefined) return known;
      const body = wire(endpoint, (answer as (result: T) => AnswerOf<E>)(result));
      if (claim) await saveAnswer(tx, claim, { status, body: JSON.stringify(body) });
      return body;
    }, { beginWithFirst: claim !== undefined || typeof work !== "function" });
    if (body instanceof KeptRefusal) {
      // Already the key's answer: the middleware has nothing to store.
      c.set("answerKept", true);
      throw body.refusal;
    }
    return c.json(body, status);
  } catch (error) {
    if (claim && error instanceof AlreadyAnswered) {
      const stored = await storedAnswer(db, claim);
      if (stored && stored.requestHash !== claim.requestHash) return refusal(c, "idempotency_conflict");
      if (stored && stored.status !== 0) return replay(stored);
    }
    if (claim && (error instanceof AlreadyAnswered || pgCode(error) === "55P03")) return refuseBusy();
    throw error;
  }
}
