import { Column, is, Param, Placeholder, SQL } from "drizzle-orm";
import { DrizzleQueryError } from "drizzle-orm/errors";
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

/** What `hot` reads of a query drizzle prepared for postgres.js (its PostgresJsPreparedQuery). */
interface PostgresJsParts {
  client?: { unsafe?: (text: string, args: unknown[], options: { prepare: boolean }) => { values(): Promise<unknown[][]> } };
  queryString?: string;
  params?: unknown[];
  fields?: { path: string[]; field: unknown }[];
}

type Decoder = { mapFromDriverValue(raw: unknown): unknown };

/** A hot select, called with its placeholders' values; `direct` when it runs on the driver itself. */
export type HotSelect<Row> = ((values: Record<string, unknown>) => Promise<Row[]>) & { direct: boolean };

/**
 * A select prepared by drizzle (`.prepare(name)`) that runs on every request (the token's user,
 * GET /api/auth's member), made cheaper to run. On postgres.js its text, parameters and column
 * decoders are read once, and each call goes straight to the driver: the same prepared statement,
 * the same rows as `execute`. Drizzle's `execute` also opens tracing spans, asks its result cache
 * and finds each column's decoder again for every row, all per call (bench/RESULTS.md has what
 * that cost GET /api/auth). Anything else (the embedded database, a select with nested columns)
 * runs through `execute`.
 */
export function hot<Row>(query: { execute(values?: Record<string, unknown>): Promise<Row[]> }): HotSelect<Row> {
  const { client, queryString, params, fields } = query as unknown as PostgresJsParts;
  const unsafe = client?.unsafe;
  if (!unsafe || queryString === undefined || !params || !fields || fields.some((f) => f.path.length !== 1)) {
    return Object.assign((values: Record<string, unknown>) => query.execute(values), { direct: false });
  }
  const keys = fields.map((f) => f.path[0]!);
  const decoders = fields.map(({ field }, i): Decoder => {
    const decoder = is(field, Column) ? field : is(field, SQL) ? (field as unknown as { decoder: Decoder }).decoder : undefined;
    if (!decoder) throw new Error(`hot: no decoder for the column ${keys[i]}`);
    return decoder;
  });
  // Each parameter: a value of the call (a placeholder, as fillPlaceholders reads it), or fixed.
  const fill = params.map((p): ((values: Record<string, unknown>) => unknown) => {
    const [name, encode] = is(p, Placeholder) ? [p.name, (v: unknown) => v] : is(p, Param) && is(p.value, Placeholder) ? [p.value.name, (v: unknown) => p.encoder.mapToDriverValue(v)] : [];
    if (name === undefined) return () => p;
    return (values) => {
      if (!(name in values)) throw new Error(`No value for placeholder "${name}" was provided`);
      return encode!(values[name]);
    };
  });
  const run = async (values: Record<string, unknown>) => {
    const args = fill.map((value) => value(values));
    let rows: unknown[][];
    try {
      rows = await unsafe.call(client, queryString, args, { prepare: true }).values();
    } catch (error) {
      throw new DrizzleQueryError(queryString, args, error as Error);
    }
    return rows.map((raw) => {
      const row: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) row[keys[i]!] = raw[i] === null ? null : decoders[i]!.mapFromDriverValue(raw[i]);
      return row as Row;
    });
  };
  return Object.assign(run, { direct: true });
}
