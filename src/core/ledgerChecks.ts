/**
 * The four ledger invariants of docs/rules.md#ledger-invariants, each a plain SQL query, and the
 * one function that runs them. Plain SQL and a `run` callback, so the tests (drizzle, on PGlite
 * or Postgres: src/testing/invariants.ts), the chaos harness (postgres.js:
 * scripts/chaos/verify.ts) and a restore (src/server/restore.ts) read them the same way.
 */
export const LEDGER_CHECKS = {
  /** 1. The sum of all balances, as text: it must be "0". */
  total: `SELECT coalesce(sum(balance), 0)::text AS total FROM accounts`,
  /** 2. Accounts whose stored balance is not what their transfers add up to. */
  mismatched: `
    SELECT a.id, a.balance::text AS balance, coalesce(t.net, 0)::text AS from_transfers
    FROM accounts a
    LEFT JOIN (
      SELECT account, sum(delta) AS net FROM (
        SELECT to_account AS account, amount AS delta FROM transfers
        UNION ALL
        SELECT from_account, -amount FROM transfers
      ) moves GROUP BY account
    ) t ON t.account = a.id
    WHERE a.balance <> coalesce(t.net, 0)`,
  /** 3. User accounts below zero: a negative hold or an available balance under 0. */
  negativeAvailable: `
    SELECT id, balance::text AS balance, held::text AS held FROM accounts
    WHERE kind = 'user' AND (balance - held < 0 OR held < 0)`,
  /** 4. Accounts whose hold is not the sum of their pending withdrawals. */
  wrongHolds: `
    SELECT a.id, a.held::text AS held, coalesce(w.pending, 0)::text AS pending
    FROM accounts a
    LEFT JOIN (SELECT user_id, sum(amount) AS pending FROM withdrawals WHERE status = 'pending' GROUP BY user_id) w ON w.user_id = a.id
    WHERE a.held <> coalesce(w.pending, 0)`,
};

export interface LedgerReport {
  total: bigint;
  mismatched: { id: string; balance: bigint; fromTransfers: bigint }[];
  negativeAvailable: { id: string; balance: bigint; held: bigint }[];
  wrongHolds: { id: string; held: bigint; pending: bigint }[];
}

/** Runs one query of plain SQL and answers its rows. */
export type RunQuery = (query: string) => Promise<readonly Record<string, unknown>[]>;

/** Reads the four ledger invariants straight from the tables. */
export async function readLedger(run: RunQuery): Promise<LedgerReport> {
  const rows = async <T>(query: string) => (await run(query)) as unknown as T[];
  const [total] = await rows<{ total: string }>(LEDGER_CHECKS.total);
  const mismatched = await rows<{ id: string; balance: string; from_transfers: string }>(LEDGER_CHECKS.mismatched);
  const negative = await rows<{ id: string; balance: string; held: string }>(LEDGER_CHECKS.negativeAvailable);
  const holds = await rows<{ id: string; held: string; pending: string }>(LEDGER_CHECKS.wrongHolds);
  return {
    total: BigInt(total?.total ?? "0"),
    mismatched: mismatched.map((r) => ({ id: r.id, balance: BigInt(r.balance), fromTransfers: BigInt(r.from_transfers) })),
    negativeAvailable: negative.map((r) => ({ id: r.id, balance: BigInt(r.balance), held: BigInt(r.held) })),
    wrongHolds: holds.map((r) => ({ id: r.id, held: BigInt(r.held), pending: BigInt(r.pending) })),
  };
}

/** Each broken invariant as a sentence; none when the ledger is whole. */
export function ledgerViolations(report: LedgerReport): string[] {
  const out: string[] = [];
  if (report.total !== 0n) out.push(`ledger sum is ${report.total}, not 0`);
  for (const r of report.mismatched) out.push(`account ${r.id}: stored ${r.balance}, transfers say ${r.fromTransfers}`);
  for (const r of report.negativeAvailable) out.push(`account ${r.id}: available below 0 (balance ${r.balance}, held ${r.held})`);
  for (const r of report.wrongHolds) out.push(`account ${r.id}: held ${r.held} differs from its pending withdrawals ${r.pending}`);
  return out;
}
