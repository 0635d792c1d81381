import { DrizzleQueryError } from "drizzle-orm/errors";
import type { Hono } from "hono";
import { DISABLE_2FA_FLAG, resetAdminFromMachine } from "./adminReset";
import { createApp } from "./app";
import { startBackupSchedule } from "./backups";
import { chainSummary, startChainWatcher } from "./chainWatcher";
import { firstAdminBanner } from "./banner";
import { collectWhenIdle, endWithSupervisor, isWorker, portTaken, startWorkers, workerCount, workerReady, type Workers } from "./cluster";
import { CONFIG_HELP, type Config, loadConfig, RESET_ADMIN_FLAG } from "./config";
import type { AppEnv } from "./env";
import { startMailer } from "./mailer";
import { RESTORE_FLAG, restoreCommand } from "./restore";
import { prepare } from "./start";
import { drain } from "./shutdown";
import { serverFetch } from "./web/pageCache";

/**
 * The server process, shared by `bun src/server/index.ts` and the compiled binary
 * (src/server/binary.ts): `--help`, `--reset-admin-password`, `--restore FILE`, or configuration
 * from the environment, database ready, HTTP on PORT, clean stop on SIGINT/SIGTERM. On Postgres,
 * WORKERS processes (default: one per CPU) serve the port under this one (src/server/cluster.ts).
 */
export async function main(web: (app: Hono<AppEnv>) => void): Promise<void> {
  const args = process.argv.slice(2);
  // `--restore FILE`: the file is the flag's, not an option of its own.
  const restoreAt = args.indexOf(RESTORE_FLAG);
  // A misspelt flag (--reset-admin-pasword) would otherwise start the server instead.
  const unknown = args.find((arg, i) => !SERVER_FLAGS.includes(arg) && !(restoreAt >= 0 && i === restoreAt + 1));
  if (unknown !== undefined) {
    console.error(`Unknown option ${unknown}: the server takes --help, ${RESET_ADMIN_FLAG} (and ${DISABLE_2FA_FLAG} with it) and ${RESTORE_FLAG} FILE.`);
    process.exit(2);
  }
  if (restoreAt >= 0 && !args.includes("--help")) process.exit(await restoreCommand(args[restoreAt + 1]));
  try {
    await start(web);
  } catch (error) {
    // One line with the reason, not an uncaught exception's stack trace.
    console.error(`The server did not start: ${startFailure(error)}`);
    process.exit(1);
  }
}

const SERVER_FLAGS = ["--help", RESET_ADMIN_FLAG, DISABLE_2FA_FLAG, RESTORE_FLAG];

/**
 * Why a start failed, on one line. A failed query of drizzle's (DrizzleQueryError: "Failed query:
 * <the statement>") says the real reason in its cause (the database does not exist, the role does
 * not exist, the connection was refused).
 */
export function startFailure(error: unknown): string {
  let reason = error;
  if (error instanceof DrizzleQueryError && error.cause) reason = error.cause;
  const text = reason instanceof Error ? reason.message || String((reason as { code?: unknown }).code ?? reason.name) : String(reason);
  return text.replace(/\s+/g, " ").trim();
}

