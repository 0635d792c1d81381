import { checkAddressKeys } from "../core/chain/ownAddresses";
import { openDatabase, type Database } from "../db/client";
import { migrate } from "../db/migrate";
import { seed, type CreatedAdmin } from "../db/seed";
import { argon2Hasher, boundedHasher, jwtSecret, type PasswordHasher } from "../core/sessions";
import { mkdirSync } from "node:fs";
import type { Config } from "./config";
import { createLogger } from "./logger";
import type { Deps } from "./env";

/**
 * Opens the database, migrates, seeds, and resolves everything the app needs. Password hashing
 * runs with bounded concurrency (config.hashConcurrency, config.hashQueue). `createdAdmin` is the
 * admin this start created, if it did.
 */
export async function prepare(
  config: Config,
  hasher: PasswordHasher = boundedHasher(argon2Hasher(), { concurrency: config.hashConcurrency, queue: config.hashQueue }),
): Promise<{ deps: Deps; database: Database; createdAdmin?: CreatedAdmin }> {
  if (!config.databaseUrl) mkdirSync(config.dataDir, { recursive: true });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrate(database);
  await checkAddressKeys(database.db, config.chain);
  const { createdAdmin } = await seed(database.db, { adminEmail: config.adminEmail, adminPassword: config.adminPassword, hasher });
  const secret = await jwtSecret(database.db, config.jwtSecret);
  return { database, createdAdmin, deps: { db: database.db, config, hasher, jwtSecret: secret, logger: createLogger(config.logLevel) } };
}
