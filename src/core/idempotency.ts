import { and, eq, lt, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { blockMark, inBlock } from "../db/pipelinedBegin";
import { idempotencyKeys } from "../db/schema";
import { refuse } from "./errors";
import { preparedPer, statementOnce } from "./prepared";

/** A money call made with an Idempotency-Key: who, which key, and a hash of what was asked. */
export interface IdempotencyClaim {
  userId: string;
  key: string;
  requestHash: string;
}

export interface StoredAnswer {
  status: number;
  body: string;
}

/** Keys are kept at least this long; older ones are swept as new ones arrive. */
export const KEY_RETENTION_HOURS = 48;

export async function storedAnswer(db: Db | Tx, claim: IdempotencyClaim): Promise<(StoredAnswer & { requestHash: string }) | undefined> {
  const [row] = await storedAnswerStatement(db).execute({ userId: claim.userId, key: claim.key });
  return row;
}

// Read before every keyed call: prepared once per handle (one round trip on postgres.js).
const storedAnswerStatement = preparedPer((db) =>
  db
    .select({ requestHash: idempotencyKeys.requestHash, status: idempotencyKeys.status, body: idempotencyKeys.body })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, sql.placeholder("userId")), eq(idempotencyKeys.key, sql.placeholder("key"))))
    .prepare("idempotency_stored"),
);

/** Thrown inside the transaction when the key turns out to be answered already. */
export class AlreadyAnswered extends Error {}

const UNANSWERED: StoredAnswer = { status: 0, body: "" };

/**
 * Reserves the key inside the operation's transaction. A second call with the same key waits on
 * the first one's row for a moment only: while the first is still running it is refused (409).
 *
 * With `answer`, the operation's answer known before it runs (it does not depend on what the
 * operation finds), that answer is written now and nothing is left to store afterwards: the row
 * commits with the operation or not at all, as with saveAnswer.
 *
 * A statement of its own; an operation whose first statement can carry the reservation takes a
 * KeyReservation instead, and saves the round trip.
 */
export async function reserveKey(tx: Tx, claim: IdempotencyClaim, answer: StoredAnswer = UNANSWERED): Promise<void> {
  const reserved = await reserveStatement(tx, reservationValues(tx, claim, answer));
  if (reserved.length === 0) throw new AlreadyAnswered();
}

/**
 * The reservation of reserveKey as two common table expressions, for the head of a WITH list, with
 * placeholders (reservationValues fills them): `key_reserved` has one row when the key was
 * reserved, none when it was taken.
 *
 * lock_timeout is set (for this transaction) before the insert can wait on a twin's row, since
 * the insert reads its row from that setting's CTE, and set back to 0 by the inserted row's
 * RETURNING. When nothing is inserted the transaction is rolled back (AlreadyAnswered), which
 * undoes the setting too.
 *
 * They may be the first statement of a transaction whose BEGIN went out with them
 * (src/db/pipelinedBegin.ts): `key_wait` has its row only inside that transaction (`keyMark` is
 * blockMark's), and so, should the BEGIN have failed, nothing is inserted, and nothing hung off
 * `key_reserved` runs.
 */
const RESERVATION_CTES = sql`key_wait AS MATERIALIZED (SELECT set_config('lock_timeout', '300ms', true) AS lock_timeout WHERE ${inBlock} = ${sql.placeholder("keyMark")}::text),
      key_reserved AS (
        INSERT INTO idempotency_keys (user_id, key, request_hash, status, body)
        SELECT ${sql.placeholder("keyUser")}::text, ${sql.placeholder("key")}::text, ${sql.placeholder("keyHash")}::text,
          ${sql.placeholder("keyStatus")}::smallint, ${sql.placeholder("keyBody")}::text
        FROM key_wait WHERE key_wait.lock_timeout IS NOT NULL
        ON CONFLICT DO NOTHING
        RETURNING set_config('lock_timeout', '0', true) AS lock_timeout
      )`;

/** The values of RESERVATION_CTES' placeholders: the key's row, and the transaction's mark. */
function reservationValues(tx: Tx, claim: IdempotencyClaim, answer: StoredAnswer) {
  return { keyUser: claim.userId, key: claim.key, keyHash: claim.requestHash, keyStatus: answer.status, keyBody: answer.body, keyMark: blockMark(tx) };
}

const reserveStatement = statementOnce("idempotency_reserve", sql`WITH ${RESERVATION_CTES} SELECT 1 FROM key_reserved`);

/**
 * The key's reservation (reserveKey) made by the operation's own first statement: one statement,
 * so one round trip, fewer. That statement leads its WITH list with `ctes`, and makes every lock
 * it takes and every row it writes depend on a row of `key_reserved` (a twin's key is waited for
 * first, and with its 300 ms limit only); it answers whether `key_reserved` has its row, and the
 * operation hands that to `settle` before it looks at anything else the statement answered.
 * transact checks that the operation did.
 */
export class KeyReservation {
  #settled = false;

  constructor(
    private readonly tx: Tx,
    private readonly claim: IdempotencyClaim,
    private readonly answer: StoredAnswer = UNANSWERED,
  ) {}

  /**
   * `key_wait` and `key_reserved`, for the head of the first statement's WITH list, written with
   * placeholders (the same for every call, so that the statement is made once): `values` fills them.
   */
  static readonly ctes = RESERVATION_CTES;

  /** The values of `ctes`' placeholders for this call. */
  get values() {
    return reservationValues(this.tx, this.claim, this.answer);
  }

  /** Whether `key_reserved` had its row: throws AlreadyAnswered when the key was taken. */
  settle(reserved: boolean): void {
    this.#settled = true;
    if (!reserved) throw new AlreadyAnswered();
  }

  get settled(): boolean {
    return this.#settled;
  }
}

/**
 * Stores the answer with the operation (same transaction), or a refusal on its own; false when
 * the key already held another call's answer (a twin that ran while this one was refused: its
 * row, not yet committed, was waited for), which stays the key's.
 */
export async function saveAnswer(db: Db | Tx, claim: IdempotencyClaim, answer: StoredAnswer): Promise<boolean> {
  const saved = await db
    .insert(idempotencyKeys)
    .values({ ...claim, ...answer })
    .onConflictDoUpdate({
      target: [idempotencyKeys.userId, idempotencyKeys.key],
      set: answer,
      setWhere: sql`${idempotencyKeys.status} = 0`,
    })
    .returning({ key: idempotencyKeys.key })
    .prepare("idempotency_save")
    .execute();
  return saved.length > 0;
}

/** Sets the answer of a key reserved in this transaction, whatever it held (transact: a refusal replacing a success written ahead). */
export async function keepAnswer(tx: Tx, claim: IdempotencyClaim, answer: StoredAnswer): Promise<void> {
  await tx
    .update(idempotencyKeys)
    .set(answer)
    .where(and(eq(idempotencyKeys.userId, claim.userId), eq(idempotencyKeys.key, claim.key)));
}

export async function sweepKeys(db: Db): Promise<void> {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, new Date(Date.now() - KEY_RETENTION_HOURS * 3_600_000)));
}

export const refuseBusy = () => refuse("idempotency_busy");
