import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { teamCounts, users } from "../db/schema";
import { accountOf, adminIdOf, credit, joinUnder, movesOf, refusalOf, run } from "../testing/domain";
import { useDatabase } from "../testing/useHarness";
import { EXTERNAL } from "./ledger";
import { teamSize } from "./teams";
import { adminReferralId, currentUser, deleteUser, findReferrer, searchUsers, signUp } from "./users";
import { adminGift, sendGift } from "./wallet";

// docs/rules.md#referrals, called directly: sign-up under a referral ID, one account per email
// whatever its case, and the soft delete. The ledger invariants and the referral tree are
// checked after each test.
let database: Database;
useDatabase((made) => (database = made));

const register = (input: { email: string; referralId: string; name?: string }) =>
  signUp(database.db, { name: input.name ?? "Someone", passwordHash: "x", ...input });

const userRow = async (id: string) => (await database.db.select().from(users).where(eq(users.id, id)))[0]!;
const teamOf = async (id: string) => {
  const [row] = await database.db
    .select({ total: teamSize(users), direct: teamCounts.direct })
    .from(users)
    .innerJoin(teamCounts, eq(teamCounts.userId, users.id))
    .where(eq(users.id, id));
  return [Number(row!.total), row!.direct];
};

test("a user registers under the holder of a referral ID, typed in any case, and gets an account of their own", async () => {
  const sponsor = await joinUnder(database.db, null);
  const { referralId } = await userRow(sponsor);
  const { id } = await register({ email: "new.member@core.test", referralId: ` ${referralId.toLowerCase()} ` });
  const row = await userRow(id);
  expect(row).toMatchObject({ referrerId: sponsor, depth: (await userRow(sponsor)).depth + 1, role: "user", deletedAt: null });
  expect(row.referralId).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
  expect(await accountOf(database.db, id)).toEqual({ balance: 0n, held: 0n });
  expect(await teamOf(sponsor)).toEqual([1, 1]);
});

test("a registration under an unknown referral ID is refused with invalid_referral and creates nothing", async () => {
  const before = await database.db.$count(users);
  expect(await refusalOf(register({ email: "orphan@core.test", referralId: "NOSUCHID" }))).toBe("invalid_referral");
  expect(await refusalOf(register({ email: "orphan@core.test", referralId: "" }))).toBe("invalid_referral");
  expect(await database.db.$count(users)).toBe(before);
});

test("an email is taken whatever its case: a second registration is refused with email_taken", async () => {
  const referralId = await adminReferralId(database.db);
  const { id } = await register({ email: "Case.Twin@Core.Test", referralId });
  expect(await refusalOf(register({ email: "case.twin@core.test", referralId }))).toBe("email_taken");
  expect(await refusalOf(register({ email: "CASE.TWIN@CORE.TEST", referralId }))).toBe("email_taken");
  expect((await userRow(id)).email).toBe("Case.Twin@Core.Test");
});

test("team counts follow sign-ups up the whole upline: total for every ancestor, direct for the referrer", async () => {
  const a = await joinUnder(database.db, null);
  const b = await joinUnder(database.db, a);
  const c = await joinUnder(database.db, b);
  await joinUnder(database.db, b);
  await joinUnder(database.db, c);
  expect(await teamOf(a)).toEqual([4, 1]);
  expect(await teamOf(b)).toEqual([3, 2]);
  expect(await teamOf(c)).toEqual([1, 1]);
});

