import { expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { openDatabase, rowsOf } from "./client";
import { migrate } from "./migrate";
import { migrateUpTo } from "../testing/db";
import { createAccount } from "../core/ledger";
import { inTransaction } from "../core/tx";
import { hexToTron } from "../core/chain/tron";
import { decideDeposit, requestDeposit } from "../core/wallet";
import { expectLedgerInvariants } from "../testing/invariants";

const ID = "9f2c4b1a7e0d3c5b8a6f4e2d1c0b9a8f7e6d5c4b3a29180716253443526170ab";
const OTHER = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

/** A deposit as typed before IDs were checked: [id, typed text, status, minutes after the first]. */
type TypedDeposit = [string, string, string, number];

/**
 * A database migrated up to just before 0008, with one member's `typed` deposits (of `cents`
 * each), then migrated to the end.
 */
async function migratedWith(typed: TypedDeposit[], cents: number) {
  const database = await openDatabase({});
  await migrateUpTo(database, "deposits_live_tx_uq");
  const { db } = database;
  await db.execute(sql`INSERT INTO users (id, name, email, password_hash, referral_id, chain_id) VALUES ('u1', 'Old Member', 'old@test.local', 'x', 'REF1', 'u1')`);
  for (const [id, text, status, minute] of typed) {
    await db.execute(sql`INSERT INTO deposits (id, user_id, amount, address, transaction_id, status, created_at)
      VALUES (${id}, 'u1', ${cents}, 'TWallet', ${text}, ${status}, now() - make_interval(mins => ${60 - minute}))`);
  }
  await migrate(database);
  return database;
}

test("migration 0008 keeps old deposits readable: network TRC20, the canonical ID where the typed one was valid, one live request per transaction", async () => {
  // What members typed before IDs were checked: the same transaction spelled seven ways, and some text that is no ID.
  const typed: TypedDeposit[] = [
    ["d1", ID.toUpperCase(), "accepted", 5],
    ["d2", `${ID}\u200b`, "pending", 6], // a zero-width space: no valid ID, kept as typed
    ["d3", `0x${ID}`, "pending", 7], // the same transaction: a duplicate of d1, keeps no canonical ID
    ["d4", `  ${ID}  `, "declined", 8], // declined: gets it, declined ones may repeat
    ["d5", "tx-typed-by-hand", "pending", 9],
    ["d6", `\uff10\uff58${OTHER.toUpperCase()}`, "pending", 10], // fullwidth 0x: folds into OTHER
    ["d7", OTHER, "pending", 11], // later: a duplicate of d6
  ];
  const database = await migratedWith(typed, 100);
  try {
    const { db } = database;
    const rows = rowsOf<{ id: string; transaction_id: string; network: string; tx_hash: string | null }>(
      await db.execute(sql`SELECT id, transaction_id, network, tx_hash FROM deposits ORDER BY id`),
    );
    expect(rows.map((r) => [r.id, r.network, r.tx_hash])).toEqual([
    ["d1", "TRC20", ID],
    ["d2", "TRC20", null],
    ["d3", "TRC20", null],
    ["d4", "TRC20", ID],
    ["d5", "TRC20", null],
    ["d6", "TRC20", OTHER],
    ["d7", "TRC20", null],
    ]);
    // The typed text is kept as it was.
    expect(rows.map((r) => r.transaction_id)).toEqual(typed.map(([, text]) => text));
    // From now on the database refuses a second live request for a transaction, on any network (migration 0018).
    const again = async (id: string, network: string, typed: string) => db.execute(sql`INSERT INTO deposits (id, user_id, amount, address, transaction_id, status, network, tx_hash)
      VALUES (${id}, 'u1', 100, 'TWallet', ${typed}, 'pending', ${network}, ${ID})`);
    await expect(again("d8", "TRC20", ID)).rejects.toThrow();
    await expect(again("d9", "BEP20", `0x${ID}`)).rejects.toThrow();
  } finally {
    await database.close();
  }
});

test("an old request without a canonical ID is accepted only while no other live request holds the transaction its text names, and takes that ID", async () => {
  const typed: TypedDeposit[] = [
    ["d1", ID.toUpperCase(), "accepted", 1],
    ["d2", `${ID}\u200b`, "pending", 2], // the same transaction behind an invisible character
    ["d3", `0x${ID}`, "pending", 3], // and behind 0x
    ["d5", "tx-typed-by-hand", "pending", 4],
    ["d6", OTHER.toUpperCase(), "pending", 5],
    ["d7", `0x${OTHER}`, "pending", 6],
  ];
  const database = await migratedWith(typed, 10_000);
  try {
    const { db } = database;
    await inTransaction(db, async (tx) => {
      for (const [id, kind] of [["external", "external"], ["system", "system"], ["u1", "user"]] as const) await createAccount(tx, id, kind);
    });
    const decide = (id: string, status: "accepted" | "declined") => inTransaction(db, (tx) => decideDeposit(tx, id, status, "admin"));
    const state = async () =>
      rowsOf<{ id: string; status: string; tx_hash: string | null }>(await db.execute(sql`SELECT id, status, tx_hash FROM deposits ORDER BY id`)).map((r) => [r.id, r.status, r.tx_hash]);
    const credited = async () => rowsOf<{ request_id: string }>(await db.execute(sql`SELECT request_id FROM transfers WHERE kind = 'deposit' ORDER BY id`)).map((r) => r.request_id);

    // d1 was accepted before: its look-alikes are refused, and nothing of theirs is written.
    await expect(decide("d2", "accepted")).rejects.toMatchObject({ code: "duplicate_transaction" });
    await expect(decide("d3", "accepted")).rejects.toMatchObject({ code: "duplicate_transaction" });
    // While d6 is pending, d7 (the same transaction) cannot be accepted; once d6 is declined, it can, once.
    await expect(decide("d7", "accepted")).rejects.toMatchObject({ code: "duplicate_transaction" });
    await decide("d6", "declined");
    await decide("d7", "accepted");
    // Text that names no transaction is the admin's to judge.
    await decide("d5", "accepted");
    expect(await state()).toEqual([
    ["d1", "accepted", ID],
    ["d2", "pending", null],
    ["d3", "pending", null],
    ["d5", "accepted", null],
    ["d6", "declined", OTHER],
    ["d7", "accepted", OTHER],
    ]);
    expect(await credited()).toEqual(["d7", "d5"]);
    // Declining a look-alike still works: it takes nothing.
    await decide("d2", "declined");
    expect((await state())[1]).toEqual(["d2", "declined", null]);
    // Every cent accounted for: the ledger sums to zero and each balance is its transfers.
    await expectLedgerInvariants(db);
  } finally {
    await database.close();
  }
});

test("migration 0016: a transaction credited before verification under an ID with an invisible character is held by that request; later claims are refused", async () => {
  const sender = hexToTron(`0x${"11".repeat(20)}`);
  const typed: TypedDeposit[] = [
    ["d1", `${ID}\u200b`, "accepted", 1], // credited before 0008, a zero-width space pasted along
    ["d2", ID, "pending", 2], // the same transaction, cleanly typed: 0008 gave it the canonical ID
    ["d3", ` 0X${OTHER}\u2060`, "pending", 3], // a transaction nobody else claims
    ["d4", `${OTHER}`, "declined", 4],
  ];
  const database = await migratedWith(typed, 10_000);
  try {
    const { db } = database;
    const state = async () =>
      rowsOf<{ id: string; tx_hash: string | null }>(await db.execute(sql`SELECT id, tx_hash FROM deposits ORDER BY id`)).map((r) => [r.id, r.tx_hash]);
    expect(await state()).toEqual([
      ["d1", ID],
      ["d2", null],
      ["d3", OTHER],
      ["d4", OTHER],
    ]);
    await inTransaction(db, async (tx) => {
      for (const [id, kind] of [["external", "external"], ["system", "system"], ["u1", "user"]] as const) await createAccount(tx, id, kind);
    });
    // The pending look-alike cannot be accepted, and a new request for the transaction is refused.
    await expect(inTransaction(db, (tx) => decideDeposit(tx, "d2", "accepted", "admin"))).rejects.toMatchObject({ code: "duplicate_transaction" });
    const claim = () => inTransaction(db, (tx) => requestDeposit(tx, "u1", { address: sender, transactionId: ID, amount: 10_000n }));
    await expect(claim()).rejects.toMatchObject({ code: "duplicate_transaction" });
    expect(rowsOf(await db.execute(sql`SELECT id FROM transfers WHERE kind = 'deposit'`))).toEqual([]);
    await expectLedgerInvariants(db);
  } finally {
    await database.close();
  }
});

test("migration 0018: a transaction held by live requests on two networks stays with one of them, an accepted one first; a payout ID recorded twice stays with the first withdrawal", async () => {
  const database = await openDatabase({});
  try {
    await migrateUpTo(database, "withdrawals_payout_tx_uq");
    const { db } = database;
    await db.execute(sql`INSERT INTO users (id, name, email, password_hash, referral_id, chain_id) VALUES ('u1', 'Old Member', 'old@test.local', 'x', 'REF1', 'u1')`);
    // [id, network, status, minutes after the first]: ID claimed on both networks, OTHER too.
    const rows: [string, string, string, number][] = [
      ["d1", "BEP20", "pending", 1], // older, but d2 was accepted: d2 keeps ID
      ["d2", "TRC20", "accepted", 2],
      ["d3", "TRC20", "pending", 3], // the oldest live request for OTHER: keeps it
      ["d4", "BEP20", "pending", 4],
      ["d5", "BEP20", "declined", 5], // declined: keeps its ID, it holds nothing
    ];
    for (const [id, network, status, minute] of rows) {
      const hash = id === "d1" || id === "d2" ? ID : OTHER;
      const typed = network === "BEP20" ? `0x${hash}` : hash;
      await db.execute(sql`INSERT INTO deposits (id, user_id, amount, address, transaction_id, status, network, tx_hash, next_check_at, created_at)
        VALUES (${id}, 'u1', 10000, 'TWallet', ${typed}, ${status}, ${network}, ${hash}, ${status === "pending" ? sql`now()` : null}, now() - make_interval(mins => ${60 - minute}))`);
    }
    // One payout ID recorded on two withdrawals, the second decided later.
    for (const [id, minute] of [["w1", 1], ["w2", 2]] as const) {
      await db.execute(sql`INSERT INTO withdrawals (id, user_id, amount, fee, account_type, account_number, status, decided_at, payout_tx_hash)
        VALUES (${id}, 'u1', 1000, 80, 'USDT TRC20', 'TWallet', 'accepted', now() - make_interval(mins => ${60 - minute}), ${OTHER.replace(/^0/, "f")})`);
    }
    await migrate(database);
    const deposited = async () =>
      rowsOf<{ id: string; status: string; tx_hash: string | null; checking: boolean }>(
        await db.execute(sql`SELECT id, status, tx_hash, next_check_at IS NOT NULL AS checking FROM deposits ORDER BY id`),
      ).map((r) => [r.id, r.status, r.tx_hash, r.checking]);
    expect(await deposited()).toEqual([
      ["d1", "pending", null, false],
      ["d2", "accepted", ID, false],
      ["d3", "pending", OTHER, true],
      ["d4", "pending", null, false],
      ["d5", "declined", OTHER, false],
    ]);
    const payouts = rowsOf<{ id: string; payout_tx_hash: string | null }>(await db.execute(sql`SELECT id, payout_tx_hash FROM withdrawals ORDER BY id`));
    expect(payouts.map((r) => [r.id, r.payout_tx_hash])).toEqual([
      ["w1", OTHER.replace(/^0/, "f")],
      ["w2", null],
    ]);

    await inTransaction(db, async (tx) => {
      for (const [id, kind] of [["external", "external"], ["system", "system"], ["u1", "user"]] as const) await createAccount(tx, id, kind);
    });
    const decide = (id: string, status: "accepted" | "declined") => inTransaction(db, (tx) => decideDeposit(tx, id, status, "admin"));
    // The request that gave its ID up is refused while the other network's request holds the transaction, and credited once that is declined.
    await expect(decide("d1", "accepted")).rejects.toMatchObject({ code: "duplicate_transaction" });
    await expect(decide("d4", "accepted")).rejects.toMatchObject({ code: "duplicate_transaction" });
    await decide("d3", "declined");
    await decide("d4", "accepted");
    expect((await deposited())[3]).toEqual(["d4", "accepted", OTHER, false]);
    expect(rowsOf<{ request_id: string }>(await db.execute(sql`SELECT request_id FROM transfers WHERE kind = 'deposit'`)).map((r) => r.request_id)).toEqual(["d4"]);
    // The index now refuses a second payout of one transaction.
    const payAgain = async () => db.execute(sql`UPDATE withdrawals SET payout_tx_hash = ${OTHER.replace(/^0/, "f")} WHERE id = 'w2'`);
    await expect(payAgain()).rejects.toThrow();
    await expectLedgerInvariants(db);
  } finally {
    await database.close();
  }
});

test("typed_tx_hash drops every space and invisible character, as the rule says, and nothing else", async () => {
  const database = await openDatabase({});
  try {
    await migrate(database);
    const read = async (text: string) => rowsOf<{ hash: string | null }>(await database.db.execute(sql`SELECT typed_tx_hash(${text}) AS hash`))[0]!.hash;
    // Every character JavaScript calls a space (\s) or Unicode a format character (Cf), in the middle of an ID.
    const invisible: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      if (/[\s\p{Cf}]/u.test(c)) invisible.push(c);
    }
    expect(invisible.length).toBeGreaterThan(150);
    const mid = ID.length / 2;
    const spelled = invisible.map((c) => `${ID.slice(0, mid)}${c}${ID.slice(mid)}`);
    const readAll = rowsOf<{ hash: string | null }>(
      await database.db.execute(sql`SELECT typed_tx_hash(t) AS hash FROM jsonb_array_elements_text(${JSON.stringify(spelled)}::jsonb) t`),
    ).map((r) => r.hash);
    expect(readAll.filter((h) => h !== ID)).toEqual([]);
    expect(await read(`0x${ID.toUpperCase()}`)).toBe(ID);
    expect(await read(`\uff10\uff58${ID}`)).toBe(ID); // fullwidth 0x
    // A visible character, or one hex digit short or long, names no transaction.
    for (const text of [`${ID.slice(0, mid)}-${ID.slice(mid)}`, ID.slice(1), `${ID}a`, `${ID.slice(0, mid)}\u00b7${ID.slice(mid)}`]) expect(await read(text)).toBeNull();
  } finally {
    await database.close();
  }
});
