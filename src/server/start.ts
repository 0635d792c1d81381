import { openDatabase, type Database } from "../db/client";
import { migrate } from "../db/migrate";
import { seed } from "../db/seed";
import { argon2Hasher, jwtSecret, type PasswordHasher } from "../core/sessions";
import { mkdirSync } from "node:fs";
import type { Config } from "./config";
import type { Deps } from "./env";

/** Opens the database, migrates, seeds, and resolves everything the app needs. */
export async function prepare(config: Config, hasher: PasswordHasher = argon2Hasher()): Promise<{ deps: Deps; database: Database }> {
  if (!config.databaseUrl) mkdirSync(config.dataDir, { recursive: true });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrate(database);
  await seed(database.db, { adminEmail: config.adminEmail, adminPassword: config.adminPassword, hasher });
  const secret = await jwtSecret(database.db, config.jwtSecret);
  return { database, deps: { db: database.db, config, hasher, jwtSecret: secret } };
}
