import { eq } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { settings } from "../db/schema";
import { preparedPer } from "./prepared";

/*
 * The version of what the public pages show from the database (level prices), so that every
 * server process can keep those pages rendered in memory and still show an edit within seconds:
 * a `settings` row, changed in the same transaction as the edit, and read cheaply by each
 * process at most every few seconds (src/server/web/pageCache.ts). The process that made the
 * edit shows it at once (`pendingContentVersion`).
 */

const KEY = "content_version";

/** How long a local edit makes the pages re-read the version on every request, at most: its transaction commits or rolls back well within this. */
const PENDING_MS = 5_000;

/** The version this process wrote last, until the pages have seen it (or it is older than PENDING_MS). */
let pending: { value: string; until: number } | undefined;

/** A new content version, written in `tx`: call it in the transaction that changes what the public pages show. */
export async function bumpContentVersion(tx: Tx | Db): Promise<void> {
  const value = crypto.randomUUID();
  await tx.insert(settings).values({ key: KEY, value }).onConflictDoUpdate({ target: settings.key, set: { value } });
  pending = { value, until: Date.now() + PENDING_MS };
}

/**
 * The version this process wrote last, while it may not be visible yet (its transaction may still
 * be running): pages rendered at another version are not served until they have looked again.
 */
export function pendingContentVersion(now = Date.now()): string | undefined {
  if (pending && now > pending.until) pending = undefined;
  return pending?.value;
}

/** Tests: forget this process's last edit (it is process-wide, and other test files edit prices too). */
export function forgetPendingContentVersion(): void {
  pending = undefined;
}

const versionStatement = preparedPer((db) =>
  db.select({ value: settings.value }).from(settings).where(eq(settings.key, KEY)).prepare("content_version"),
);

/** The current content version; null before the first edit. One indexed read. */
export async function readContentVersion(db: Db): Promise<string | null> {
  const [row] = await versionStatement(db).execute();
  return row?.value ?? null;
}
