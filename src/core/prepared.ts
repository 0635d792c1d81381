import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { rowsOf, type Db, type Tx } from "../db/client";

const dialect = new PgDialect();

/**
 * Runs a raw statement as a prepared one, on whatever connection `db` (a transaction too) is
 * bound to; answers its rows as the driver hands them over (bigint columns as strings).
 *
 * Why: postgres.js sends a statement that is not prepared as two round trips (parse and
 * describe, then bind and execute), and Postgres parses and plans it every time. A prepared
 * statement is kept per connection and per text: after its first use on a connection it is one
 * round trip, with no parse and (after a few runs) no planning. So the text must not vary from
 * call to call: pass lists as one JSON parameter, never as a variable number of them. (The
 * embedded database has no such cost; there it is an ordinary query.)
 *
 * Query builders get the same with `.prepare(name)` before `.execute()`.
 */
export async function runPrepared<Row>(db: Db | Tx, name: string, query: SQL): Promise<Row[]> {
  return rowsOf<Row>(await db._.session.prepareQuery(dialect.sqlToQuery(query), undefined, name, false).execute());
}
