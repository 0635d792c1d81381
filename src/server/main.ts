import type { Hono } from "hono";
import { DISABLE_2FA_FLAG, resetAdminFromMachine } from "./adminReset";
import { createApp } from "./app";
import { firstAdminBanner } from "./banner";
import { CONFIG_HELP, loadConfig, RESET_ADMIN_FLAG } from "./config";
import type { AppEnv } from "./env";
import { prepare } from "./start";

/**
 * The server process, shared by `bun src/server/index.ts` and the compiled binary
 * (src/server/binary.ts): `--help`, `--reset-admin-password`, or configuration from the
 * environment, database ready, HTTP on PORT, clean stop on SIGINT/SIGTERM.
 */
export async function main(web: (app: Hono<AppEnv>) => void): Promise<void> {
  if (process.argv.includes("--help")) {
    console.log("Usage: start the server. Configuration comes from the environment:\n");
    for (const [name, meaning, fallback] of CONFIG_HELP) console.log(`  ${name.padEnd(24)} ${meaning} [default: ${fallback}]`);
    console.log(`\n  ${RESET_ADMIN_FLAG} [${DISABLE_2FA_FLAG}]`);
    console.log("      instead of starting: a new admin password (ADMIN_PASSWORD, else random and printed), the admin signed out");
    console.log(`      everywhere; ${DISABLE_2FA_FLAG} also turns the admin's two-factor off. On the embedded database, stop the server first.`);
    process.exit(0);
  }

  const config = loadConfig();
  if (process.argv.includes(RESET_ADMIN_FLAG)) {
    try {
      await resetAdminFromMachine(config, { disableTwoFactor: process.argv.includes(DISABLE_2FA_FLAG) });
      process.exit(0);
    } catch (error) {
      console.error(`The admin password was not reset: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    }
  }

  const { deps, database, createdAdmin } = await prepare(config);
  const app = createApp(deps, { web });
  // Bun hands the server to fetch as its second argument: the app reads the socket's address
  // there (Hono's c.env, src/server/middleware/source.ts).
  const server = Bun.serve({ port: config.port, fetch: app.fetch });
  console.log(`Listening on http://localhost:${server.port} (${database.kind === "pglite" ? `embedded database in ${config.dataDir}` : "Postgres"})`);
  // Last, and set apart, so it is not lost in the log.
  if (createdAdmin?.password) console.log(firstAdminBanner(createdAdmin.email, createdAdmin.password));

  const shutdown = async () => {
    await server.stop();
    await database.close();
    process.exit(0);
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}
