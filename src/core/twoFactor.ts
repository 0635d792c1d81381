import { and, count, eq, isNull, lt, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import type { Db, Tx } from "../db/client";
import { loginTickets, recoveryCodes, twoFactor, users } from "../db/schema";
import { refuse } from "./errors";
import { queueMail } from "./mail/outbox";
import { type LoginUser, recordLoginFailure, refuseThrottledLogin, revokeAllTokens, secondStepWait, type TrustedDevice } from "./sessions";
import { addHit, minutesOf, recentHits, secondsInterval } from "./throttle";
import { inTransaction } from "./tx";
import { MSG } from "../shared/messages";

/**
 * The second factor: TOTP (RFC 6238: 6 digits, 30-second steps, SHA-1, what every
 * authenticator app reads from the QR code) and ten one-time recovery codes.
 *
 * - Set-up: `beginSetup` offers a new secret (kept as `pending_secret`); `enable` turns it on
 *   once the member types a code it makes, and answers the recovery codes, shown that once and
 *   stored hashed.
 * - Login: with 2FA on, a right password answers a ticket instead of a token (`startLogin`):
 *   random, stored hashed, good for TICKET_TTL_SECONDS, used once. `finishLogin` takes the
 *   ticket and a code: a TOTP code of a time step later than the last one accepted (a code is
 *   good once, whoever saw it), or an unused recovery code. TICKET_MAX_FAILURES wrong codes
 *   spend the ticket, and every wrong code counts as a failed login of the pair (email, source),
 *   so getting new tickets again and again meets the same growing delays as guessing passwords.
 * - Wrong codes typed by a signed-in member (enable, disable) are limited per member too.
 *
 * Everything is in the database, so any server process can take any step.
 */

const ISSUER = "Matrix USDT";
const PERIOD_SECONDS = 30;
/** Codes of the step before and after are accepted too: clocks and typing take time. */
const WINDOW_STEPS = 1;
export const TICKET_TTL_SECONDS = 5 * 60;
export const TICKET_MAX_FAILURES = 3;
export const RECOVERY_CODE_COUNT = 10;
/** Wrong codes a signed-in member may type (enable, disable) within CODE_WINDOW_SECONDS. */
const CODE_MAX_FAILURES = 5;
const CODE_WINDOW_SECONDS = 15 * 60;
const CODE_BUCKET = "two_factor_code";

const totp = (secret: string, label = "") =>
  new TOTP({ issuer: ISSUER, label, algorithm: "SHA1", digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(secret) });

/** The time step of a code `secret` makes around `now`, or null when it makes no such code. */
function stepOf(secret: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secret).validate({ token: code, timestamp: now, window: WINDOW_STEPS });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
}

const sha256 = (text: string) => new Bun.CryptoHasher("sha256").update(text).digest("hex");

/** A recovery code as compared: lower case, letters and digits only ("ABCD-efgh..." = "abcdefgh..."). */
const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, "");
/**
 * Recovery codes carry 80 random bits, far beyond guessing or brute-forcing a leaked hash, so
 * one SHA-256 (with the user's id) keeps them as well as a slow hash would, and checking one
 * does not take ten argon2 runs.
 */
const recoveryHash = (userId: string, code: string) => sha256(`${userId}:${normalizeRecoveryCode(code)}`);

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";
/** 16 characters of base32 (80 bits), shown as four groups: "k7pq-2mxa-...". */
function newRecoveryCode(): string {
  const chars = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => BASE32[b % 32]).join("");
  return chars.match(/.{4}/g)!.join("-");
}

/**
 * Takes a code, TOTP or recovery, for `userId` whose enabled secret is `secret`: true when it is
 * good, and then it is used up (the TOTP step is remembered, the recovery code marked used).
 * Both are conditional updates, so two requests with the same code cannot both pass.
 */
