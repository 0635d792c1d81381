import { existsSync } from "node:fs";
import { join } from "node:path";
import { refuse } from "../core/errors";
import { backUpEmbedded, backUpPostgres, type BackupFile, embeddedClientOf, listBackups, readBackupName } from "../db/backup";
import { DataDirInUse, openDatabase } from "../db/client";
import { type Config, loadConfig } from "./config";
import type { Deps } from "./env";
import { startPassLoop } from "./passLoop";

/**
 * Backups as the server and the machine-side commands take them (docs/operations.md#backups);
 * the files themselves are src/db/backup.ts's.
 */

/** A command run from the server's machine that would not do what was asked; it says why, on one line, and exits with code 2. */
export class CommandRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CommandRefused";
  }
}

/** POST /api/admin/backups: a backup of the embedded database, now. On Postgres the server takes none (pg_dump and WAL archiving do). */
export function takeBackup(deps: Pick<Deps, "db" | "config">): Promise<BackupFile> {
  if (!embeddedClientOf(deps.db)) refuse("backup_unsupported");
  return backUpEmbedded(deps.db, deps.config.backupDir, { keep: deps.config.backupKeep });
}

/** How often the schedule looks whether a backup is due: one is taken at most this late. */
const CHECK_MS = 10 * 60_000;
/**
 * The schedule's first look, after the start: the start is not held up by a backup, and a
 * server that only starts and stops (a failed deploy, a test) writes none.
 */
const FIRST_CHECK_MS = 60_000;

export interface BackupSchedule {
  /** Looks now (after a look in flight): the backup it took, if one was due (tests). */
  runOnce(): Promise<BackupFile | undefined>;
  /** Stops, after a backup in flight is written. */
  stop(): Promise<void>;
}

const idle: BackupSchedule = { runOnce: async () => undefined, stop: async () => {} };

/**
 * The embedded database's backups while the server runs: a backup is due when the newest one in
 * BACKUP_DIR (whoever took it) is BACKUP_INTERVAL_HOURS old, or there is none. Whether one is due
 * is read from the folder, so a restart neither skips nor repeats one. A failed backup (a full
 * disk) is logged and tried again at the next look. None on Postgres, nor with the interval 0.
 */
export function startBackupSchedule(
  deps: Pick<Deps, "db" | "config" | "log">,
  options: { checkMs?: number; firstMs?: number; now?: () => Date; print?: (line: string) => void } = {},
): BackupSchedule {
  const { config } = deps;
  if (config.backupIntervalHours === 0 || !embeddedClientOf(deps.db)) return idle;
  const intervalMs = config.backupIntervalHours * 3_600_000;
  const now = options.now ?? (() => new Date());
  const log = deps.log ?? ((message: string, error?: unknown) => console.error(message, error ?? ""));
  const print = options.print ?? console.log;

  const pass = async (): Promise<BackupFile | undefined> => {
    const newest = listBackups(config.backupDir).find((b) => readBackupName(b.file)?.kind === "embedded");
    if (newest && now().getTime() - newest.createdAt.getTime() < intervalMs) return undefined;
    const made = await backUpEmbedded(deps.db, config.backupDir, { keep: config.backupKeep, now });
    print(`Backup written: ${join(config.backupDir, made.file)} (${made.bytes} bytes)`);
    return made;
  };
  const loop = startPassLoop(pass, {
    periodMs: Math.min(intervalMs, options.checkMs ?? CHECK_MS),
    firstMs: options.firstMs ?? FIRST_CHECK_MS,
    failed: (error) => {
      log("A scheduled backup failed; it is tried again at the next look", error);
      return undefined;
    },
  });
  return { runOnce: () => loop.runOnce(), stop: () => loop.stop() };
}

/**
 * `bun run backup` (scripts/backup.ts). On Postgres: pg_dump of DATABASE_URL into BACKUP_DIR. On
 * the embedded database: the server's own backup, with the server stopped (one process at a time
 * may open the data folder; while it runs, the API takes one).
 */
export async function backupFromMachine(config: Config, print: (line: string) => void = console.log): Promise<BackupFile> {
  const options = { keep: config.backupKeep };
  let made: BackupFile;
  if (config.databaseUrl) {
    made = await backUpPostgres(config.databaseUrl, config.backupDir, options);
  } else {
    // Opening an empty folder would create a database there, and back that up.
    if (!existsSync(join(config.dataDir, "PG_VERSION"))) throw new CommandRefused(`There is no embedded database in ${config.dataDir} (DATA_DIR) to back up.`);
    let database;
    try {
      database = await openDatabase({ dataDir: config.dataDir });
    } catch (error) {
      if (!(error instanceof DataDirInUse)) throw error;
      throw new CommandRefused(
        `A server is running on ${config.dataDir} (pid ${error.pid}): take the backup through it, POST /api/admin/backups as the admin (it also takes one every BACKUP_INTERVAL_HOURS).`,
      );
    }
    try {
      made = await backUpEmbedded(database.db, config.backupDir, options);
    } finally {
      await database.close();
    }
  }
  print(`Backup written: ${join(config.backupDir, made.file)} (${made.bytes} bytes; the newest ${config.backupKeep} are kept)`);
  return made;
}

/** The configuration, or a refusal saying which variable is wrong. */
export function settings(config: () => Config): Config {
  try {
    return config();
  } catch (error) {
    throw new CommandRefused(error instanceof Error ? error.message : String(error));
  }
}

/** `bun run backup` as a command: prints the outcome and answers the exit code (0 written, 2 refused, 1 failed). */
export async function backupCommand(config: () => Config = loadConfig): Promise<number> {
  try {
    await backupFromMachine(settings(config));
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`${error instanceof CommandRefused ? "No backup was taken" : "The backup failed"}: ${message}`);
    return error instanceof CommandRefused ? 2 : 1;
  }
}
