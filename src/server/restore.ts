import { existsSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, resolve } from "node:path";
import { sql } from "drizzle-orm";
import { ledgerViolations, readLedger } from "../core/ledgerChecks";
import { readBackupName } from "../db/backup";
import { type Database, DataDirInUse, lockDataDir, openDatabase, rowsOf } from "../db/client";
import { migrate } from "../db/migrate";
import { type EmbeddedMigration, migrations as ALL_MIGRATIONS } from "../db/migrations.gen";
import { CommandRefused, settings } from "./backups";
import { type Config, loadConfig } from "./config";

/** The binary's flag: `--restore FILE`. */
export const RESTORE_FLAG = "--restore";

/** A restore whose database did not pass its checks: nothing was replaced, and both folders are where they were. */
export class RestoreFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RestoreFailed";
  }
}

export interface Restored {
  dataDir: string;
  /** Where the data folder that was there went; none when there was none. */
  movedAside?: string;
  /** When the backup was taken, as its name says (undefined for a file named otherwise). */
  takenAt?: Date;
  members: number;
  ledgerEntries: number;
  /** Migrations this build applied to the backup (one from an older release). */
  migrated: number;
}

/** `2026-11-29T12-00-00-123Z`: the sibling folders' suffix. */
const stamp = (at: Date) => at.toISOString().replace(/[:.]/g, "-");

/** The first bytes of pg_dump's custom format. */
const PG_DUMP_MAGIC = "PGDMP";

/** The backup, checked to be a tarball of a data folder, as a File PGlite unpacks (its name tells it to unzip). */
async function readBackup(file: string): Promise<File> {
  if (!existsSync(file) || !statSync(file).isFile()) throw new CommandRefused(`No backup file at ${file}.`);
  const bytes = readFileSync(file);
  if (bytes.subarray(0, PG_DUMP_MAGIC.length).toString("latin1") === PG_DUMP_MAGIC) {
    throw new CommandRefused(`${file} is a Postgres dump (pg_dump): restore it with pg_restore into the database DATABASE_URL names (docs/operations.md#backups).`);
  }
  const notABackup = `${file} is not a backup of the embedded database (a .tar.gz of its data folder, written by the server or bun run backup).`;
  let hasVersion = false;
  try {
    hasVersion = (await new Bun.Archive(bytes).files(["/PG_VERSION", "PG_VERSION"])).size > 0;
  } catch {
    throw new CommandRefused(notABackup);
  }
  if (!hasVersion) throw new CommandRefused(notABackup);
  const gzipped = bytes[0] === 0x1f && bytes[1] === 0x8b;
  return new File([bytes], gzipped ? "backup.tar.gz" : "backup.tar", { type: gzipped ? "application/gzip" : "application/x-tar" });
}

/**
 * `bun run restore FILE` (scripts/restore.ts) and the binary's `--restore FILE`: the backup
 * becomes the embedded database in DATA_DIR. The server must be stopped (the data folder's lock
 * says whether one runs). The backup is unpacked and opened in a sibling folder first, migrated
 * when it comes from an older release, and its ledger invariants checked; only then is the data
 * folder moved aside (`DATA_DIR.before-restore-<time>`, never deleted) and the restored one put
 * in its place. A refusal (no such file, not a backup, a server running, Postgres) is a
 * CommandRefused and changes nothing; a database that fails its checks is a RestoreFailed, and
 * leaves DATA_DIR as it was and the restored copy beside it to look at.
 */
