import { and, eq, lt, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { idempotencyKeys } from "../db/schema";
import { refuse } from "./errors";

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

export async function storedAnswer(db: Db | Tx, claim: IdempotencyClaim) {
  const [row] = await db
    .select({ requestHash: idempotencyKeys.requestHash, status: idempotencyKeys.status, body: idempotencyKeys.body })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, claim.userId), eq(idempotencyKeys.key, claim.key)));
  return row;
}

/** Thrown inside the transaction when the key turns out to be answered already. */
export class AlreadyAnswered extends Error {}

/**
 * Reserves the key inside the operation's transaction. A second call with the same key waits on
 * the first one's row for a moment only: while the first is still running it is refused (409).
 */
export async function reserveKey(tx: Tx, claim: IdempotencyClaim): Promise<void> {
  await tx.execute(sql`SET LOCAL lock_timeout = '300ms'`);
  const inserted = await tx
    .insert(idempotencyKeys)
    .values({ ...claim, status: 0, body: "" })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  await tx.execute(sql`SET LOCAL lock_timeout = 0`);
  if (inserted.length === 0) throw new AlreadyAnswered();
}

/** Stores the answer with the operation (same transaction), or a refusal on its own. */
export async function saveAnswer(db: Db | Tx, claim: IdempotencyClaim, answer: StoredAnswer): Promise<void> {
  await db
    .insert(idempotencyKeys)
    .values({ ...claim, ...answer })
    .onConflictDoUpdate({
      target: [idempotencyKeys.userId, idempotencyKeys.key],
      set: answer,
      setWhere: sql`${idempotencyKeys.status} = 0`,
    });
}

export async function sweepKeys(db: Db): Promise<void> {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, new Date(Date.now() - KEY_RETENTION_HOURS * 3_600_000)));
}

export const refuseBusy = () => refuse("idempotency_busy");