test("a soft delete keeps the row, the money and the history, but the user is gone for sign-ups, gifts, sessions and search", async () => {
  const { db } = database;
  const sponsor = await joinUnder(db, null);
  const gone = await joinUnder(db, sponsor, { name: "Gone Member" });
  const partner = await joinUnder(db, gone);
  await credit(db, gone, 700n);
  expect(await teamOf(sponsor)).toEqual([2, 1]);
  const { email, referralId } = await userRow(gone);

  const deleted = await run(db, (tx) => deleteUser(tx, gone));
  expect(deleted).toMatchObject({ name: "Gone Member", email });
  // Kept: the row (marked), the balance and the ledger rows, and the partner's place under them.
  expect((await userRow(gone)).deletedAt).toEqual(deleted.deletedAt);
  expect(await accountOf(db, gone)).toEqual({ balance: 700n, held: 0n });
  expect(await movesOf(db, gone)).toEqual([[EXTERNAL, gone, 700n, "deposit"]]);
  expect((await userRow(partner)).referrerId).toBe(gone);
  // Gone: from the sponsor's team (their partner stays counted), sign-ups under their referral
  // ID, gifts either way, sign-in and search.
  expect(await teamOf(sponsor)).toEqual([1, 0]);
  expect(await refusalOf(register({ email: "late@core.test", referralId }))).toBe("invalid_referral");
  await credit(db, sponsor, 100n);
  expect(await refusalOf(run(db, (tx) => sendGift(tx, sponsor, { recipientEmail: email, amount: 1n })))).toBe("recipient_not_found");
  expect(await refusalOf(run(db, (tx) => adminGift(tx, gone, 1n)))).toBe("user_not_found");
  const sponsorEmail = (await userRow(sponsor)).email;
  expect(await refusalOf(run(db, (tx) => sendGift(tx, gone, { recipientEmail: sponsorEmail, amount: 1n })))).toBe("bad_token");
  expect(await refusalOf(currentUser(db, gone))).toBe("bad_token");
  expect(await searchUsers(db, "Gone Member", sponsor)).toEqual([]);
  // Their own partner still sees who referred them; nobody else does.
  expect(await findReferrer(db, referralId, partner)).toMatchObject({ myReferralId: referralId });
  expect(await refusalOf(findReferrer(db, referralId, sponsor))).toBe("user_not_found");

  // Deleted once: a second delete, or deleting the admin, is refused.
  expect(await refusalOf(run(db, (tx) => deleteUser(tx, gone)))).toBe("user_not_found");
  expect(await refusalOf(run(db, (tx) => deleteUser(tx, "no-such-user")))).toBe("user_not_found");
  const admin = await adminIdOf(db);
  expect(await refusalOf(run(db, (tx) => deleteUser(tx, admin)))).toBe("cannot_delete_admin");
});

test("registerUser keeps the name clean and refuses one that reads as the platform, whoever calls it", async () => {
  const sponsor = await joinUnder(database.db, null);
  const { referralId } = await userRow(sponsor);
  const { id } = await register({ email: "clean.name@core.test", referralId, name: " \u202EGrace\u200B   Hopper\u2069\u0000 " });
  expect((await userRow(id)).name).toBe("Grace Hopper");
  const before = await database.db.$count(users);
  for (const name of ["System", "S y s t e m", "ADM1N", "\u200B\u00AD"]) {
    expect(await refusalOf(register({ email: `${crypto.randomUUID()}@core.test`, referralId, name }))).toBe("validation");
  }
  expect(await database.db.$count(users)).toBe(before);
});

test("searchUsers matches word starts of names and whole emails only, and counts each search against the member's limit", async () => {
  const { db } = database;
  const me = await joinUnder(db, null);
  const ann = await joinUnder(db, null, { name: "Annabel Q-Searchwell", email: "annabel.q@domain.test" });
  const ids = async (text: string) => (await searchUsers(db, text, me)).map((u) => u.id);
  expect(await ids("annab")).toEqual([ann]);
  expect(await ids("searchw")).toEqual([ann]);
  expect(await ids("ANNABEL.Q@DOMAIN.TEST")).toEqual([ann]);
  for (const part of ["nabel", ".te", "domain.test", "@domain.test", "annabel.q"]) expect(await ids(part)).toEqual([]);
  // 8 searches so far; 22 more make 30, the 31st in the minute is refused.
  for (let i = 0; i < 22; i++) await searchUsers(db, "zz", me);
  expect(await refusalOf(searchUsers(db, "annab", me))).toBe("throttled");
});
