/**
 * `bun run restore FILE`: the backup FILE becomes the embedded database in DATA_DIR, with the
 * server stopped. What was in DATA_DIR is moved aside, never deleted, and the restored database
 * is checked (the ledger invariants) before it takes its place. The single executable does the
 * same with `--restore FILE`. docs/operations.md#backups.
 */
import { restoreCommand } from "../src/server/restore";

const USAGE = `Usage: bun run restore FILE

Restores FILE (a backup of the embedded database, backup-<time>.tar.gz) into DATA_DIR. Stop the
server first. The backup is unpacked beside DATA_DIR, migrated if it is older than this release,
and its ledger invariants checked; then DATA_DIR is moved to DATA_DIR.before-restore-<time> (never
deleted) and the restored database takes its place. A Postgres dump is restored with pg_restore.
Exit code 0: restored; 2: refused (nothing changed); 1: failed (the folders are named).`;

const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  console.log(USAGE);
  process.exit(0);
}
if (args.length > 1) {
  console.error(`One backup file at a time: the backup was not restored (see --help).`);
  process.exit(2);
}
process.exit(await restoreCommand(args[0]));
