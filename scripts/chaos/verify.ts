import type postgres from "postgres";
import { ledgerViolations, readLedger } from "../../src/core/ledgerChecks";
import { readTree, treeViolations } from "../../src/testing/treeChecks";
import type { StreamRecord } from "./streams";
import type { Journal } from "./workload";

/** Every way the database can disagree with the ledger rules or with what clients were told. */
export async function verify(sql: postgres.Sql, journal: Journal, streams: StreamRecord[] = []): Promise<string[]> {
  const violations: string[] = [];
  const fail = (text: string) => violations.push(text);

  // The four ledger invariants and the referral chains the receiver search relies on: the same
  // queries the tests run (src/core/ledgerChecks.ts, src/testing/treeChecks.ts).
  const run = (query: string) => sql.unsafe(query);
  for (const v of ledgerViolations(await readLedger(run))) fail(v);
  for (const v of treeViolations(await readTree(run))) fail(v);

  // Each decided request moved money exactly as often as its decision says.
  for (const r of await sql`
      SELECT d.id, d.status, count(t.id)::int AS n FROM deposits d LEFT JOIN transfers t ON t.request_id = d.id
      GROUP BY d.id, d.status HAVING count(t.id) <> CASE WHEN d.status = 'accepted' THEN 1 ELSE 0 END`)
    fail(`deposit ${r.id} (${r.status}) has ${r.n} transfers`);
  for (const r of await sql`
      SELECT w.id, w.status, count(t.id)::int AS n FROM withdrawals w LEFT JOIN transfers t ON t.request_id = w.id
      GROUP BY w.id, w.status HAVING count(t.id) <> CASE WHEN w.status = 'accepted' THEN 2 ELSE 0 END`)
    fail(`withdrawal ${r.id} (${r.status}) has ${r.n} transfers`);

  // What clients were told against what is stored.
  const users = new Map((await sql`SELECT lower(email) AS email, count(*)::int AS n FROM users GROUP BY 1`).map((r) => [r.email, r.n]));
  for (const [email, outcome] of journal.registrations) {
    const n = users.get(email) ?? 0;
    if ((outcome === "acked" && n !== 1) || (outcome === "refused" && n > 1) || n > 1) fail(`registration ${email} (${outcome}) stored ${n} times`);
  }
  const deposits = new Map((await sql`SELECT transaction_id, count(*)::int AS n FROM deposits GROUP BY 1`).map((r) => [r.transaction_id, r.n]));
  for (const [txid, outcome] of journal.deposits) {
    const n = deposits.get(txid) ?? 0;
    const expected = outcome === "acked" ? [1, 1] : outcome === "lost" ? [0, 1] : [0, 0];
    if (n < expected[0]! || n > expected[1]!) fail(`deposit ${txid} (${outcome}) stored ${n} times`);
  }
  const within = (label: string, key: string, n: number, [acked, lost]: [number, number]) => {
    if (n < acked || n > acked + lost) fail(`${label} ${key}: ${acked} acknowledged, ${lost} lost, ${n} stored`);
  };
  const count = async (query: Promise<postgres.RowList<postgres.Row[]>>) => new Map((await query).map((r) => [r.k as string, r.n as number]));
  const withdrawals = await count(sql`SELECT user_id AS k, count(*)::int AS n FROM withdrawals GROUP BY 1`);
  for (const [k, v] of journal.withdrawals) within("withdrawals of", k, withdrawals.get(k) ?? 0, v);
  const gifts = await count(sql`SELECT from_account AS k, count(*)::int AS n FROM transfers WHERE kind = 'gift' GROUP BY 1`);
  for (const [k, v] of journal.gifts) within("gifts from", k, gifts.get(k) ?? 0, v);
  const purchases = await count(
    sql`SELECT from_account || ':' || program || ':' || level AS k, count(*)::int AS n FROM transfers WHERE kind = 'purchase' GROUP BY 1`,
  );
  for (const [k, v] of journal.purchases) within("purchases", k, purchases.get(k) ?? 0, v);
  const unfreezes = await count(
    sql`SELECT from_account || ':' || program || ':' || level AS k, count(*)::int AS n FROM transfers WHERE kind = 'unfreeze' GROUP BY 1`,
  );
  for (const [k, v] of journal.unfreezes) within("unfreezes", k, unfreezes.get(k) ?? 0, v);
  // What the streaming clients received against the table: every notification received is the
  // member's own and stored, none twice, in id order; and after the final catch-up none is missing.
  for (const stream of streams) {
    const label = `stream of ${stream.userId}`;
    const mine = new Set((await sql`SELECT id::text AS id FROM notifications WHERE user_id = ${stream.userId}`).map((r) => r.id as string));
    const seen = new Set<string>();
    let previous = 0n;
    for (const id of stream.received) {
      if (seen.has(id)) fail(`${label}: notification ${id} received twice`);
      else if (!mine.has(id)) fail(`${label}: notification ${id} received but not stored for this member`);
      if (BigInt(id) <= previous && !seen.has(id)) fail(`${label}: notification ${id} received after ${previous}`);
      if (BigInt(id) > previous) previous = BigInt(id);
      seen.add(id);
    }
    // A reset (the stream was more than the server replays behind) skips what it covers, by design.
    const skipped = (id: string) => stream.resets.some((r) => BigInt(id) > BigInt(r.after) && BigInt(id) <= BigInt(r.to));
    const missing = [...mine].filter((id) => !seen.has(id) && !skipped(id));
    if (missing.length > 0) fail(`${label}: ${missing.length} stored notification(s) never received (${missing.slice(0, 5).join(", ")})`);
    for (const block of stream.malformed.slice(0, 3)) fail(`${label}: malformed frame ${JSON.stringify(block)}`);
  }
  for (const e of journal.serverErrors.slice(0, 20)) fail(`5xx answer: ${e.status} on ${e.path}: ${JSON.stringify(e.body)}`);
  return violations;
}
