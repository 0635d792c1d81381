import { expect } from "bun:test";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "../db/client";

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

export interface TreeReport {
  /** Users whose depth is not their referrer's plus one. */
  wrongDepth: string[];
  /** Users on a chain (chain_id not their own id) whose referrer is not the user above on it. */
  brokenLinks: string[];
  /** Users with partners none of whom continues their chain. */
  unfinishedChains: string[];
  /** user_levels rows whose copied chain or depth differs from the user's. */
  staleLevelRows: string[];
}

/** Reads the referral-chain invariants of chains.ts straight from the tables. */
export async function treeReport(db: Db): Promise<TreeReport> {
  const ids = async (query: ReturnType<typeof sql>) => rowsOf<{ id: string }>(await db.execute(query)).map((r) => r.id);
  return {
    wrongDepth: await ids(sql`
      SELECT u.id FROM users u LEFT JOIN users p ON p.id = u.referrer_id
      WHERE u.depth <> coalesce(p.depth + 1, 0)`),
    brokenLinks: await ids(sql`
      SELECT u.id FROM users u LEFT JOIN users p ON p.id = u.referrer_id
      WHERE u.chain_id <> u.id AND (p.chain_id IS DISTINCT FROM u.chain_id)`),
    unfinishedChains: await ids(sql`
      SELECT p.id FROM users p
      WHERE EXISTS (SELECT 1 FROM users c WHERE c.referrer_id = p.id)
        AND NOT EXISTS (SELECT 1 FROM users c WHERE c.referrer_id = p.id AND c.chain_id = p.chain_id)`),
    staleLevelRows: await ids(sql`
      SELECT ul.user_id AS id FROM user_levels ul JOIN users u ON u.id = ul.user_id
      WHERE ul.chain_id <> u.chain_id OR ul.depth <> u.depth`),
  };
}

/** Fails the test unless the referral tree and its chains are consistent. */
export async function expectTreeInvariants(db: Db): Promise<void> {
  expect(await treeReport(db)).toEqual({ wrongDepth: [], brokenLinks: [], unfinishedChains: [], staleLevelRows: [] });
}
