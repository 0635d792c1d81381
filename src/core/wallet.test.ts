import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { deposits, users, withdrawals } from "../db/schema";
import { accountOf, adminIdOf, credit, joinUnder, movesOf, refusalOf, run } from "../testing/domain";
import { useDatabase } from "../testing/useHarness";
import { EXTERNAL, SYSTEM } from "./ledger";
import { adminGift, decideDeposit, decideWithdrawal, requestDeposit, requestWithdrawal, sendGift } from "./wallet";
import { randomTxId, TRON_SENDER } from "../testing/chainIds";

// docs/rules.md#deposits, #withdrawals, #withdrawal-fee and #gifts, called directly. The ledger
// invariants (holds match pending withdrawals included) are checked after each test.
let database: Database;
let admin: string;
useDatabase(async (made) => {
  database = made;
  admin = await adminIdOf(made.db);
});

const emailOf = async (id: string) => (await database.db.select({ email: users.email }).from(users).where(eq(users.id, id)))[0]!.email;

test("a deposit request credits nothing until an admin accepts it, and is decided exactly once", async () => {
  const { db } = database;
  const user = await joinUnder(db, null);
  const { id } = await run(db, (tx) => requestDeposit(tx, user, { address: TRON_SENDER, transactionId: randomTxId(), amount: 1_250n }));
  expect(await accountOf(db, user)).toEqual({ balance: 0n, held: 0n });

  expect(await run(db, (tx) => decideDeposit(tx, id, "accepted", admin))).toEqual({ userId: user, amount: 1_250n });
  expect(await accountOf(db, user)).toEqual({ balance: 1_250n, held: 0n });
  expect(await movesOf(db, user)).toEqual([[EXTERNAL, user, 1_250n, "deposit"]]);

  // A second decision, either way, is refused and changes nothing.
  expect(await refusalOf(run(db, (tx) => decideDeposit(tx, id, "accepted", admin)))).toBe("already_processed");
  expect(await refusalOf(run(db, (tx) => decideDeposit(tx, id, "declined", admin)))).toBe("already_processed");
  expect(await refusalOf(run(db, (tx) => decideDeposit(tx, "no-such-request", "accepted", admin)))).toBe("request_not_found");
  expect(await accountOf(db, user)).toEqual({ balance: 1_250n, held: 0n });
  const [row] = await db.select().from(deposits).where(eq(deposits.id, id));
  expect(row).toMatchObject({ status: "accepted", decidedBy: admin });
});

test("a declined deposit moves nothing, and frees its transaction ID; a live one is refused whatever its spelling", async () => {
  const { db } = database;
  const user = await joinUnder(db, null);
  const txId = randomTxId();
  const mixed = `${txId.slice(0, 32).toUpperCase()}${txId.slice(32)}`;
  const first = await run(db, (tx) => requestDeposit(tx, user, { address: TRON_SENDER, transactionId: mixed, amount: 500n }));
  expect(await refusalOf(run(db, (tx) => requestDeposit(tx, user, { address: TRON_SENDER, transactionId: txId.toUpperCase(), amount: 500n })))).toBe(
    "duplicate_transaction",
  );
  // Fullwidth letters fold into the same ID (NFKC): the same transaction.
  const fullwidth = txId.replace(/[a-f]/, (ch) => String.fromCharCode(ch.charCodeAt(0) + 0xfee0));
  expect(await refusalOf(run(db, (tx) => requestDeposit(tx, user, { address: TRON_SENDER, transactionId: fullwidth, amount: 500n })))).toBe(
    "duplicate_transaction",
  );
  // The same ID on the other network is another transaction; the core refuses what the route would.
  expect(await refusalOf(run(db, (tx) => requestDeposit(tx, user, { address: TRON_SENDER, transactionId: `0x${txId}`, amount: 500n })))).toBe(
    "validation",
  );
  await run(db, (tx) => decideDeposit(tx, first.id, "declined", admin));
  expect(await movesOf(db, user)).toEqual([]);
  const again = await run(db, (tx) => requestDeposit(tx, user, { address: TRON_SENDER, transactionId: txId, amount: 500n }));
  await run(db, (tx) => decideDeposit(tx, again.id, "accepted", admin));
  expect(await accountOf(db, user)).toEqual({ balance: 500n, held: 0n });
});

