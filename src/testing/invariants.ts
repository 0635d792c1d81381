import { expect } from "bun:test";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "../db/client";
import { readLedger, type LedgerReport, type RunQuery } from "../core/ledgerChecks";
import { readTree, type TreeReport } from "./treeChecks";

export type { LedgerReport, TreeReport };

/** Runs plain SQL on a drizzle handle (PGlite or Postgres). */
const on = (db: Db): RunQuery => async (query) => rowsOf<Record<string, unknown>>(await db.execute(sql.raw(query)));

/** Reads the four ledger invariants straight from the tables (src/core/ledgerChecks.ts). */
export const ledgerReport = (db: Db): Promise<LedgerReport> => readLedger(on(db));

/** Fails the test unless every ledger invariant holds. */
export async function expectLedgerInvariants(db: Db): Promise<void> {
  const report = await ledgerReport(db);
  expect({ ...report, total: report.total.toString() }).toEqual({ total: "0", mismatched: [], negativeAvailable: [], wrongHolds: [] });
}

/** Reads the referral-chain invariants straight from the tables (./treeChecks.ts). */
export const treeReport = (db: Db): Promise<TreeReport> => readTree(on(db));

/** Fails the test unless the referral tree and its chains are consistent. */
export async function expectTreeInvariants(db: Db): Promise<void> {
  expect(await treeReport(db)).toEqual({ wrongDepth: [], brokenLinks: [], unfinishedChains: [], staleLevelRows: [], wrongTeamSizes: [], wrongDirectCounts: [] });
}
