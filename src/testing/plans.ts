import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "../db/client";
import { statementText } from "../core/prepared";

/**
 * The plan Postgres runs the statement statementOnce made under `name` on, as the server's
 * connections run it (src/db/client.ts: always the generic plan, made once per connection, for
 * any values): EXPLAIN of the statement prepared on a connection of `db`'s, one line per node.
 * Postgres only (PGlite is one process with no plan of interest here). The statement is not run.
 */
export async function genericPlan(db: Db, name: string): Promise<string> {
  const text = statementText(name);
  const params = Math.max(0, ...[...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
  return db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL plan_cache_mode = force_generic_plan`);
    await tx.execute(sql.raw(`PREPARE plan_probe AS ${text}`));
    try {
      const rows = rowsOf<{ "QUERY PLAN": string }>(await tx.execute(sql.raw(`EXPLAIN EXECUTE plan_probe${params === 0 ? "" : `(${Array(params).fill("NULL").join(", ")})`}`)));
      return rows.map((row) => row["QUERY PLAN"]).join("\n");
    } finally {
      await tx.execute(sql`DEALLOCATE plan_probe`);
    }
  });
}
