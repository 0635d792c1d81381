import type { Hono } from "hono";
import { createApp } from "./app";
import { CONFIG_HELP, loadConfig } from "./config";
import type { AppEnv } from "./env";
import { prepare } from "./start";

/**
 * The server process, shared by `bun src/server/index.ts` and the compiled binary
 * (src/server/binary.ts): `--help`, or configuration from the environment, database ready,
 * HTTP on PORT, clean stop on SIGINT/SIGTERM.
 */
export async function main(web: (app: Hono<AppEnv>) => void): Promise<void> {
  if (process.argv.includes("--help")) {
    console.log("Usage: start the server. Configuration comes from the environment:\n");
    for (const [name, meaning, fallback] of CONFIG_HELP) console.log(`  ${name.padEnd(24)} ${meaning} [default: ${fallback}]`);
    process.exit(0);
  }

  const config = loadConfig();
  const { deps, database } = await prepare(config);
  const app = createApp(deps, { web });
  const server = Bun.serve({ port: config.port, fetch: app.fetch });
  console.log(`Listening on http://localhost:${server.port} (${database.kind === "pglite" ? `embedded database in ${config.dataDir}` : "Postgres"})`);

  const shutdown = async () => {
    await server.stop();
    await database.close();
    process.exit(0);
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}