async function start(web: (app: Hono<AppEnv>) => void): Promise<void> {
  if (process.argv.includes("--help")) {
    console.log("Usage: start the server. Configuration comes from the environment:\n");
    for (const [name, meaning, fallback] of CONFIG_HELP) console.log(`  ${name.padEnd(24)} ${meaning} [default: ${fallback}]`);
    console.log(`\n  ${RESET_ADMIN_FLAG} [${DISABLE_2FA_FLAG}]`);
    console.log("      instead of starting: a new admin password (ADMIN_PASSWORD, else random and printed), the admin signed out");
    console.log(`      everywhere; ${DISABLE_2FA_FLAG} also turns the admin's two-factor off. On the embedded database, stop the server first.`);
    console.log(`\n  ${RESTORE_FLAG} FILE`);
    console.log("      instead of starting: restores the backup FILE into DATA_DIR (server stopped); what was there is moved to");
    console.log("      DATA_DIR.before-restore-<time>, and the restored database's ledger is checked first.");
    process.exit(0);
  }

  if (process.argv.includes(RESET_ADMIN_FLAG)) {
    try {
      await resetAdminFromMachine(loadConfig(), { disableTwoFactor: process.argv.includes(DISABLE_2FA_FLAG) });
      process.exit(0);
    } catch (error) {
      console.error(`The admin password was not reset: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    }
  }

  const config = loadConfig();
  const workers = workerCount(process.env, config.databaseUrl);
  if (workers > 1 && !isWorker()) return supervise(config, workers);
  if (isWorker()) endWithSupervisor();
  // Before the database is touched: a first start that then could not listen would have created
  // the admin, and its one-time password would never be printed. (Workers share the port.)
  else await refuseTakenPort(config.port);

  const { deps, database, createdAdmin } = await prepare(config);
  const watcher = startChainWatcher(deps);
  deps.chainWatcher = watcher;
  const mailer = startMailer(deps);
  deps.mailer = mailer;
  // The embedded database's backups every BACKUP_INTERVAL_HOURS (none on Postgres).
  const backups = startBackupSchedule(deps);
  const app = createApp(deps, { web });
  // Bun hands the server to fetch as its second argument: the app reads the socket's address
  // there (Hono's c.env, src/server/middleware/source.ts). serverFetch answers the cached pages
  // ahead of the app (src/server/web/pageCache.ts). Workers share the port, and each collects its
  // garbage once it goes idle (src/server/cluster.ts).
  const server = Bun.serve({ port: config.port, reusePort: isWorker(), fetch: collectWhenIdle(serverFetch(app)) });
  if (isWorker()) {
    // The supervisor prints the start-up lines, once.
    workerReady(server.port ?? config.port);
  } else {
    console.log(`Listening on http://localhost:${server.port} (${database.kind === "pglite" ? `embedded database in ${config.dataDir}` : "Postgres"})`);
    console.log(chainSummary(deps));
    // Last, and set apart, so it is not lost in the log.
    if (createdAdmin?.password) console.log(firstAdminBanner(createdAdmin.email, createdAdmin.password));
  }

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    // Requests in flight are answered (10 s at most) and event streams told to come back, before the database closes.
    await drain(server, deps.db);
    await watcher.stop();
    await mailer.stop();
    // A backup being written is finished (the database's close would wait for it too).
    await backups.stop();
    await database.close();
    process.exit(0);
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}

/**
 * On Postgres with WORKERS > 1: this process migrates and seeds (and creates the first admin)
 * once, then runs the workers (src/server/cluster.ts) and prints the start-up lines for all.
 * It refuses a port another server holds (the workers' SO_REUSEPORT would share it with that
 * server), and it ends with code 0 on SIGINT/SIGTERM only: for a process manager any other end
 * is a failure.
 */
async function supervise(config: Config, count: number): Promise<void> {
  // Before the database is touched (a running older release uses it), and again just before the
  // workers bind, for a start that came in the meantime.
  await refuseTakenPort(config.port);
  const { deps, database, createdAdmin } = await prepare(config);
  await database.close();
  await refuseTakenPort(config.port);
  let workers: Workers;
  try {
    workers = await startWorkers(count, config.port);
  } catch (error) {
    console.error(`The server did not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  console.log(`Listening on http://localhost:${workers.port} (Postgres, ${count} worker processes)`);
  console.log(chainSummary(deps));
  if (createdAdmin?.password) console.log(firstAdminBanner(createdAdmin.email, createdAdmin.password));

  // The workers are started again for as long as it runs; should it still end with nothing left
  // to wait for, that is not a clean stop.
  process.exitCode = 1;
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await workers.stop();
    process.exit(0);
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
  // A rolling restart (a new release, or a configuration read again): the workers are replaced one by one.
  process.on("SIGHUP", () => void workers.replace());
}

/** A port another server holds stops the start (main says why, on one line). */
async function refuseTakenPort(port: number): Promise<void> {
  if (await portTaken(port)) throw new Error(`port ${port} is in use (another server, an older release still running?). Stop that one first, or set another PORT.`);
}
