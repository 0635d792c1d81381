import { sql } from "drizzle-orm";
import { type Database, rowsOf } from "./client";
import { migrations as all, type EmbeddedMigration } from "./migrations.gen";

/**
 * Applies the SQL migrations of drizzle/ (embedded in migrations.gen.ts) that have not run yet, in one transaction,
 * recording them in drizzle's own journal table (compatible with drizzle-kit migrate). Tests pass
 * the first few of `migrations` to build a database as an older release left it.
 */
export async function migrate(database: Database, migrations: EmbeddedMigration[] = all): Promise<void> {
  const { db } = database;
  await db.execute(sql`CREATE SCHEMA IF NOT EXISTS drizzle`);
  await db.execute(
    sql`CREATE TABLE IF NOT EXISTS drizzle.__drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)`,
  );
  await db.transaction(async (tx) => {
    // Two processes starting at once on one Postgres must not both migrate.
    await tx.execute(sql`LOCK TABLE drizzle.__drizzle_migrations IN EXCLUSIVE MODE`);
    const done = await tx.execute(sql`SELECT hash FROM drizzle.__drizzle_migrations`);
    const applied = new Set(rowsOf<{ hash: string }>(done).map((r) => r.hash));
    for (const migration of migrations) {
      if (applied.has(migration.hash)) continue;
      for (const statement of migration.sql) {
        if (statement.trim()) await tx.execute(sql.raw(statement));
      }
      await tx.execute(
        sql`INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES (${migration.hash}, ${migration.folderMillis})`,
      );
    }
  });
}