async function useCode(tx: Tx | Db, userId: string, secret: string, code: string): Promise<boolean> {
  const step = stepOf(secret, code);
  if (step !== null) {
    const taken = await tx
      .update(twoFactor)
      .set({ lastStep: step })
      .where(and(eq(twoFactor.userId, userId), sql`${twoFactor.secret} IS NOT NULL`, sql`(${twoFactor.lastStep} IS NULL OR ${twoFactor.lastStep} < ${step})`))
      .returning({ userId: twoFactor.userId });
    return taken.length > 0;
  }
  if (normalizeRecoveryCode(code).length !== 16) return false;
  const used = await tx
    .update(recoveryCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, recoveryHash(userId, code)), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return used.length > 0;
}

/**
 * Whether the member typed too many wrong codes lately (to turn the second factor on or off).
 * Asked inside the transaction that checks the code, after its lock on the member's
 * `two_factor` row, and each wrong code is recorded in that transaction: parallel attempts wait
 * for each other and count each other, so no more than CODE_MAX_FAILURES are ever checked.
 */
async function tooManyCodes(tx: Tx, userId: string): Promise<{ wait: number } | null> {
  const { n, retryAfter } = await recentHits(tx, CODE_BUCKET, userId, CODE_WINDOW_SECONDS);
  return n >= CODE_MAX_FAILURES ? { wait: retryAfter } : null;
}

/** The refusal of a code attempt past the limit (`tooManyCodes`): until the oldest wrong code of the window leaves it. */
const refuseCodeAttempt = (wait: number): never => refuse("throttled", MSG.tooManyCodes(minutesOf(wait)), wait);

export interface TwoFactorStatus {
  enabled: boolean;
  recoveryCodesLeft: number;
}

/** Whether the user's second factor is on: one look-up by primary key (requireUser asks it of admins when ADMIN_REQUIRE_2FA is on). */
export async function twoFactorOn(db: Db, userId: string): Promise<boolean> {
  const [row] = await db.select({ on: sql<boolean>`${twoFactor.secret} IS NOT NULL` }).from(twoFactor).where(eq(twoFactor.userId, userId));
  return row?.on === true;
}

export async function twoFactorStatus(db: Db, userId: string): Promise<TwoFactorStatus> {
  const enabled = await twoFactorOn(db, userId);
  const [left] = await db.select({ n: count() }).from(recoveryCodes).where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return { enabled, recoveryCodesLeft: enabled ? (left?.n ?? 0) : 0 };
}

/** Offers a new secret for the member's authenticator app (any earlier offer is replaced). */
export async function beginSetup(db: Db, userId: string): Promise<{ secret: string; otpauthUrl: string }> {
  const secret = new Secret({ size: 20 }).base32;
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  const offered = await db
    .insert(twoFactor)
    .values({ userId, pendingSecret: secret })
    .onConflictDoUpdate({ target: twoFactor.userId, set: { pendingSecret: secret }, setWhere: sql`${twoFactor.secret} IS NULL` })
    .returning({ userId: twoFactor.userId });
  if (offered.length === 0) refuse("two_factor_already_enabled");
  return { secret, otpauthUrl: totp(secret, user?.email ?? userId).toString() };
}

/**
 * Turns the offered secret on, given a code it makes now, and answers ten new recovery codes
 * (only their hashes are kept: this is the one time they are seen). Every session of the member
 * ends (a new session generation, answered: the caller's own goes on with a token made in it),
 * and a security mail says so, in the same transaction.
 */
