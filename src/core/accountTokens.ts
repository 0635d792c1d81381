import { and, eq, isNull, lt, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { accountTokens, type AccountTokenPurpose, users } from "../db/schema";
import { queueMail } from "./mail/outbox";
import { EMAIL_TOKEN_HOURS } from "./mail/templates";
import { secondsInterval } from "./throttle";
import { normalizeEmail } from "./util";

/**
 * The links mailed to members (docs/rules.md#account-recovery-and-mail): a token of 256 random
 * bits, of which only the SHA-256 is kept (`account_tokens`) with the address it was mailed to.
 * Good once, until it expires, and (but for an email change's, whose address is the new one)
 * only while the account still has that address.
 */

const sha256 = (text: string) => new Bun.CryptoHasher("sha256").update(text).digest("hex");
export const newToken = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");

/** The token's key as kept: its hash, so the table's rows open nothing. */
export const tokenKey = (token: string) => sha256(token);

/** Writes a link's token for `email`, good for `seconds`; answers the token (for the mail) and its key. */
export async function newAccountToken(tx: Tx, userId: string, purpose: AccountTokenPurpose, email: string, seconds: number) {
  const token = newToken();
  const id = tokenKey(token);
  await tx.insert(accountTokens).values({ id, userId, purpose, email, expiresAt: sql`now() + ${secondsInterval(seconds)}` as unknown as Date });
  // About one link in fifty sweeps those that ended a day ago.
  if (Math.random() < 0.02) await tx.delete(accountTokens).where(lt(accountTokens.expiresAt, sql`now() - interval '1 day'`));
  return { token, id };
}

/** Spends the member's links of `purpose` (all of them when none is named) not used yet. */
export async function spendTokens(tx: Tx, userId: string, purpose?: AccountTokenPurpose) {
  await tx
    .update(accountTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(accountTokens.userId, userId), isNull(accountTokens.usedAt), purpose ? eq(accountTokens.purpose, purpose) : undefined));
}

/**
 * A live token of `purposes` and its member, both rows locked (the member's first, as every
 * change of a users row here), or nothing: unknown, expired, used, the member deleted, or (for
 * any purpose but an email change, whose address is the new one) mailed to an address the
 * account no longer has.
 */
export async function liveToken(tx: Tx, token: string, purposes: AccountTokenPurpose[]) {
  const id = tokenKey(token);
  const [owner] = await tx.select({ userId: accountTokens.userId }).from(accountTokens).where(eq(accountTokens.id, id));
  if (!owner) return undefined;
  const [user] = await tx
    .select({ id: users.id, email: users.email, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, owner.userId))
    .for("no key update");
  const [row] = await tx
    .select({
      purpose: accountTokens.purpose,
      email: accountTokens.email,
      live: sql<boolean>`(${accountTokens.expiresAt} > now() AND ${accountTokens.usedAt} IS NULL)`,
    })
    .from(accountTokens)
    .where(eq(accountTokens.id, id))
    .for("update");
  if (!user || user.deletedAt || !row?.live || !purposes.includes(row.purpose)) return undefined;
  if (row.purpose !== "change_email" && normalizeEmail(row.email) !== normalizeEmail(user.email)) return undefined;
  return { id, user, purpose: row.purpose, email: row.email };
}

/**
 * Mails the member a link that confirms their current address: at sign-up (in its transaction)
 * and when they ask again (`resendVerification`).
 */
export async function queueVerification(tx: Tx, userId: string, email: string): Promise<void> {
  const { token, id } = await newAccountToken(tx, userId, "verify_email", email, EMAIL_TOKEN_HOURS * 3600);
  await queueMail(tx, { causeKey: `verify:${id}`, userId, template: "verify_email", data: { token } });
}

/** Whether the member confirmed their address (VERIFIED_EMAIL_TO_WITHDRAW). */
export async function emailVerified(db: Db | Tx, userId: string): Promise<boolean> {
  const [row] = await db.select({ verified: sql<boolean>`${users.emailVerifiedAt} IS NOT NULL` }).from(users).where(eq(users.id, userId));
  return row?.verified === true;
}
