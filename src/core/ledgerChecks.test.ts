import { expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { credit, joinUnder } from "../testing/domain";
import { ledgerReport } from "../testing/invariants";
import { useDatabase } from "../testing/useHarness";
import { ledgerViolations } from "./ledgerChecks";

// The checker itself: a ledger broken by hand is seen, by the tests' report and in the chaos
// harness's words (both read ./ledgerChecks.ts). Each test repairs what it broke, for the
// after-each check of useDatabase.
let database: Database;
useDatabase((made) => (database = made));

test("a balance that differs from its transfers breaks the zero sum and the match with the ledger", async () => {
  const { db } = database;
  const user = await joinUnder(db, null);
  await credit(db, user, 500n);
  expect(ledgerViolations(await ledgerReport(db))).toEqual([]);

  await db.execute(sql`UPDATE accounts SET balance = balance + 7 WHERE id = ${user}`);
  try {
    const report = await ledgerReport(db);
    expect(report).toEqual({ total: 7n, mismatched: [{ id: user, balance: 507n, fromTransfers: 500n }], negativeAvailable: [], wrongHolds: [] });
    expect(ledgerViolations(report)).toEqual(["ledger sum is 7, not 0", `account ${user}: stored 507, transfers say 500`]);
  } finally {
    await db.execute(sql`UPDATE accounts SET balance = balance - 7 WHERE id = ${user}`);
  }
});

test("a hold without a pending withdrawal is seen", async () => {
  const { db } = database;
  const user = await joinUnder(db, null);
  await credit(db, user, 500n);
  await db.execute(sql`UPDATE accounts SET held = 200 WHERE id = ${user}`);
  try {
    const report = await ledgerReport(db);
    expect(report.wrongHolds).toEqual([{ id: user, held: 200n, pending: 0n }]);
    expect(ledgerViolations(report)).toEqual([`account ${user}: held 200 differs from its pending withdrawals 0`]);
  } finally {
    await db.execute(sql`UPDATE accounts SET held = 0 WHERE id = ${user}`);
  }
});
