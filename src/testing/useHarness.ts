import { afterAll, afterEach, beforeAll, expect, setDefaultTimeout } from "bun:test";
import { createHarness, type Harness } from "./harness";

/**
 * The set-up every money test file shares: a fresh database and app for the file, and after
 * each test the two promises of the suite: nothing reached the 500 path (refusals are answers),
 * and whatever the test did, the ledger invariants hold.
 *
 *   let h: Harness;
 *   useMoneyHarness((made) => (h = made));
 */
export function useMoneyHarness(receive: (h: Harness) => void, options: Parameters<typeof createHarness>[0] = {}): void {
  // The preload's default timeout reaches the first test file of a run only; databases take a while.
  setDefaultTimeout(60_000);
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await createHarness(options);
    receive(h);
  });
  afterAll(() => h?.close());
  afterEach(async () => {
    expect(h!.logged).toEqual([]);
    await h!.checkLedger();
  });
}
