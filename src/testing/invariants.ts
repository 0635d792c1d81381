import { expect } from "bun:test";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "../db/client";
import { TREE_CHECKS } from "./treeChecks";

export interface LedgerReport {
  total: bigint;
  mismatched: { id: string; balance: bigint; fromTransfers: bigint }[];
  negativeAvailable: { id: string; balance: bigint; held: bigint }[];
  wrongHolds: { id: string; held: bigint; pending: bigint }[];
}

/** Reads the four ledger invariants straight from the tables. */
export async function ledgerReport(db: Db): Promise<LedgerReport> {
  const [total] = rowsOf<{ total: string | null }>(await db.execute(sql`SELECT sum(balance)::text AS total FROM accounts`));
  const mismatched = rowsOf<{ id: string; balance: string; from_transfers: string }>(
    await db.execute(sql`
      SELECT a.id, a.balance::text AS balance, coalesce(t.net, 0)::text AS from_transfers
      FROM accounts a
      LEFT JOIN (
        SELECT account, sum(delta) AS net FROM (
          SELECT to_account AS account, amount AS delta FROM transfers
          UNION ALL
          SELECT from_account, -amount FROM transfers
        ) moves GROUP BY account
      ) t ON t.account = a.id
      WHERE a.balance <> coalesce(t.net, 0)`),
  );
  const negative = rowsOf<{ id: string; balance: string; held: string }>(
    await db.execute(sql`SELECT id, balance::text AS balance, held::text AS held FROM accounts WHERE kind = 'user' AND (balance - held < 0 OR held < 0)`),
  );
  const holds = rowsOf<{ id: string; held: string; pending: string }>(
    await db.execute(sql`
      SELECT a.id, a.held::text AS held, coalesce(w.pending, 0)::text AS pending
      FROM accounts a
      LEFT JOIN (SELECT user_id, sum(amount) AS pending FROM withdrawals WHERE status = 'pending' GROUP BY user_id) w ON w.user_id = a.id
      WHERE a.held <> coalesce(w.pending, 0)`),
  );
  return {
    total: BigInt(total?.total ?? "0"),
    mismatched: mismatched.map((r) => ({ id: r.id, balance: BigInt(r.balance), fromTransfers: BigInt(r.from_transfers) })),
    negativeAvailable: negative.map((r) => ({ id: r.id, balance: BigInt(r.balance), held: BigInt(r.held) })),
    wrongHolds: holds.map((r) => ({ id: r.id, held: BigInt(r.held), pending: BigInt(r.pending) })),
  };
}

/** Fails the test unless every ledger invariant holds. */
export async function expectLedgerInvariants(db: Db): Promise<void> {
  const report = await ledgerReport(db);
  expect({ ...report, total: report.total.toString() }).toEqual({ total: "0", mismatched: [], negativeAvailable: [], wrongHolds: [] });
}

export type TreeReport = Record<keyof typeof TREE_CHECKS, string[]>;

/** Reads the referral-chain invariants straight from the tables. */
export async function treeReport(db: Db): Promise<TreeReport> {
  const report = {} as TreeReport;
  for (const [name, query] of Object.entries(TREE_CHECKS)) {
    report[name as keyof TreeReport] = rowsOf<{ id: string }>(await db.execute(sql.raw(query))).map((r) => r.id);
  }
  return report;
}

/** Fails the test unless the referral tree and its chains are consistent. */
export async function expectTreeInvariants(db: Db): Promise<void> {
  expect(await treeReport(db)).toEqual({ wrongDepth: [], brokenLinks: [], unfinishedChains: [], staleLevelRows: [] });
}
