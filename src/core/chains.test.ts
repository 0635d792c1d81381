import { expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { openDatabase, rowsOf, type Database } from "../db/client";
import { migrate } from "../db/migrate";
import { users } from "../db/schema";
import { migrateUpTo, onPostgres } from "../testing/db";
import { expectTreeInvariants } from "../testing/invariants";
import { credit, joinUnder } from "../testing/domain";
import { useDatabase } from "../testing/useHarness";
import { purchaseLevel } from "./matrix";
import { handOverWhereDue } from "./chains";
import { firstEligibleAbove } from "./receiver";
import { inTransaction } from "./tx";
import { registerUser } from "./users";

// These tests fund users and buy levels: the ledger (and the tree) must stay whole after each.
let database: Database;
useDatabase((made) => (database = made));

const join = (name: string, referrer: string | null) => joinUnder(database.db, referrer, { name });

async function placeOf(id: string) {
  const [row] = await database.db.select({ chainId: users.chainId, depth: users.depth }).from(users).where(eq(users.id, id));
  return row!;
}

async function buy(id: string, level: number) {
  await credit(database.db, id, 100_000n);
  for (let l = 1; l <= level; l++) await inTransaction(database.db, (tx) => purchaseLevel(tx, id, "3p", l));
}

//          admin
//            a ─────────── b          a: admin's first partner, continues the admin's chain
//          ┌─┴─┐           │          b: a second partner, starts its own chain
//          c   d           e          c: a's first partner (admin's chain), d: a new chain
//          │
//          f
test("a user's first partner continues their chain, later partners start one each", async () => {
  const [admin] = await database.db.select({ id: users.id }).from(users).where(eq(users.role, "admin"));
  const a = await join("a", null);
  const b = await join("b", null);
  const c = await join("c", a);
  const d = await join("d", a);
  const e = await join("e", b);
  const f = await join("f", c);
  const chainOf = async (id: string) => (await placeOf(id)).chainId;
  expect(await Promise.all([a, c, f].map(chainOf))).toEqual([admin!.id, admin!.id, admin!.id]);
  expect(await Promise.all([b, e].map(chainOf))).toEqual([b, b]);
  expect(await chainOf(d)).toBe(d);
  expect(await Promise.all([a, c, f, d, e].map(async (id) => (await placeOf(id)).depth))).toEqual([1, 2, 3, 2, 2]);
  await expectTreeInvariants(database.db);
});

test("the receiver search takes no one deeper on a chain than where the walk entered it, nor anyone off the way up", async () => {
  // p ─ q ─ r (p's chain), and p's second partner s with its own chain s ─ t.
  const p = await join("p", null);
  const q = await join("q", p);
  const r = await join("r", q);
  const s = await join("s", p);
  const t = await join("t", s);
  await buy(q, 2);
  await buy(r, 2);
  // From t the way up is s, then p (entering p's chain at p's depth): q and r are below that.
  expect(await firstEligibleAbove(database.db, t, "3p", 1)).toBeNull();
  await buy(p, 1);
  expect(await firstEligibleAbove(database.db, t, "3p", 1)).toBe(p);
  expect(await firstEligibleAbove(database.db, t, "3p", 2)).toBeNull();
  // Along p's own chain the nearest active user wins: r's receiver at level 2 is q.
  expect(await firstEligibleAbove(database.db, r, "3p", 2)).toBe(q);
  await buy(s, 2);
  expect(await firstEligibleAbove(database.db, t, "3p", 2)).toBe(s);
  await expectTreeInvariants(database.db);
});

//    k ─ x ─ x1 ─ x2            x: k's first partner, so x's line continues k's chain,
//    └── y ─ y1 ─ ... ─ y6      until y's team (7 with y) is more than twice x's (3).
test("a partner whose team outgrows the chain's heir more than twice over takes the chain over", async () => {
  const chainOf = async (id: string) => (await placeOf(id)).chainId;
  const k = await join("k", null);
  const x = await join("x", k);
  const x1 = await join("x1", x);
  const x2 = await join("x2", x1);
  await buy(x1, 1);
  await buy(k, 1);
  const y = await join("y", k);
  const line = [y];
  for (let i = 1; i <= 5; i++) line.push(await join(`y${i}`, line.at(-1)!));
  // y's team is 6 with y: not yet more than twice x's 3. (k's own chain may be the admin's by
  // now: k's team outgrew the admin's first partner's.)
  const kChain = await chainOf(k);
  expect(await Promise.all([x, x1, x2].map(chainOf))).toEqual([kChain, kChain, kChain]);
  expect(await chainOf(y)).toBe(y);

  const y6 = await join("y6", line.at(-1)!);
  line.push(y6);
  expect(await Promise.all(line.map(chainOf))).toEqual(line.map(() => kChain));
  expect(await Promise.all([x, x1, x2].map(chainOf))).toEqual([x, x, x]);
  await expectTreeInvariants(database.db); // x1's level row moved with x1

  // The walks follow the new chains: x2 still reaches x1, and y6 passes x's line to reach k.
  expect(await firstEligibleAbove(database.db, x2, "3p", 1)).toBe(x1);
  expect(await firstEligibleAbove(database.db, y6, "3p", 1)).toBe(k);
});

test.skipIf(!onPostgres)("a purchase racing the sign-up that moves its buyer to another chain leaves the level row's copy current", async () => {
  const chainOf = async (id: string) => (await placeOf(id)).chainId;
  // As above: m's line (3 with m) continues j's chain until n's line outgrows it.
  const j = await join("j", null);
  const m = await join("m", j);
  const m1 = await join("m1", m);
  const m2 = await join("m2", m1);
  await buy(m1, 1);
  const line = [await join("n", j)];
  for (let i = 1; i <= 5; i++) line.push(await join(`n${i}`, line.at(-1)!));
  await credit(database.db, m2, 100_000n);
  const before = await chainOf(m2);

  // The takeover after the sign-up that hands j's chain to n's line moves m2 to m's chain; it
  // stays open while m2 buys level 1, and commits only after the purchase has had time to write
  // its row.
  let commit!: () => void;
  const held = new Promise<void>((resolve) => (commit = resolve));
  let signedUp!: () => void;
  const moved = new Promise<void>((resolve) => (signedUp = resolve));
  const [ref] = await database.db.select({ r: users.referralId }).from(users).where(eq(users.id, line.at(-1)!));
  const { id: n6 } = await inTransaction(database.db, (tx) => registerUser(tx, { name: "n6", email: "n6@chains.test", passwordHash: "x", referralId: ref!.r }));
  const signUp = inTransaction(database.db, async (tx) => {
    await handOverWhereDue(tx, n6);
    signedUp();
    await held;
  });
  await moved;
  const purchase = inTransaction(database.db, (tx) => purchaseLevel(tx, m2, "3p", 1));
  await Bun.sleep(300);
  commit();
  await signUp;
  expect((await purchase).payee).toBe(m1);
  expect(await chainOf(m2)).not.toBe(before);
  await expectTreeInvariants(database.db); // m2's new level row carries m2's new chain
});

test("upgrading a database from before chains places every user as sign-up would have", async () => {
  const old = await openDatabase({});
  try {
    await migrateUpTo(old, 'ADD COLUMN "chain_id"');
    // root ─ x ─ z, root ─ y (signed up after x), z with an active level row.
    await old.db.execute(sql`
      INSERT INTO users (id, name, email, password_hash, referral_id, referrer_id, depth, created_at) VALUES
        ('root', 'Root', 'root@old', 'x', 'R0', NULL, 0, '2026-01-01'),
        ('y', 'Y', 'y@old', 'x', 'R2', 'root', 1, '2026-01-03'),
        ('x', 'X', 'x@old', 'x', 'R1', 'root', 1, '2026-01-02'),
        ('z', 'Z', 'z@old', 'x', 'R3', 'x', 2, '2026-01-04')`);
    await old.db.execute(sql`INSERT INTO user_levels (user_id, program, level, status) VALUES ('z', '3p', 1, 'active')`);
    await old.db.execute(sql`INSERT INTO team_counts (user_id, total, direct) VALUES ('root', 3, 2), ('x', 1, 1), ('y', 0, 0), ('z', 0, 0)`);

    await migrate(old);

    const placed = rowsOf<{ id: string; chain_id: string }>(await old.db.execute(sql`SELECT id, chain_id FROM users ORDER BY id`));
    expect(placed).toEqual([
      { id: "root", chain_id: "root" },
      { id: "x", chain_id: "root" },
      { id: "y", chain_id: "y" },
      { id: "z", chain_id: "root" },
    ]);
    const levels = rowsOf(await old.db.execute(sql`SELECT user_id, chain_id, depth FROM user_levels`));
    expect(levels).toEqual([{ user_id: "z", chain_id: "root", depth: 2 }]);
    await expectTreeInvariants(old.db);
  } finally {
    await old.close();
  }
});
