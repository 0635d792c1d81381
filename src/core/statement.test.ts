import { expect, test } from "bun:test";
import type { Database } from "../db/client";
import { users } from "../db/schema";
import { adminIdOf, credit, joinUnder, run } from "../testing/domain";
import { useDatabase } from "../testing/useHarness";
import { adminGift } from "./wallet";
import { isInTeamOf, statementBatches, transactionsOf } from "./statement";
import { csvHeader, csvLine, statementCsv, textField } from "./statementCsv";
import { deleteUser } from "./users";

let database: Database;
useDatabase((made) => (database = made));

/** A tiny deterministic random source, so a failure replays. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1_664_525 + 1_013_904_223) >>> 0) / 2 ** 32);
}

test("isInTeamOf agrees with a walk from referrer to referrer, for every pair of a random tree with chains taken over", async () => {
  const { db } = database;
  const next = random(7);
  const admin = await adminIdOf(db);
  const ids = [admin];
  const referrerOf = new Map<string, string | null>([[admin, null]]);
  // Mostly deep lines, sometimes a new branch from anywhere: chains form, and bigger branches take them over.
  for (let i = 0; i < 40; i++) {
    const under = next() < 0.6 ? ids.at(-1)! : ids[Math.floor(next() * ids.length)]!;
    const id = await joinUnder(db, under === admin ? null : under);
    ids.push(id);
    referrerOf.set(id, under);
  }
  const gone = ids[Math.floor(ids.length / 2)]!;
  await run(db, (tx) => deleteUser(tx, gone));

  const chains = new Set((await db.select({ chain: users.chainId }).from(users)).map((r) => r.chain));
  expect(chains.size).toBeGreaterThan(3); // the tree is cut into several chains, or the test proves little

  const isUnder = (member: string, leader: string) => {
    for (let at: string | null = member; at !== null; at = referrerOf.get(at) ?? null) if (at === leader) return true;
    return false;
  };
  const mismatches: string[] = [];
  for (const leader of ids) {
    for (const member of ids) {
      // A deleted member keeps their place in the tree (and in the team above).
      const expected = isUnder(member, leader);
      if ((await isInTeamOf(db, leader, member)) !== expected) mismatches.push(`${leader} over ${member}: expected ${expected}`);
    }
  }
  expect(mismatches).toEqual([]);
  expect(await isInTeamOf(db, admin, "no-such-user")).toBe(false);
  expect(await isInTeamOf(db, "no-such-user", ids[1]!)).toBe(false);
});

test("the CSV is read in batches by cursor: any batch size gives the same lines as the pages", async () => {
  const { db } = database;
  const user = await joinUnder(db, null);
  await credit(db, user, 1_000n);
  for (let i = 1; i <= 23; i++) await run(db, (tx) => adminGift(tx, user, BigInt(i)));
  const pages = [...(await transactionsOf(db, user, 1)).transactions, ...(await transactionsOf(db, user, 2)).transactions];
  expect(pages).toHaveLength(24);
  const expected = csvHeader() + pages.map(csvLine).join("");
  for (const size of [1, 5, 23, 24, 25, 500]) {
    let text = "";
    for await (const chunk of statementCsv(db, user, {}, size)) text += chunk;
    expect({ size, text }).toEqual({ size, text: expected });
  }
  const batches: number[] = [];
  for await (const rows of statementBatches(db, user, { kind: "gift_in" }, 10)) batches.push(rows.length);
  expect(batches).toEqual([10, 10, 3]);
  expect(csvLine(pages.at(-1)!)).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z,deposit,10\.00,,,,10\.00,,\d+\r\n$/);
});

test("a text field is quoted when it must be and never starts a formula", () => {
  expect(["plain", "a,b", "Bob;=cmd|' /C calc'!A0", "a\t=1", 'say "hi"', "two\nlines", "=1+1", "+1", "-1", "@x", "\tx", "", null].map(textField)).toEqual([
    "plain",
    '"a,b"',
    // Spreadsheets of semicolon (or tab) locales split there: quoted, it stays one cell.
    `"Bob;=cmd|' /C calc'!A0"`,
    '"a\t=1"',
    '"say ""hi"""',
    '"two\nlines"',
    "'=1+1",
    "'+1",
    "'-1",
    "'@x",
    `"'\tx"`,
    "",
    "",
  ]);
});
