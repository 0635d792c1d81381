import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { transfers } from "../db/schema";
import { accountOf, credit, joinUnder, refusalOf, run } from "../testing/domain";
import { useDatabase } from "../testing/useHarness";
import { MAX_BALANCE } from "../shared/constants";
import { EXTERNAL, hold, SYSTEM, transfer } from "./ledger";

// docs/rules.md#accounts: every move is one transfer row; a user is debited only when the
// available balance (balance - held) covers it. The ledger invariants are checked after each test.
let database: Database;
useDatabase((made) => (database = made));

test("transfer moves exactly the amount, whichever account id sorts first, and records both balances after", async () => {
  const { db } = database;
  const a = await joinUnder(db, null);
  const b = await joinUnder(db, null);
  const externalBefore = (await accountOf(db, EXTERNAL)).balance;
  await credit(db, a, 1_000n);

  const ab = await run(db, (tx) => transfer(tx, { from: a, to: b, amount: 250n, kind: "gift" }));
  const ba = await run(db, (tx) => transfer(tx, { from: b, to: a, amount: 1n, kind: "gift" }));
  expect(await accountOf(db, a)).toEqual({ balance: 751n, held: 0n });
  expect(await accountOf(db, b)).toEqual({ balance: 249n, held: 0n });
  expect((await accountOf(db, EXTERNAL)).balance).toBe(externalBefore - 1_000n);

  const [first] = await db.select().from(transfers).where(eq(transfers.id, ab));
  expect(first).toMatchObject({ fromAccount: a, toAccount: b, amount: 250n, kind: "gift", fromBalanceAfter: 750n, toBalanceAfter: 250n });
  const [second] = await db.select().from(transfers).where(eq(transfers.id, ba));
  expect(second).toMatchObject({ fromAccount: b, toAccount: a, amount: 1n, fromBalanceAfter: 249n, toBalanceAfter: 751n });
});

test("transfer refuses a user whose available balance is short, with insufficient_balance or the caller's code, and moves nothing", async () => {
  const { db } = database;
  const a = await joinUnder(db, null);
  const b = await joinUnder(db, null);
  await credit(db, a, 100n);

  expect(await refusalOf(run(db, (tx) => transfer(tx, { from: a, to: b, amount: 101n, kind: "gift" })))).toBe("insufficient_balance");
  expect(await refusalOf(run(db, (tx) => transfer(tx, { from: a, to: b, amount: 101n, kind: "gift", insufficientCode: "exceeds_available" })))).toBe(
    "exceeds_available",
  );
  // A refusal rolls back the whole transaction, moves made before it included.
  expect(
    await refusalOf(
      run(db, async (tx) => {
        await transfer(tx, { from: a, to: b, amount: 60n, kind: "gift" });
        await transfer(tx, { from: a, to: b, amount: 41n, kind: "gift" });
      }),
    ),
  ).toBe("insufficient_balance");
  expect(await accountOf(db, a)).toEqual({ balance: 100n, held: 0n });
  expect(await accountOf(db, b)).toEqual({ balance: 0n, held: 0n });

  // Exactly the available balance may go; then nothing more.
  await run(db, (tx) => transfer(tx, { from: a, to: b, amount: 100n, kind: "gift" }));
  expect(await refusalOf(run(db, (tx) => transfer(tx, { from: a, to: b, amount: 1n, kind: "gift" })))).toBe("insufficient_balance");
  expect([(await accountOf(db, a)).balance, (await accountOf(db, b)).balance]).toEqual([0n, 100n]);
});

test("system and external have no balance check and may go below zero", async () => {
  const { db } = database;
  const a = await joinUnder(db, null);
  const systemBefore = (await accountOf(db, SYSTEM)).balance;
  await run(db, (tx) => transfer(tx, { from: SYSTEM, to: a, amount: systemBefore + 500n, kind: "admin_gift" }));
  expect((await accountOf(db, SYSTEM)).balance).toBe(-500n);
  expect((await accountOf(db, a)).balance).toBe(systemBefore + 500n);
  // Give it back, so the operator's account is where other tests found it.
  await run(db, (tx) => transfer(tx, { from: a, to: SYSTEM, amount: systemBefore + 500n, kind: "gift" }));
});

test("transfer rejects a zero or negative amount and a move to the same account as programming errors, not refusals", async () => {
  const { db } = database;
  const a = await joinUnder(db, null);
  await credit(db, a, 10n);
  for (const bad of [
    { from: a, to: SYSTEM, amount: 0n },
    { from: a, to: SYSTEM, amount: -1n },
    { from: a, to: a, amount: 1n },
  ]) {
    const error = await run(db, (tx) => transfer(tx, { ...bad, kind: "gift" })).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toHaveProperty("code");
  }
  expect(await accountOf(db, a)).toEqual({ balance: 10n, held: 0n });
});

