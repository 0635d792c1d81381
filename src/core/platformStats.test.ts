import { expect, test } from "bun:test";
import type { Database } from "../db/client";
import { adminIdOf, credit, joinUnder, run } from "../testing/domain";
import { useDatabase } from "../testing/useHarness";
import { purchaseLevel, unfreezeLevel } from "./matrix";
import { cachedPlatformStats, PLATFORM_STATS_TTL_MS, platformStats } from "./platformStats";
import { deleteUser } from "./users";

// Level 1 costs 5.00 in both programs and unfreezing it 2.50 (the seeded defaults).
let database: Database;
useDatabase((made) => (database = made));

const buy = (id: string, program: "3p" | "6p" = "3p") => run(database.db, (tx) => purchaseLevel(tx, id, program, 1));

test("a fresh platform: no members (the admin is not one), nothing paid out, no level active", async () => {
  expect(await platformStats(database.db)).toEqual({ members: 0, paidOut: 0n, levelsActive: 0 });
});

test("members leave out admins and deleted users; paid out counts purchases and unfreezes that reached a member, not the platform", async () => {
  const top = await joinUnder(database.db, null);
  const owner = await joinUnder(database.db, top);
  const partners = [await joinUnder(database.db, owner), await joinUnder(database.db, owner), await joinUnder(database.db, owner)];
  const gone = await joinUnder(database.db, top);
  for (const id of [top, owner, ...partners]) await credit(database.db, id, 10_000n);
  await run(database.db, (tx) => deleteUser(tx, gone));

  await buy(top); // nobody above is active: 5.00 to system, not paid out
  expect(await platformStats(database.db)).toEqual({ members: 5, paidOut: 0n, levelsActive: 1 });

  await buy(owner); // top's slot 1: 5.00 paid to a member
  for (const p of partners) await buy(p); // owner's slots 1 and 2 pay owner; slot 3 passes up and pays top
  expect(await platformStats(database.db)).toEqual({ members: 5, paidOut: 2_000n, levelsActive: 5 });

  await buy(top, "6p"); // system again
  expect((await platformStats(database.db)).paidOut).toBe(2_000n);
  expect((await platformStats(database.db)).levelsActive).toBe(6);
});

test("an unfreeze paid to a member is paid out; a frozen level is not active", async () => {
  const top = await joinUnder(database.db, null);
  const owner = await joinUnder(database.db, top);
  const partners = await Promise.all(Array.from({ length: 6 }, () => joinUnder(database.db, owner)));
  for (const id of [top, owner, ...partners]) await credit(database.db, id, 10_000n);
  await buy(top);
  await buy(owner);
  for (const p of partners) await buy(p); // two cycles of the owner's 3P level 1: it freezes
  const before = await platformStats(database.db);
  await run(database.db, (tx) => unfreezeLevel(tx, owner, "3p", 1)); // 2.50 to top, who is active
  const after = await platformStats(database.db);
  expect(after.paidOut - before.paidOut).toBe(250n);
  expect(after.levelsActive - before.levelsActive).toBe(1);
});

test("cachedPlatformStats asks the database once a minute: the same figures inside the minute; after it, those at once while fresh ones are read, then the fresh ones", async () => {
  const t0 = 1_000_000;
  const first = await cachedPlatformStats(database.db, t0);
  await joinUnder(database.db, null);
  expect(await cachedPlatformStats(database.db, t0 + PLATFORM_STATS_TTL_MS - 1)).toEqual(first);
  // Due: answered at once with what is known (a page never waits for these scans), read again meanwhile.
  expect(await cachedPlatformStats(database.db, t0 + PLATFORM_STATS_TTL_MS)).toEqual(first);
  let later = first;
  for (let i = 0; i < 100 && later.members === first.members; i++) {
    await Bun.sleep(10);
    later = await cachedPlatformStats(database.db, t0 + PLATFORM_STATS_TTL_MS + 1);
  }
  expect(later.members).toBe(first.members + 1);
});

test("a deleted member's levels are no longer active (they never receive again), and admins' levels never count", async () => {
  const before = await platformStats(database.db);
  const member = await joinUnder(database.db, null);
  await credit(database.db, member, 10_000n);
  await buy(member);
  const admin = await adminIdOf(database.db);
  await credit(database.db, admin, 10_000n);
  await buy(admin, "6p");
  const bought = await platformStats(database.db);
  expect([bought.members - before.members, bought.levelsActive - before.levelsActive]).toEqual([1, 1]);
  await run(database.db, (tx) => deleteUser(tx, member));
  const after = await platformStats(database.db);
  expect([after.members - before.members, after.levelsActive - before.levelsActive]).toEqual([0, 0]);
});

test("money that reached an admin's own account is not paid out to members; money paid to a member later deleted still is", async () => {
  const admin = await adminIdOf(database.db);
  await credit(database.db, admin, 10_000n);
  await buy(admin); // the admin holds 3P level 1 (if an earlier test did not buy it already)
  const before = (await platformStats(database.db)).paidOut;
  const member = await joinUnder(database.db, null);
  await credit(database.db, member, 10_000n);
  await buy(member); // pays the admin: 5.00 to the admin's account
  expect((await platformStats(database.db)).paidOut).toBe(before);
  const partner = await joinUnder(database.db, member);
  await credit(database.db, partner, 10_000n);
  await buy(partner); // the member's slot 1: 5.00 to a member
  await run(database.db, (tx) => deleteUser(tx, member));
  expect((await platformStats(database.db)).paidOut).toBe(before + 500n);
});
