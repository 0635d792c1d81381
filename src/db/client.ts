import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { lockDataDir } from "./dataDirLock";
import { pgliteAssets } from "./pglite-assets";

export { DataDirInUse, LOCK_FILE, lockDataDir } from "./dataDirLock";

/**
 * Either driver's database; a transaction handle is one too. Without drizzle's relational
 * queries (`db.query.*`): the code writes its statements with the query builder or as SQL, and a
 * handle made with the schema builds a query object per table for every transaction it opens.
 */
export type Db = PgDatabase<PgQueryResultHKT, NoSchema, ExtractTablesWithRelations<NoSchema>>;
export type Tx = PgTransaction<PgQueryResultHKT, NoSchema, ExtractTablesWithRelations<NoSchema>>;
type NoSchema = Record<string, never>;

/** Whether `db` is a transaction (drizzle's transactions can roll back; a database cannot). */
export const isTransaction = (db: Db | Tx): db is Tx => "rollback" in db;

/**
 * Work a database handle must see finished before it closes (the live events' last publish,
 * src/core/liveEvents.ts): `close()` waits for what is registered here first.
 */
const unfinished = new WeakMap<Db, Set<Promise<unknown>>>();

/** Registers `work` on `db`: its Database's close() waits for it (a failure is the work's own to report). */
export function finishBeforeClose(db: Db, work: Promise<unknown>): void {
  let pending = unfinished.get(db);
  if (!pending) unfinished.set(db, (pending = new Set()));
  const settled = work.then(
    () => {},
    () => {},
  );
  pending.add(settled);
  void settled.then(() => pending.delete(settled));
}

/** Waits for the work registered on `db` (finishBeforeClose), including work registered meanwhile. */
async function finished(db: Db): Promise<void> {
  for (let pending = unfinished.get(db); pending && pending.size > 0; ) await Promise.all(pending);
}

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

/**
 * Prepared statements (the named ones: `runPrepared`, `preparedRaw`, `.prepare(name)`) run on their
 * generic plan, planned once per connection. Left to itself, Postgres chooses between the
 * generic plan and a new plan per execution by comparing the generic plan's cost with the
 * average cost of the first few per-execution plans, and that average is kept for the life of
 * the connection. A connection that prepared a statement while the tables were nearly empty kept
 * a low average; once they grew, the generic plan looked dearer, and Postgres planned the
 * statement again on every execution: GET /api/auth fell from about 12,000 to 3,000 a second
 * after some 20,000 purchases, on the connections opened before them, while new connections
 * stayed fast (docs/performance.md). These statements find their rows by key, or name a partial
 * index's condition in their text, so the generic plan is the plan they would get anyway.
 */
const PLAN_CACHE_MODE = "force_generic_plan";

/**
 * What the planner takes a page read out of order to cost, against 1 for the next page in
 * order. Postgres's default, 4, is for spinning disks: with it, a table of a page or two is
 * read whole rather than through its key, and a young database's tables are that small: on the
 * bench's database GET /api/auth cost Postgres 170 to 210 us a request, against 87 to 108 with
 * 1.1 (docs/performance.md). Our data is in memory or on SSD, where 1.1 is the usual
 * setting.
 */
const RANDOM_PAGE_COST = "1.1";

const CONNECT_TIMEOUT_S = 5;

/** What the server's connections call themselves in Postgres (pg_stat_activity.application_name). */
export const APPLICATION_NAME = "matrix-usdt";

/**
 * The connection of its own that a database handle's gathered reads go on (`readLaneOf`), when it
 * has one: the database handle of a postgres.js client of one connection.
 */
const readLanes = new WeakMap<Db, Db>();

/**
 * Where the reads that every signed-in request makes (the token check, GET /api/auth's member:
 * src/core/prepared.ts `pairsAtOnce`) are sent: a connection of their own, on which a statement
 * sent while another is running queues behind it, in Postgres's input, and starts the moment the
 * first ends. Sent to the pool instead, the second goes to another connection and runs beside the
 * first, each with half the asks (more statements for the same asks); or, sent only once the first
 * has answered, Postgres waits idle for the server to read that answer and send the next (about a
 * third of its time, at GET /api/auth's full speed: docs/performance.md). On the
 * embedded database, or a handle made elsewhere, the handle itself.
 */
export const readLaneOf = (db: Db): Db => readLanes.get(db) ?? db;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const connect = (max: number) =>
      postgres(options.databaseUrl!, {
        max,
        onnotice: () => {},
        // A host that does not answer is given up on in seconds, and a database that comes back
        // (a restart, a standby promoted) is tried again within a second: the driver's own
        // back-off grows to 20 s between tries (docs/operations.md, failover).
        connect_timeout: CONNECT_TIMEOUT_S,
        backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 1),
        // default_transaction_deferrable off whatever the database's default, so that only a BEGIN
        // DEFERRABLE marks a transaction (src/db/pipelinedBegin.ts). As text: postgres.js leaves
        // out of the start-up message a parameter whose value is false.
        // application_name: the metrics count the server's connections by it (src/server/metrics.ts).
        connection: {
          application_name: APPLICATION_NAME,
          plan_cache_mode: PLAN_CACHE_MODE,
          random_page_cost: RANDOM_PAGE_COST,
          default_transaction_deferrable: "off" as unknown as boolean,
        },
      });
    const client = connect(options.max ?? 10);
    // Connected at its first read, like the pool's connections.
    const lane = connect(1);
    const db = drizzle(client) as unknown as Db;
    readLanes.set(db, drizzle(lane) as unknown as Db);
    return {
      db,
      kind: "postgres",
      close: async () => {
        await finished(db);
        await Promise.all([client.end({ timeout: 5 }), lane.end({ timeout: 5 })]);
      },
    };
  }
  // One process per data folder (./dataDirLock.ts): taken before PGlite touches the folder,
  // released after it closes.
  const lock = options.dataDir && !options.dataDir.startsWith("memory://") ? lockDataDir(options.dataDir) : undefined;
  try {
    const { PGlite } = await import("@electric-sql/pglite");
    const { drizzle } = await import("drizzle-orm/pglite");
    // PGlite ignores its options object when the first argument is undefined: pass one object.
    const client = new PGlite({ dataDir: options.dataDir, loadDataDir: options.loadDataDir, ...(await pgliteAssets()) });
    await client.waitReady;
    const db = drizzle(client) as unknown as Db;
    return {
      db,
      kind: "pglite",
      close: async () => {
        try {
          await finished(db);
          await client.close();
        } finally {
          lock?.release();
        }
      },
    };
  } catch (error) {
    lock?.release();
    throw error;
  }
}

/** Rows of a raw `db.execute()` result, whichever driver ran it. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
