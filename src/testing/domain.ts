import { and, asc, eq, or } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { accounts, transfers, userLevels, users, type Program } from "../db/schema";
import { Refusal } from "../core/errors";
import { EXTERNAL, transfer } from "../core/ledger";
import { inTransaction } from "../core/tx";
import { adminReferralId, signUp } from "../core/users";
import type { ErrorCode } from "../shared/errors";

/**
 * Helpers for the tests of src/core, which call the domain directly on a fresh database
 * (./useHarness.ts, useDatabase): no HTTP, no tokens. Money in cents.
 */

let sequence = 0;

/** Runs one operation in its own transaction, as the server does. */
export const run = <T>(db: Db, work: (tx: Tx) => Promise<T>) => inTransaction(db, work);

/** Registers a user under `referrerId` (the admin when null) and answers the new id. */
export async function joinUnder(db: Db, referrerId: string | null, opts: { name?: string; email?: string } = {}): Promise<string> {
  const n = ++sequence;
  const name = opts.name ?? `user${n}`;
  const referralId = referrerId
    ? (await db.select({ r: users.referralId }).from(users).where(eq(users.id, referrerId)))[0]!.r
    : await adminReferralId(db);
  const email = opts.email ?? `${name.toLowerCase().replace(/\W/g, "")}-${n}@core.test`;
  const { id } = await signUp(db, { name, email, passwordHash: "x", referralId });
  return id;
}

/** The seeded admin's id (the root of the tree, who never buys: walks that reach it pay system). */
export async function adminIdOf(db: Db): Promise<string> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.role, "admin")).orderBy(asc(users.createdAt)).limit(1);
  return row!.id;
}

/** Credits `cents` from the outside world, as an accepted deposit would. */
export const credit = (db: Db, userId: string, cents: bigint) =>
  run(db, (tx) => transfer(tx, { from: EXTERNAL, to: userId, amount: cents, kind: "deposit" }));

/** An account's stored balance and hold. */
export async function accountOf(db: Db, id: string): Promise<{ balance: bigint; held: bigint }> {
  const [row] = await db.select({ balance: accounts.balance, held: accounts.held }).from(accounts).where(eq(accounts.id, id));
  if (!row) throw new Error(`no account ${id}`);
  return row;
}

export const balanceOf = async (db: Db, id: string) => (await accountOf(db, id)).balance;

/** The ledger rows touching `accountId`, oldest first, as [from, to, amount, kind]. */
export async function movesOf(db: Db, accountId: string) {
  const rows = await db
    .select()
    .from(transfers)
    .where(or(eq(transfers.fromAccount, accountId), eq(transfers.toAccount, accountId)))
    .orderBy(asc(transfers.id));
  return rows.map((t) => [t.fromAccount, t.toAccount, t.amount, t.kind] as const);
}

/** A user's level row as [status, cycles, slots], or null while the level is locked. */
export async function levelOf(db: Db, userId: string, program: Program, level: number) {
  const [row] = await db
    .select({ status: userLevels.status, cycles: userLevels.cycles, slots: userLevels.slots })
    .from(userLevels)
    .where(and(eq(userLevels.userId, userId), eq(userLevels.program, program), eq(userLevels.level, level)));
  return row ? ([row.status, row.cycles, row.slots] as const) : null;
}

/** The code of the Refusal that `work` ends in; fails the test when it succeeds or throws anything else. */
export async function refusalOf(work: Promise<unknown>): Promise<ErrorCode> {
  const outcome = await work.then(
    () => new Error("expected a refusal, but the operation succeeded"),
    (error: unknown) => error,
  );
  if (!(outcome instanceof Refusal)) throw outcome;
  return outcome.code;
}
