import { and, eq, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../db/client";
import { users } from "../db/schema";
import { earningsOf } from "./earnings";
import { refuse } from "./errors";
import { levelTotalsOf } from "./matrixView";
import { twoFactorStatus } from "./twoFactor";
import { findMember } from "./users";

/**
 * The operator's console: one member's whole record (GET /api/admin/users/:id). Every figure is
 * read by the function that reads it for the member's own dashboard, with the member's id: the
 * profile, balance, hold and team as GET /api/auth answers them (findMember), the levels as their
 * matrices do (levelTotalsOf), the lifetime earned and missed as their Earnings page does. A
 * deleted member is not found (user_not_found), as DELETE /api/admin/users/:id answers.
 *
 * The parts are read one after another, not in one snapshot: a payment landing in between can
 * show in one figure and not yet in another, as on the member's own pages.
 */
export async function memberRecord(db: Db, userId: string) {
  const member = await findMember(db, userId);
  if (!member) return refuse("user_not_found");
  const referrer = await referrerOf(db, userId);
  const twoFactor = await twoFactorStatus(db, userId);
  const programs = await levelTotalsOf(db, userId);
  // One day is the least it reads; only the lifetime totals are used.
  const earnings = await earningsOf(db, userId, 1);
  return {
    id: member.id,
    name: member.name,
    email: member.email,
    myReferralId: member.myReferralId,
    referrer,
    createdAt: member.createdAt,
    role: member.role,
    status: "active" as const,
    twoFactor: twoFactor.enabled,
    emailVerified: member.emailVerified,
    balance: member.balance,
    held: member.held,
    available: member.balance - member.held,
    earned: earnings.lifetimeEarned,
    missed: earnings.lifetimeMissed,
    totalPartners: member.totalPartners,
    directPartners: member.directPartners,
    programs,
  };
}

const sponsor = alias(users, "sponsor");

/** Who referred the member, deleted since or not (their place in the tree stays): null for the first account. */
async function referrerOf(db: Db, userId: string) {
  const [row] = await db
    .select({ id: sponsor.id, name: sponsor.name, myReferralId: sponsor.referralId, deleted: sql<boolean>`(${sponsor.deletedAt} IS NOT NULL)` })
    .from(users)
    .innerJoin(sponsor, eq(sponsor.id, users.referrerId))
    .where(eq(users.id, userId));
  return row ?? null;
}

/** The lists of a member's record answer only for a member there is, not deleted: else user_not_found. */
export async function requireMember(db: Db, userId: string): Promise<void> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));
  if (!row) refuse("user_not_found");
}
