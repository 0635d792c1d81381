import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { pgliteAssets } from "./pglite-assets";
import * as schema from "./schema";

export type Schema = typeof schema;
/** Either driver's database; a transaction handle is one too. */
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export interface Database {
  db: Db;
  kind: "postgres" | "pglite";
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  dataDir?: string;
  /** A PGlite data directory dump to start from (tests clone a migrated template this way). */
  loadDataDir?: Blob;
  /** Connections in the postgres.js pool. */
  max?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const client = postgres(options.databaseUrl, { max: options.max ?? 10, onnotice: () => {} });
    return {
      db: drizzle(client, { schema }) as unknown as Db,
      kind: "postgres",
      close: () => client.end({ timeout: 5 }),
    };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  // PGlite ignores its options object when the first argument is undefined: pass one object.
  const client = new PGlite({ dataDir: options.dataDir, loadDataDir: options.loadDataDir, ...(await pgliteAssets()) });
  await client.waitReady;
  return {
    db: drizzle(client, { schema }) as unknown as Db,
    kind: "pglite",
    close: () => client.close(),
  };
}

/** Rows of a raw `db.execute()` result, whichever driver ran it. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