export async function enable(db: Db, userId: string, code: string): Promise<{ recoveryCodes: string[]; generation: string }> {
  const outcome = await inTransaction(db, async (tx) => {
    const [row] = await tx.select().from(twoFactor).where(eq(twoFactor.userId, userId)).for("update");
    if (row?.secret) return "two_factor_already_enabled" as const;
    if (!row?.pendingSecret) return "two_factor_not_set_up" as const;
    const throttled = await tooManyCodes(tx, userId);
    if (throttled) return throttled;
    const step = stepOf(row.pendingSecret, code.trim());
    if (step === null) {
      await addHit(tx, CODE_BUCKET, userId);
      return "two_factor_invalid" as const;
    }
    await tx
      .update(twoFactor)
      .set({ secret: row.pendingSecret, pendingSecret: null, enabledAt: new Date(), lastStep: step })
      .where(eq(twoFactor.userId, userId));
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx.insert(recoveryCodes).values(codes.map((c) => ({ userId, codeHash: recoveryHash(userId, c) })));
    const generation = await revokeAllTokens(tx, userId);
    await queueMail(tx, { causeKey: `2fa-on:${userId}:${generation}`, userId, template: "two_factor_on" });
    return { recoveryCodes: codes, generation };
  });
  if (typeof outcome === "string") return refuse(outcome);
  if ("wait" in outcome) return refuseCodeAttempt(outcome.wait);
  return outcome;
}

/** Turns the second factor off, given a good code (TOTP or recovery); the recovery codes go too, and a security mail says so. */
export async function disable(db: Db, userId: string, code: string): Promise<void> {
  const outcome = await inTransaction(db, async (tx) => {
    const [row] = await tx.select({ secret: twoFactor.secret }).from(twoFactor).where(eq(twoFactor.userId, userId)).for("update");
    if (!row?.secret) return "two_factor_not_enabled" as const;
    const throttled = await tooManyCodes(tx, userId);
    if (throttled) return throttled;
    if (!(await useCode(tx, userId, row.secret, code.trim()))) {
      await addHit(tx, CODE_BUCKET, userId);
      return "two_factor_invalid" as const;
    }
    await tx.delete(twoFactor).where(eq(twoFactor.userId, userId));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await queueMail(tx, { causeKey: `2fa-off:${userId}:${crypto.randomUUID()}`, userId, template: "two_factor_off" });
    return "done" as const;
  });
  if (outcome === "done") return;
  if (typeof outcome === "object" && "wait" in outcome) return refuseCodeAttempt(outcome.wait);
  refuse(outcome);
}

/**
 * A password reset's proof of the second factor (src/core/account.ts), inside its transaction:
 * "off" when the member has none, "ok" when `code` (TOTP or recovery) is good and now used up,
 * else "missing", "invalid" (recorded against the member's wrong codes, which it waits for as
 * enable and disable do: `{ wait }`). Locks the member's two_factor row, as disable does.
 */
export async function proveSecondFactor(tx: Tx, userId: string, code: string | undefined): Promise<"off" | "ok" | "missing" | "invalid" | { wait: number }> {
  const [row] = await tx.select({ secret: twoFactor.secret }).from(twoFactor).where(eq(twoFactor.userId, userId)).for("update");
  if (!row?.secret) return "off";
  if (code === undefined || code.trim() === "") return "missing";
  const throttled = await tooManyCodes(tx, userId);
  if (throttled) return throttled;
  if (await useCode(tx, userId, row.secret, code.trim())) return "ok";
  await addHit(tx, CODE_BUCKET, userId);
  return "invalid";
}

/** The refusal of a wrong code past the member's limit (`proveSecondFactor`'s `{ wait }`). */
export const refuseTooManyCodes = (wait: number): never => refuseCodeAttempt(wait);

/**
 * After a right password (`login`): a ticket for the second step when the user's 2FA is on, else
 * null (the caller answers a token as it always did). The user's row is held (shared) while the
 * ticket is written, so a sign-out everywhere (`revokeAllTokens`) either committed first, and the
 * password checked belongs to an ended session generation ("invalid_credentials": the admin
 * password reset changed it), or comes after and deletes this ticket with the others.
 */
