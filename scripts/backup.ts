/**
 * `bun run backup`: a backup into BACKUP_DIR, keeping the newest BACKUP_KEEP. On Postgres
 * (DATABASE_URL): `pg_dump --format=custom`, for a nightly cron. On the embedded database: the
 * server's own backup, with the server stopped (while it runs, POST /api/admin/backups, or its
 * schedule). docs/operations.md#backups.
 */
import { backupCommand } from "../src/server/backups";

const USAGE = `Usage: bun run backup

A backup into BACKUP_DIR (default DATA_DIR/../backups), keeping the newest BACKUP_KEEP (default 7).
On Postgres (DATABASE_URL set): pg_dump --format=custom, which pg_restore reads.
On the embedded database (DATA_DIR): stop the server first; while it runs, the admin takes one
with POST /api/admin/backups, and it takes one every BACKUP_INTERVAL_HOURS by itself.
Exit code 0: written; 2: refused (nothing written); 1: failed.`;

const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  console.log(USAGE);
  process.exit(0);
}
if (args.length > 0) {
  console.error(`Unknown option ${args[0]}: no backup was taken (see --help).`);
  process.exit(2);
}
process.exit(await backupCommand());