export async function restoreFromMachine(
  config: Config,
  file: string,
  options: { print?: (line: string) => void; now?: Date; migrations?: EmbeddedMigration[] } = {},
): Promise<Restored> {
  const print = options.print ?? console.log;
  if (config.databaseUrl) {
    throw new CommandRefused("DATABASE_URL is set: a Postgres database is restored with pg_restore (docs/operations.md#backups); this command restores the embedded database.");
  }
  const backup = await readBackup(file);
  const dataDir = resolve(config.dataDir);
  const at = options.now ?? new Date();

  // Held until the restored folder is in place: no server starts on the folder meanwhile.
  let lock: { release(): void } | undefined;
  if (existsSync(dataDir)) {
    try {
      lock = lockDataDir(dataDir);
    } catch (error) {
      if (!(error instanceof DataDirInUse)) throw error;
      throw new CommandRefused(`The data folder ${dataDir} is in use by a running server (pid ${error.pid}): stop it first.`);
    }
  }
  try {
    const staging = `${dataDir}.restoring-${stamp(at)}`;
    let database: Database;
    try {
      database = await openDatabase({ dataDir: staging, loadDataDir: backup });
    } catch (error) {
      // Only what this command unpacked is removed.
      rmSync(staging, { recursive: true, force: true });
      throw new CommandRefused(`${file} could not be opened as a database: ${error instanceof Error ? error.message : String(error)}`);
    }
    let counts: { members: number; ledgerEntries: number; migrated: number };
    try {
      counts = await check(database, file, staging, options.migrations ?? ALL_MIGRATIONS);
    } catch (error) {
      await database.close();
      // A backup this release cannot take leaves nothing behind; one that fails its checks stays, to be looked at.
      if (error instanceof CommandRefused) rmSync(staging, { recursive: true, force: true });
      if (error instanceof CommandRefused || error instanceof RestoreFailed) throw error;
      throw new RestoreFailed(
        `The restored database could not be migrated or checked (${error instanceof Error ? error.message : String(error)}). ${nothingReplaced(staging)}`,
      );
    }
    await database.close();

    // Whatever is there, a database or not, is moved aside, never overwritten.
    let movedAside: string | undefined;
    if (existsSync(dataDir)) {
      movedAside = `${dataDir}.before-restore-${stamp(at)}`;
      renameSync(dataDir, movedAside);
    }
    try {
      renameSync(staging, dataDir);
    } catch (error) {
      throw new RestoreFailed(
        `The restored database could not be put in place (${error instanceof Error ? error.message : String(error)}). It is in ${staging}` +
          (movedAside ? `; what was in ${dataDir} is in ${movedAside}.` : "."),
      );
    }
    const restored: Restored = { dataDir, movedAside, takenAt: readBackupName(basename(file))?.createdAt, ...counts };
    print(restoredLine(file, restored));
    return restored;
  } finally {
    lock?.release();
  }
}

/**
 * Migrates a backup of an older release, refuses one of a newer release, and checks the ledger
 * invariants; answers what it holds. `migrations`: this release's (tests pass others, to play a
 * release before or after the backup's).
 */
async function check(database: Database, file: string, staging: string, migrations: EmbeddedMigration[]) {
  const { db } = database;
  const applied = async () =>
    rowsOf<{ hash: string }>(await db.execute(sql`SELECT hash FROM drizzle.__drizzle_migrations`).catch(() => [])).map((r) => r.hash);
  const known = new Set(migrations.map((m) => m.hash));
  const before = await applied();
  if (before.length === 0) {
    throw new CommandRefused(`${file} holds a Postgres data folder, but not this server's database (it has none of its migrations).`);
  }
  const unknown = before.filter((hash) => !known.has(hash));
  if (unknown.length > 0) {
    throw new CommandRefused(`${file} comes from a newer release (${unknown.length} migrations this one does not have): restore it with that release or a later one.`);
  }
  await migrate(database, migrations);
  const migrated = (await applied()).length - before.length;

  const violations = ledgerViolations(await readLedger(async (query) => rowsOf<Record<string, unknown>>(await db.execute(sql.raw(query)))));
  if (violations.length > 0) {
    const shown = violations.slice(0, 5).join("; ") + (violations.length > 5 ? `; and ${violations.length - 5} more` : "");
    throw new RestoreFailed(`The restored database breaks the ledger invariants (${shown}). ${nothingReplaced(staging)}`);
  }
  const [row] = rowsOf<{ members: number; transfers: number }>(
    await db.execute(sql`SELECT (SELECT count(*)::int FROM users WHERE role = 'user' AND deleted_at IS NULL) AS members, (SELECT count(*)::int FROM transfers) AS transfers`),
  );
  return { members: row?.members ?? 0, ledgerEntries: row?.transfers ?? 0, migrated };
}

const nothingReplaced = (staging: string) => `Nothing was replaced: the data folder is as it was, and the restored copy is in ${staging} to look at.`;

function restoredLine(file: string, r: Restored): string {
  const taken = r.takenAt ? `, taken ${r.takenAt.toISOString()}` : "";
  const migrated = r.migrated > 0 ? ` ${r.migrated} migrations of this release applied.` : "";
  const aside = r.movedAside ? ` What was in the data folder is in ${r.movedAside}; nothing was deleted.` : "";
  return (
    `Restored ${file}${taken}, into ${r.dataDir}: ${r.members.toLocaleString("en-US")} members, ` +
    `${r.ledgerEntries.toLocaleString("en-US")} ledger entries; the ledger invariants hold.${migrated}${aside} Start the server.`
  );
}

/**
 * The restore as a command (the script and the binary's flag): prints the outcome and answers
 * the exit code: 0 restored, 2 refused (nothing changed), 1 failed (the message says where
 * each folder is).
 */
export async function restoreCommand(file: string | undefined, config: () => Config = loadConfig): Promise<number> {
  try {
    if (!file) throw new CommandRefused(`Name the backup to restore: ${RESTORE_FLAG} FILE (bun run restore FILE).`);
    await restoreFromMachine(settings(config), file);
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof CommandRefused) {
      console.error(`The backup was not restored: ${message}`);
      return 2;
    }
    console.error(`The restore failed: ${message}`);
    return 1;
  }
}
