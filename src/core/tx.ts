import type { Db, Tx } from "../db/client";
import { announced, publish } from "./liveEvents";

const RETRYABLE = new Set(["40001", "40P01"]); // serialization failure, deadlock detected

export function pgCode(error: unknown): string | undefined {
  for (let e: unknown = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && code.length === 5) return code;
  }
  return undefined;
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (pgCode(error) !== "23505") return false;
  if (!constraint) return true;
  for (let e: unknown = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    const name = (e as { constraint_name?: string; constraint?: string }).constraint_name ?? (e as { constraint?: string }).constraint;
    if (name) return name === constraint;
  }
  return String((error as Error)?.message ?? "").includes(constraint);
}

/**
 * Runs `work` in one database transaction: all of its writes happen or none do. Deadlocks and
 * serialization failures are retried with a short jittered back-off, so callers never see them.
 * The live events the work announced are published once the commit has succeeded
 * (liveEvents.ts): a rolled-back attempt publishes nothing.
 */
export async function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>, attempts = 8): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      const { result, events } = await db.transaction(async (tx) => {
        const result = await work(tx);
        // Sent now and answered before the COMMIT that follows it at once: the events are read in
        // the commit's round trip, not one of their own. Should the read fail, the transaction is
        // aborted, Postgres answers the COMMIT with a rollback, and the failure is thrown below.
        const events = announced(tx);
        events.catch(() => {});
        return { result, events };
      });
      publish(db, await events);
      return result;
    } catch (error) {
      if (attempt >= attempts || !RETRYABLE.has(pgCode(error) ?? "")) throw error;
      await Bun.sleep(Math.random() * 5 * attempt);
    }
  }
}
