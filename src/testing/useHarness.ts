import { afterAll, afterEach, beforeAll, expect } from "bun:test";
import type { Database } from "../db/client";
import { freshDatabase } from "./db";
import { createHarness, type Harness } from "./harness";
import { expectLedgerInvariants, expectTreeInvariants } from "./invariants";

/**
 * The set-up every API test file shares: a fresh database and app for the file (or for the
 * describe block it is called in), and after each test the two promises of the suite: nothing
 * reached the 500 path (refusals are answers), and whatever the test did, the ledger invariants
 * and the referral tree hold.
 *
 *   let h: Harness;
 *   useMoneyHarness((made) => (h = made));
 *
 * `receive` may be async, to seed the file's data before its first test.
 *
 * Calls in a file's (or a describe's) own body: hooks declared in a module body would attach to
 * the first file of the run only. The timeout comes from ./preload.ts.
 */
export function useMoneyHarness(receive: (h: Harness) => unknown, options: Parameters<typeof createHarness>[0] = {}): void {
  perFile(() => createHarness(options), receive, async (h) => {
    expect(h.logged).toEqual([]);
    await h.checkLedger();
  });
}

/**
 * The same for the tests of src/core, which call the domain directly: a fresh migrated and
 * seeded database for the file, and the ledger invariants and the referral tree checked after
 * each test.
 *
 *   let database: Database;
 *   useDatabase((made) => (database = made));
 */
export function useDatabase(receive: (database: Database) => unknown, options: Parameters<typeof freshDatabase>[0] = {}): void {
  perFile(() => freshDatabase(options), receive, async ({ db }) => {
    await expectLedgerInvariants(db);
    await expectTreeInvariants(db);
  });
}

/** Opens a resource before the first test, hands it over, checks it after each test, closes it after the last. */
function perFile<T extends { close(): Promise<void> }>(open: () => Promise<T>, receive: (made: T) => unknown, check: (made: T) => Promise<void>): void {
  let made: T | undefined;
  beforeAll(async () => {
    made = await open();
    await receive(made);
  });
  afterAll(() => made?.close());
  afterEach(() => check(made!));
}
