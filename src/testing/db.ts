import postgres from "postgres";
import { argon2Hasher } from "../core/sessions";
import { openDatabase, type Database } from "../db/client";
import { migrate } from "../db/migrate";
import { migrations } from "../db/migrations.gen";
import { seed } from "../db/seed";

/** Cheap argon2id for tests; production uses Bun's defaults. */
export const testHasher = argon2Hasher({ memoryCost: 1024, timeCost: 1 });
export const ADMIN = { email: "admin@test.local", password: "admin-password" };

/** Set TEST_DATABASE_URL to run the database-facing tests on real Postgres instead of PGlite. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;
export const onPostgres = Boolean(TEST_DATABASE_URL);

/**
 * Migrates `database` up to just before the first migration whose SQL holds `marker` (an upgrade
 * test then writes the old rows and migrates the rest). Fails when no migration after the first
 * holds it.
 */
export async function migrateUpTo(database: Database, marker: string): Promise<void> {
  const at = migrations.findIndex((m) => m.sql.some((s) => s.includes(marker)));
  if (at <= 0) throw new Error(`no migration after the first holds ${JSON.stringify(marker)}`);
  await migrate(database, migrations.slice(0, at));
}

async function prepareTemplate(database: Database) {
  await migrate(database);
  await seed(database.db, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, hasher: testHasher });
}

let pgliteTemplate: Promise<Blob> | undefined;
let postgresTemplate: Promise<string> | undefined;

function withDatabase(url: string, name: string) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function createPostgresTemplate(url: string): Promise<string> {
  const name = `tmpl_${process.pid}_${Date.now().toString(36)}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const database = await openDatabase({ databaseUrl: withDatabase(url, name), max: 1 });
  await prepareTemplate(database);
  await database.close();
  await admin.end();
  return name;
}

/**
 * Drops the Postgres template this process made. The preload calls it once after the whole run:
 * bun test runs no exit handlers, and every run used to leave a template database behind.
 */
export async function dropTemplate(): Promise<void> {
  const name = TEST_DATABASE_URL && (await postgresTemplate?.catch(() => undefined));
  if (!name) return;
  const admin = postgres(TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name}`);
  } finally {
    await admin.end();
  }
}

/**
 * A migrated and seeded database of its own (admin: ADMIN). PGlite by default, cloned from a
 * template made once per test process; a fresh database on TEST_DATABASE_URL's server otherwise.
 */
export async function freshDatabase(options: { max?: number } = {}): Promise<Database> {
  if (TEST_DATABASE_URL) {
    postgresTemplate ??= createPostgresTemplate(TEST_DATABASE_URL);
    const template = await postgresTemplate;
    const name = `t_${process.pid}_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const admin = postgres(TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    const database = await openDatabase({ databaseUrl: withDatabase(TEST_DATABASE_URL, name), max: options.max ?? 20 });
    return {
      ...database,
      close: async () => {
        await database.close();
        await admin.unsafe(`DROP DATABASE IF EXISTS ${name}`);
        await admin.end();
      },
    };
  }
  pgliteTemplate ??= (async () => {
    const database = await openDatabase({});
    await prepareTemplate(database);
    const client = (database.db as unknown as { $client: { dumpDataDir(c?: string): Promise<Blob> } }).$client;
    const dump = await client.dumpDataDir("none");
    await database.close();
    return dump;
  })();
  return openDatabase({ loadDataDir: await pgliteTemplate });
}