test("hold takes from the available balance without moving money, refuses beyond it, and releases", async () => {
  const { db } = database;
  const a = await joinUnder(db, null);
  const b = await joinUnder(db, null);
  await credit(db, a, 1_000n);

  // The holds below stand for no withdrawal row, which invariant 4 would see: each test run
  // releases them again before it ends.
  await run(db, (tx) => hold(tx, a, 600n, "exceeds_available"));
  expect(await accountOf(db, a)).toEqual({ balance: 1_000n, held: 600n });
  expect(await refusalOf(run(db, (tx) => hold(tx, a, 401n, "exceeds_available")))).toBe("exceeds_available");
  // A held amount cannot be spent: 400 is available, 401 is not.
  expect(await refusalOf(run(db, (tx) => transfer(tx, { from: a, to: b, amount: 401n, kind: "gift" })))).toBe("insufficient_balance");
  await run(db, (tx) => transfer(tx, { from: a, to: b, amount: 400n, kind: "gift" }));
  expect(await accountOf(db, a)).toEqual({ balance: 600n, held: 600n });

  // Releasing more than is held is refused with the caller's code; releasing what is held is not.
  expect(await refusalOf(run(db, (tx) => hold(tx, a, -601n, "already_processed")))).toBe("already_processed");
  await run(db, (tx) => hold(tx, a, -600n, "already_processed"));
  expect(await accountOf(db, a)).toEqual({ balance: 600n, held: 0n });
});

test("no credit takes a balance past MAX_BALANCE: refused with balance_limit, nothing moved, exactly the maximum allowed", async () => {
  const { db } = database;
  const a = await joinUnder(db, null);
  const b = await joinUnder(db, null);
  const systemBefore = (await accountOf(db, SYSTEM)).balance;
  const countBefore = (await db.select().from(transfers)).length;

  // Up to exactly the maximum, from system (which may go negative, down to minus the maximum).
  await run(db, (tx) => transfer(tx, { from: SYSTEM, to: a, amount: MAX_BALANCE - 10n, kind: "admin_gift" }));
  expect(await refusalOf(run(db, (tx) => transfer(tx, { from: SYSTEM, to: a, amount: 11n, kind: "admin_gift" })))).toBe("balance_limit");
  await run(db, (tx) => transfer(tx, { from: SYSTEM, to: a, amount: 10n, kind: "admin_gift" }));
  expect((await accountOf(db, a)).balance).toBe(MAX_BALANCE);
  expect(await refusalOf(run(db, (tx) => transfer(tx, { from: SYSTEM, to: a, amount: 1n, kind: "admin_gift" })))).toBe("balance_limit");
  // A user-to-user move and an amount above the maximum itself: refused the same way, whichever id sorts first.
  await credit(db, b, 5n);
  expect(await refusalOf(run(db, (tx) => transfer(tx, { from: b, to: a, amount: 1n, kind: "gift" })))).toBe("balance_limit");
  expect(await refusalOf(run(db, (tx) => transfer(tx, { from: SYSTEM, to: b, amount: MAX_BALANCE * 1000n, kind: "admin_gift" })))).toBe("balance_limit");
  expect((await accountOf(db, a)).balance).toBe(MAX_BALANCE);
  expect((await accountOf(db, b)).balance).toBe(5n);
  expect((await db.select().from(transfers)).length).toBe(countBefore + 3);

  // Give it back, so the operator's account is where other tests found it.
  await run(db, (tx) => transfer(tx, { from: a, to: SYSTEM, amount: MAX_BALANCE, kind: "gift" }));
  expect((await accountOf(db, SYSTEM)).balance).toBe(systemBefore);
});

test("system and external go below zero only down to minus MAX_BALANCE: further debits are refused with balance_limit", async () => {
  const { db } = database;
  const a = await joinUnder(db, null);
  const systemBefore = (await accountOf(db, SYSTEM)).balance;
  const room = systemBefore + MAX_BALANCE; // what system may still pay out
  await run(db, (tx) => transfer(tx, { from: SYSTEM, to: a, amount: room - 1n, kind: "admin_gift" }));
  expect((await accountOf(db, SYSTEM)).balance).toBe(1n - MAX_BALANCE);
  const b = await joinUnder(db, null);
  expect(await refusalOf(run(db, (tx) => transfer(tx, { from: SYSTEM, to: b, amount: 2n, kind: "admin_gift" })))).toBe("balance_limit");
  await run(db, (tx) => transfer(tx, { from: SYSTEM, to: b, amount: 1n, kind: "admin_gift" }));
  expect((await accountOf(db, SYSTEM)).balance).toBe(-MAX_BALANCE);
  await run(db, (tx) => transfer(tx, { from: a, to: SYSTEM, amount: room - 1n, kind: "gift" }));
  await run(db, (tx) => transfer(tx, { from: b, to: SYSTEM, amount: 1n, kind: "gift" }));
  expect((await accountOf(db, SYSTEM)).balance).toBe(systemBefore);
});

test("a transfer naming an account that does not exist is a programming error, not a refusal, on either side and in either lock order", async () => {
  const { db } = database;
  const a = await joinUnder(db, null);
  await credit(db, a, 100n);
  // "!" sorts before every id and "~" after, so the missing account is locked first, then last.
  for (const missing of ["!missing", "~missing"]) {
    await expect(run(db, (tx) => transfer(tx, { from: missing, to: a, amount: 1n, kind: "gift" }))).rejects.toThrow(
      `transfer from ${missing} to ${a}: no such account`,
    );
    await expect(run(db, (tx) => transfer(tx, { from: a, to: missing, amount: 1n, kind: "gift" }))).rejects.toThrow(
      `transfer from ${a} to ${missing}: no such account`,
    );
  }
  expect(await accountOf(db, a)).toEqual({ balance: 100n, held: 0n });
});
