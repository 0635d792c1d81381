import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "../db/client";

/**
 * The plan Postgres runs a statement's `text` on, as the server's connections run it
 * (src/db/client.ts: always the generic plan, made once per connection, for any values): EXPLAIN
 * of the statement prepared on a connection of `db`'s, one line per node. Postgres only (PGlite
 * is one process with no plan of interest here). The statement is not run.
 */
export async function genericPlan(db: Db, text: string): Promise<string> {
  const params = Math.max(0, ...[...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
  // A name of its own each time: a failed EXPLAIN leaves its statement behind, named apart.
  const name = `plan_probe_${++probes}`;
  return db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL plan_cache_mode = force_generic_plan`);
    await tx.execute(sql.raw(`PREPARE ${name} AS ${text}`));
    const rows = rowsOf<{ "QUERY PLAN": string }>(await tx.execute(sql.raw(`EXPLAIN EXECUTE ${name}${params === 0 ? "" : `(${Array(params).fill("NULL").join(", ")})`}`)));
    await tx.execute(sql.raw(`DEALLOCATE ${name}`));
    return rows.map((row) => row["QUERY PLAN"]).join("\n");
  });
}
let probes = 0;

/**
 * The tables a plan reads whole among `tables` (a sequential scan): what a table that grows with
 * the members must never be read as on a busy path.
 */
export function readWhole(plan: string, tables: readonly string[]): string[] {
  return [...plan.matchAll(/Seq Scan on (\w+)/g)].map((m) => m[1]!).filter((table) => tables.includes(table));
}
