import type postgres from "postgres";
import { TREE_CHECKS } from "../../src/testing/treeChecks";
import type { Journal } from "./workload";

/** Every way the database can disagree with the ledger rules or with what clients were told. */
export async function verify(sql: postgres.Sql, journal: Journal): Promise<string[]> {
  const violations: string[] = [];
  const fail = (text: string) => violations.push(text);

  const [sum] = await sql`SELECT coalesce(sum(balance), 0)::text AS total FROM accounts`;
  if (sum?.total !== "0") fail(`ledger sum is ${sum?.total}, not 0`);
  for (const r of await sql`
      SELECT a.id, a.balance::text, coalesce(t.net, 0)::text AS net FROM accounts a
      LEFT JOIN (SELECT account, sum(delta) AS net FROM (
        SELECT to_account AS account, amount AS delta FROM transfers
        UNION ALL SELECT from_account, -amount FROM transfers) m GROUP BY account) t ON t.account = a.id
      WHERE a.balance <> coalesce(t.net, 0)`)
    fail(`account ${r.id}: stored ${r.balance}, transfers say ${r.net}`);
  for (const r of await sql`SELECT id, balance::text, held::text FROM accounts WHERE kind = 'user' AND (balance - held < 0 OR held < 0)`)
    fail(`account ${r.id}: available below 0 (balance ${r.balance}, held ${r.held})`);
  for (const r of await sql`
      SELECT a.id FROM accounts a LEFT JOIN (SELECT user_id, sum(amount) AS p FROM withdrawals WHERE status = 'pending' GROUP BY user_id) w
      ON w.user_id = a.id WHERE a.held <> coalesce(w.p, 0)`)
    fail(`account ${r.id}: held differs from its pending withdrawals`);

  // The referral chains the receiver search relies on (src/core/chains.ts).
  for (const [name, query] of Object.entries(TREE_CHECKS)) {
    for (const r of await sql.unsafe(query)) fail(`referral tree: ${name}: user ${r.id}`);
  }

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
  for (const e of journal.serverErrors.slice(0, 20)) fail(`5xx answer: ${e.status} on ${e.path}: ${JSON.stringify(e.body)}`);
  return violations;
}