test("a withdrawal request holds the amount; accepted, it pays out the amount less an 8% fee to system", async () => {
  const { db } = database;
  const user = await joinUnder(db, null);
  await credit(db, user, 5_000n);
  const { id } = await run(db, (tx) => requestWithdrawal(tx, user, { accountType: "USDT TRC20", accountNumber: "TA9pkx4DFxrEw8JZzUtyDrh2uAat1LDuJL", amount: 1_250n }));
  expect(await accountOf(db, user)).toEqual({ balance: 5_000n, held: 1_250n });
  // What is held is not available: 3,750 is, 3,751 is not.
  const more = (amount: bigint) => run(db, (tx) => requestWithdrawal(tx, user, { accountType: "USDT BEP20", accountNumber: "0x52908400098527886E0F7030069857D2E4169EE7", amount }));
  expect(await refusalOf(more(3_751n))).toBe("exceeds_available");

  // 12.50 -> fee 1.00 (8% of 1,250 cents is exactly 100), 11.50 to the outside world.
  expect(await run(db, (tx) => decideWithdrawal(tx, id, "accepted", admin))).toEqual({ userId: user, amount: 1_250n, fee: 100n });
  expect(await accountOf(db, user)).toEqual({ balance: 3_750n, held: 0n });
  expect((await movesOf(db, user)).slice(1)).toEqual([
    [user, SYSTEM, 100n, "fee"],
    [user, EXTERNAL, 1_150n, "withdrawal"],
  ]);
  const [row] = await db.select().from(withdrawals).where(eq(withdrawals.id, id));
  expect(row).toMatchObject({ status: "accepted", fee: 100n, decidedBy: admin });
  expect(await refusalOf(run(db, (tx) => decideWithdrawal(tx, id, "declined", admin)))).toBe("already_processed");
  expect(await refusalOf(run(db, (tx) => decideWithdrawal(tx, "no-such-request", "accepted", admin)))).toBe("request_not_found");

  // Declined: the hold is released and nothing moves.
  const declined = await more(3_750n);
  expect(await accountOf(db, user)).toEqual({ balance: 3_750n, held: 3_750n });
  expect(await run(db, (tx) => decideWithdrawal(tx, declined.id, "declined", admin))).toEqual({ userId: user, amount: 3_750n, fee: null });
  expect(await accountOf(db, user)).toEqual({ balance: 3_750n, held: 0n });
  expect(await movesOf(db, user)).toHaveLength(3);
});

test("the withdrawal fee is 8% rounded half up to the cent; a fee that rounds to 0 moves nothing to system", async () => {
  const { db } = database;
  const user = await joinUnder(db, null);
  await credit(db, user, 10_000n);
  // [amount, fee] in cents, worked by hand: 8% of 6 is 0.48 -> 0, of 7 is 0.56 -> 1, of 68 is
  // 5.44 -> 5, of 69 is 5.52 -> 6, of 75 is exactly 6, of 81 is 6.48 -> 6, of 82 is 6.56 -> 7.
  const cases: [bigint, bigint][] = [
    [6n, 0n],
    [7n, 1n],
    [68n, 5n],
    [69n, 6n],
    [75n, 6n],
    [81n, 6n],
    [82n, 7n],
    [1_250n, 100n],
  ];
  const seen: [bigint, bigint | null][] = [];
  for (const [amount] of cases) {
    const { id } = await run(db, (tx) => requestWithdrawal(tx, user, { accountType: "USDT TRC20", accountNumber: "TAtHnWn9gumQ2wGKbKsz2ggcrfw8wkkjUk", amount }));
    const { fee } = await run(db, (tx) => decideWithdrawal(tx, id, "accepted", admin));
    seen.push([amount, fee]);
  }
  expect(seen).toEqual(cases);
  const paid = (await movesOf(db, user)).slice(1);
  // Seven fees above 0 and eight payouts of the amount less the fee.
  expect(paid.filter((m) => m[3] === "fee").map((m) => m[2])).toEqual([1n, 5n, 6n, 6n, 6n, 7n, 100n]);
  expect(paid.filter((m) => m[3] === "withdrawal").map((m) => m[2])).toEqual([6n, 6n, 63n, 63n, 69n, 75n, 75n, 1_150n]);
  expect(await accountOf(db, user)).toEqual({ balance: 10_000n - 1_638n, held: 0n });
});

test("a gift moves the amount to the recipient found by email in any case; to oneself, to nobody or beyond the balance it is refused", async () => {
  const { db } = database;
  const sender = await joinUnder(db, null);
  const recipient = await joinUnder(db, null, { name: "Gift Recipient" });
  await credit(db, sender, 1_000n);

  const shouted = (await emailOf(recipient)).toUpperCase();
  await run(db, (tx) => sendGift(tx, sender, { recipientEmail: shouted, amount: 250n }));
  expect([(await accountOf(db, sender)).balance, (await accountOf(db, recipient)).balance]).toEqual([750n, 250n]);
  expect(await movesOf(db, recipient)).toEqual([[sender, recipient, 250n, "gift"]]);

  const gift = async (recipientEmail: string, amount: bigint) => refusalOf(run(db, (tx) => sendGift(tx, sender, { recipientEmail, amount })));
  expect(await gift(await emailOf(sender), 1n)).toBe("gift_to_self");
  expect(await gift("nobody@core.test", 1n)).toBe("recipient_not_found");
  expect(await gift(await emailOf(recipient), 751n)).toBe("insufficient_balance");
  expect([(await accountOf(db, sender)).balance, (await accountOf(db, recipient)).balance]).toEqual([750n, 250n]);
});

test("an admin gift comes from system and needs a recipient who exists", async () => {
  const { db } = database;
  const user = await joinUnder(db, null);
  const systemBefore = (await accountOf(db, SYSTEM)).balance;
  await run(db, (tx) => adminGift(tx, user, 300n));
  expect((await accountOf(db, user)).balance).toBe(300n);
  expect((await accountOf(db, SYSTEM)).balance).toBe(systemBefore - 300n);
  expect(await refusalOf(run(db, (tx) => adminGift(tx, "no-such-user", 300n)))).toBe("user_not_found");
});