export async function startLogin(db: Db, user: LoginUser): Promise<string | null> {
  return inTransaction(db, async (tx) => {
    const [row] = await tx
      .select({ generation: users.sessionGeneration, secret: twoFactor.secret })
      .from(users)
      .leftJoin(twoFactor, eq(twoFactor.userId, users.id))
      .where(and(eq(users.id, user.id), isNull(users.deletedAt)))
      .for("share", { of: users });
    if (!row || (row.generation ?? undefined) !== user.generation) return refuse("invalid_credentials");
    if (!row.secret) return null;
    const ticket = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
    await tx.insert(loginTickets).values({
      id: sha256(ticket),
      userId: user.id,
      expiresAt: sql`now() + ${secondsInterval(TICKET_TTL_SECONDS)}` as unknown as Date,
    });
    // About one login in fifty sweeps the tickets of yesterday.
    if (Math.random() < 0.02) await tx.delete(loginTickets).where(lt(loginTickets.expiresAt, sql`now() - interval '1 day'`));
    return ticket;
  });
}

/**
 * The second step of a login: the ticket `startLogin` gave and a code, from `source` (and, when
 * the caller's device is trusted, `device`). Answers the user and their session generation, read
 * under the lock on their row (the caller makes the token in it: `LoginUser`),
 * or refuses: "login_ticket_invalid" for a ticket that is unknown, expired, used or spent,
 * "two_factor_invalid" for a wrong, replayed or used code, "throttled" when the attempts at the
 * user's email must wait (each wrong code is a failed login of the pair, with the password's
 * delays: `secondStepWait`), before the code is looked at. So tickets taken in advance buy no
 * guesses beyond the delays.
 */
export async function finishLogin(db: Db, ticket: string, code: string, source: string, device?: TrustedDevice): Promise<LoginUser> {
  type Outcome = { user: LoginUser } | { refused: "login_ticket_invalid" | "two_factor_invalid" } | { wait: number };
  const id = sha256(ticket);
  const outcome = await inTransaction(db, async (tx): Promise<Outcome> => {
    const [owner] = await tx.select({ userId: loginTickets.userId }).from(loginTickets).where(eq(loginTickets.id, id));
    if (!owner) return { refused: "login_ticket_invalid" };
    // The user's row first (the lock order of login and revokeAllTokens), then the ticket's.
    const wait = await secondStepWait(tx, owner.userId, source, device);
    if (wait > 0) return { wait };
    const [row] = await tx
      .select({
        userId: loginTickets.userId,
        failures: loginTickets.failures,
        live: sql<boolean>`(${loginTickets.expiresAt} > now() AND ${loginTickets.usedAt} IS NULL)`,
        email: users.email,
        generation: users.sessionGeneration,
        deleted: sql<boolean>`(${users.deletedAt} IS NOT NULL)`,
        secret: twoFactor.secret,
      })
      .from(loginTickets)
      .innerJoin(users, eq(users.id, loginTickets.userId))
      .leftJoin(twoFactor, eq(twoFactor.userId, loginTickets.userId))
      .where(eq(loginTickets.id, id))
      .for("update", { of: loginTickets });
    if (!row || !row.live || row.deleted || !row.secret) return { refused: "login_ticket_invalid" };
    if (await useCode(tx, row.userId, row.secret, code.trim())) {
      await tx.update(loginTickets).set({ usedAt: new Date() }).where(eq(loginTickets.id, id));
      return { user: { id: row.userId, generation: row.generation ?? undefined } };
    }
    const failures = row.failures + 1;
    await tx
      .update(loginTickets)
      .set({ failures, ...(failures >= TICKET_MAX_FAILURES ? { usedAt: new Date() } : {}) })
      .where(eq(loginTickets.id, id));
    await recordLoginFailure(tx, row.email, source);
    return { refused: "two_factor_invalid" };
  });
  if ("wait" in outcome) return refuseThrottledLogin(outcome.wait);
  if ("refused" in outcome) return refuse(outcome.refused);
  return outcome.user;
}
