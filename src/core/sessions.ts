import { and, count, eq, gt, lt, min, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { loginFailures, revokedTokens, settings, users } from "../db/schema";
import { LOGIN_MAX_FAILURES, LOGIN_WINDOW_MINUTES } from "../shared/constants";
import { MSG } from "../shared/messages";
import { refuse } from "./errors";
import { inTransaction } from "./tx";
import { normalizeEmail } from "./util";

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, hash: string): Promise<boolean>;
}

/** argon2id; tests pass cheaper costs. */
export function argon2Hasher(cost: { memoryCost?: number; timeCost?: number } = {}): PasswordHasher {
  return {
    hash: (password) => Bun.password.hash(password, { algorithm: "argon2id", ...cost }),
    verify: (password, hash) => Bun.password.verify(password, hash),
  };
}

/** The JWT secret: from the environment, else generated once and kept in the database. */
export async function jwtSecret(db: Db, fromEnv?: string): Promise<string> {
  if (fromEnv) return fromEnv;
  const generated = Buffer.from(crypto.getRandomValues(new Uint8Array(48))).toString("base64url");
  await db.insert(settings).values({ key: "jwt_secret", value: generated }).onConflictDoNothing();
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, "jwt_secret"));
  return row!.value;
}

/** What a session token says (signed and read by server/tokens.ts); revocation works on it here. */
export interface TokenClaims {
  sub: string;
  jti: string;
  exp: number;
}

/** The user a token speaks for, when the token is not revoked and the user not deleted. */
export async function tokenUser(db: Db, claims: TokenClaims) {
  const [row] = await db
    .select({ id: users.id, role: users.role, revoked: sql<boolean>`EXISTS (SELECT 1 FROM revoked_tokens WHERE jti = ${claims.jti})` })
    .from(users)
    .where(and(eq(users.id, claims.sub), sql`${users.deletedAt} IS NULL`));
  return row && !row.revoked ? { id: row.id, role: row.role } : null;
}

export async function revokeToken(db: Db, claims: TokenClaims): Promise<void> {
  await db.insert(revokedTokens).values({ jti: claims.jti, expiresAt: new Date(claims.exp * 1000) }).onConflictDoNothing();
  // Expired entries can go: an expired token is refused anyway.
  await db.delete(revokedTokens).where(lt(revokedTokens.expiresAt, new Date()));
}

/**
 * A hash for unknown emails to be checked against, made by the same hasher (so with the same
 * costs) as real ones: otherwise the quicker refusal tells which emails have an account.
 */
const dummyHashes = new WeakMap<PasswordHasher, Promise<string>>();
function dummyHash(hasher: PasswordHasher): Promise<string> {
  let hash = dummyHashes.get(hasher);
  if (!hash) dummyHashes.set(hasher, (hash = hasher.hash(crypto.randomUUID())));
  return hash;
}

/**
 * Checks an email and password. Ten failures for one email within 15 minutes lock that
 * email out until the oldest of them is 15 minutes old.
 *
 * The attempt is recorded as a failure before the password is checked (and forgotten if it
 * succeeds), under a lock on the user's row: parallel guesses then count each other, instead of
 * all passing the check while none has failed yet.
 */
export async function login(db: Db, hasher: PasswordHasher, email: string, password: string): Promise<string> {
  const key = normalizeEmail(email);
  const windowStart = new Date(Date.now() - LOGIN_WINDOW_MINUTES * 60_000);
  const claim = await inTransaction(db, async (tx) => {
    const [user] = await tx
      .select({ id: users.id, passwordHash: users.passwordHash })
      .from(users)
      .where(and(eq(sql`lower(${users.email})`, key), sql`${users.deletedAt} IS NULL`))
      .for("no key update");
    const [recent] = await tx
      .select({ n: count(), oldest: min(loginFailures.createdAt) })
      .from(loginFailures)
      .where(and(eq(loginFailures.email, key), gt(loginFailures.createdAt, windowStart)));
    if (recent && recent.n >= LOGIN_MAX_FAILURES && recent.oldest) {
      return { retryAt: new Date(recent.oldest).getTime() + LOGIN_WINDOW_MINUTES * 60_000 };
    }
    const [attempt] = await tx.insert(loginFailures).values({ email: key }).returning({ id: loginFailures.id });
    return { user, attemptId: attempt!.id };
  });
  if (claim.retryAt !== undefined) {
    return refuse("throttled", MSG.tooManyLogins(Math.max(1, Math.ceil((claim.retryAt - Date.now()) / 60_000))));
  }
  const { user, attemptId } = claim;
  // Verify against a dummy hash for unknown emails so both answers take as long.
  const ok = await hasher.verify(password, user?.passwordHash ?? (await dummyHash(hasher)));
  if (!user || !ok) {
    await db.delete(loginFailures).where(lt(loginFailures.createdAt, windowStart));
    return refuse("invalid_credentials");
  }
  await db.delete(loginFailures).where(eq(loginFailures.id, attemptId));
  return user.id;
}
