import { and, eq, isNull, ne, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { loginFailures, users } from "../db/schema";
import { liveToken, newAccountToken, newToken, queueVerification, spendTokens, tokenKey } from "./accountTokens";
import { MSG } from "../shared/messages";
import { refuse } from "./errors";
import { queueMail } from "./mail/outbox";
import { EMAIL_TOKEN_HOURS, RESET_TOKEN_MINUTES } from "./mail/templates";
import { checkCurrentPassword, type PasswordHasher, revokeAllTokens, type TrustedDevice, UNKNOWN_SOURCE } from "./sessions";
import { HOUR_SECONDS, secondsInterval, takeHit } from "./throttle";
import { proveSecondFactor, refuseTooManyCodes } from "./twoFactor";
import { inTransaction, isUniqueViolation } from "./tx";
import { acceptableName } from "./users";
import { normalizeEmail } from "./util";

/**
 * What a member can do about their own account (docs/rules.md#account-recovery-and-mail): a
 * forgotten password reset through a mailed link, the password and the email changed, the
 * address confirmed, the name changed.
 *
 * Mailed links carry a token of 256 random bits; only its SHA-256 is kept (`account_tokens`),
 * with the address it was mailed to. A token is good once, until it expires, and only while the
 * account still has that address (a change of address spends every link of before). Every mail
 * is queued in the transaction of its cause (./mail/outbox.ts).
 */

/** Password reset mails asked per email, and per source address, an hour. */
export const RESETS_PER_EMAIL_PER_HOUR = 5;
export const RESETS_PER_SOURCE_PER_HOUR = 20;
/** Email changes a member may ask for an hour (each mails an address they typed). */
export const EMAIL_CHANGES_PER_HOUR = 5;
/** Confirmation mails a member may ask for again an hour. */
export const VERIFICATION_MAILS_PER_HOUR = 3;

/**
 * POST /api/auth/password/forgot: mails a reset link to the account of `email`, if there is one
 * (not deleted). The caller is told the same whether there is or not, and the work is the same
 * two statements either way (they write nothing for an unknown email). Limited per email and per source address (429 `throttled`), counted for
 * every email alike: the limit tells nothing either.
 */
export async function forgotPassword(db: Db, email: string, source: string): Promise<void> {
  const key = normalizeEmail(email);
  // An unknown source (no address: tests through app.request) is no address to slow down, as for logins.
  if (source !== UNKNOWN_SOURCE) {
    await takeHit(db, { bucket: "reset_source", max: RESETS_PER_SOURCE_PER_HOUR, windowSeconds: HOUR_SECONDS }, source, MSG.tooManyResetMails);
  }
  await takeHit(db, { bucket: "reset_email", max: RESETS_PER_EMAIL_PER_HOUR, windowSeconds: HOUR_SECONDS }, key, MSG.tooManyResetMails);
  // The same two statements whether the email has an account or not: each writes a row only when it has.
  const token = newToken();
  const id = tokenKey(token);
  await inTransaction(db, async (tx) => {
    await tx.execute(sql`
      INSERT INTO account_tokens (id, user_id, purpose, email, expires_at)
      SELECT ${id}, u.id, 'reset_password', u.email, now() + ${secondsInterval(RESET_TOKEN_MINUTES * 60)}
      FROM users u WHERE lower(u.email) = ${key} AND u.deleted_at IS NULL`);
    await tx.execute(sql`
      INSERT INTO mail_outbox (cause_key, user_id, to_address, template, data)
      SELECT 'reset:' || t.id, u.id, u.email, 'reset_password', jsonb_build_object('name', u.name, 'token', ${token}::text)
      FROM account_tokens t JOIN users u ON u.id = t.user_id
      WHERE t.id = ${id}
      ON CONFLICT (cause_key) DO NOTHING`);
  });
}

/**
 * POST /api/auth/password/reset: a new password through a reset link. With two-factor on, the
 * reset needs a code too (or a recovery code): the link alone proves the mailbox, not the phone.
 * The link and every other reset link of the member are spent; every session ends and no
 * browser is trusted any more (a new session generation); the email's failed logins are
 * forgotten; the address counts as confirmed (the link reached it); a notice is mailed.
 */
export async function resetPassword(db: Db, hasher: PasswordHasher, input: { token: string; password: string; code?: string }): Promise<void> {
  // A look first, so that a dead link costs no password hashing.
  const alive = await inTransaction(db, async (tx) => Boolean(await liveToken(tx, input.token, ["reset_password"])));
  if (!alive) return refuse("token_invalid");
  const passwordHash = await hasher.hash(input.password);
  const outcome = await inTransaction(db, async (tx) => {
    const found = await liveToken(tx, input.token, ["reset_password"]);
    if (!found) return "token_invalid" as const;
    const proof = await proveSecondFactor(tx, found.user.id, input.code);
    if (proof === "missing") return "two_factor_code_required" as const;
    if (proof === "invalid") return "two_factor_invalid" as const;
    if (typeof proof === "object") return proof;
    await tx
      .update(users)
      .set({ passwordHash, emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` as unknown as Date })
      .where(eq(users.id, found.user.id));
    await spendTokens(tx, found.user.id, "reset_password");
    await tx.delete(loginFailures).where(eq(loginFailures.email, normalizeEmail(found.user.email)));
    await revokeAllTokens(tx, found.user.id);
    await queueMail(tx, { causeKey: `reset-done:${found.id}`, userId: found.user.id, template: "password_reset" });
    return "done" as const;
  });
  if (outcome === "done") return;
  if (typeof outcome === "object") return refuseTooManyCodes(outcome.wait);
  return refuse(outcome);
}

/**
 * POST /api/auth/password: a signed-in member's new password, given the current one
 * (`checkCurrentPassword`). Every other session ends: the answer is the new session generation,
 * in which the caller's own session goes on with a new token. A notice is mailed.
 */
export async function changePassword(
  db: Db,
  hasher: PasswordHasher,
  userId: string,
  input: { currentPassword: string; newPassword: string },
  source: string,
  device?: TrustedDevice,
): Promise<string> {
  await checkCurrentPassword(db, hasher, userId, input.currentPassword, source, device);
  const passwordHash = await hasher.hash(input.newPassword);
  return inTransaction(db, async (tx) => {
    const changed = await tx
      .update(users)
      .set({ passwordHash })
      .where(and(eq(users.id, userId), isNull(users.deletedAt)))
      .returning({ id: users.id });
    if (changed.length === 0) return refuse("bad_token");
    const generation = await revokeAllTokens(tx, userId);
    await queueMail(tx, { causeKey: `password:${userId}:${generation}`, userId, template: "password_changed", data: { source } });
    return generation;
  });
}

/**
 * PUT /api/user/profile: the member's name, held to the sign-up's rules (`acceptableName`, which
 * refuses names that pass for staff). Answers the name as kept.
 */
export async function updateProfile(db: Db, userId: string, input: { name: string }): Promise<string> {
  const name = acceptableName(input.name);
  const changed = await db
    .update(users)
    .set({ name })
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .returning({ id: users.id });
  if (changed.length === 0) return refuse("bad_token");
  return name;
}

/**
 * POST /api/user/email: given the current password, mails a link to `newEmail`; the address
 * changes only when it is opened (`confirmEmail`). An address another account has is refused
 * now and again then. Each change asked spends the links of the ones before. Limited per member
 * (EMAIL_CHANGES_PER_HOUR): each mails an address the member typed.
 */
export async function requestEmailChange(
  db: Db,
  hasher: PasswordHasher,
  userId: string,
  input: { newEmail: string; password: string },
  source: string,
): Promise<void> {
  await checkCurrentPassword(db, hasher, userId, input.password, source);
  const hit = await takeHit(db, { bucket: "email_change", max: EMAIL_CHANGES_PER_HOUR, windowSeconds: HOUR_SECONDS }, userId, MSG.tooManyEmailChanges);
  try {
    await inTransaction(db, async (tx) => {
      const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
      if (!user) return refuse("bad_token");
      if (normalizeEmail(user.email) === normalizeEmail(input.newEmail)) return refuse("validation", MSG.sameEmail);
      if (await emailTaken(tx, input.newEmail, userId)) return refuse("email_taken");
      await spendTokens(tx, userId, "change_email");
      const { token, id } = await newAccountToken(tx, userId, "change_email", input.newEmail, EMAIL_TOKEN_HOURS * 3600);
      await queueMail(tx, { causeKey: `email-change:${id}`, userId, to: input.newEmail, template: "change_email", data: { token } });
    });
  } catch (error) {
    // Nothing was mailed: the request does not count.
    await hit.release();
    throw error;
  }
}

const emailTaken = async (tx: Tx, email: string, exceptUserId: string) =>
  (await tx.select({ id: users.id }).from(users).where(and(eq(sql`lower(${users.email})`, normalizeEmail(email)), ne(users.id, exceptUserId)))).length > 0;

/**
 * POST /api/auth/email/confirm: opens a confirmation link. A sign-up's (or "send again"'s)
 * confirms the address it was mailed to; an email change's makes its address the account's,
 * confirmed, unless another account took it meanwhile (`email_taken`), spends every other link
 * of the member (they went to the old address), and mails a notice to the old address.
 */
export async function confirmEmail(db: Db, token: string): Promise<{ msg: string; email: string }> {
  try {
    return await inTransaction(db, async (tx) => {
      const found = await liveToken(tx, token, ["verify_email", "change_email"]);
      if (!found) return refuse("token_invalid");
      const { user } = found;
      if (found.purpose === "verify_email") {
        await tx
          .update(users)
          .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` as unknown as Date })
          .where(eq(users.id, user.id));
        await spendTokens(tx, user.id, "verify_email");
        return { msg: MSG.emailConfirmed, email: user.email };
      }
      if (await emailTaken(tx, found.email, user.id)) return refuse("email_taken");
      await tx.update(users).set({ email: found.email, emailVerifiedAt: new Date() }).where(eq(users.id, user.id));
      await spendTokens(tx, user.id);
      await queueMail(tx, { causeKey: `email-changed:${found.id}`, userId: user.id, to: user.email, template: "email_changed", data: { newEmail: found.email } });
      return { msg: MSG.emailChanged(found.email), email: found.email };
    });
  } catch (error) {
    // Another account took the address between the look and the write: the unique index decides.
    if (isUniqueViolation(error, "users_email_lower_uq")) return refuse("email_taken");
    throw error;
  }
}

/**
 * POST /api/auth/email/verify/resend: a new confirmation link, limited per member
 * (VERIFICATION_MAILS_PER_HOUR). Answers what was done: an address already confirmed is mailed
 * nothing.
 */
export async function resendVerification(db: Db, userId: string): Promise<string> {
  const [user] = await db
    .select({ email: users.email, verified: sql<boolean>`${users.emailVerifiedAt} IS NOT NULL` })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));
  if (!user) return refuse("bad_token");
  if (user.verified) return MSG.alreadyVerified;
  await takeHit(db, { bucket: "verify_resend", max: VERIFICATION_MAILS_PER_HOUR, windowSeconds: HOUR_SECONDS }, userId, MSG.tooManyVerificationMails);
  await inTransaction(db, (tx) => queueVerification(tx, userId, user.email));
  return MSG.verificationSent;
}
