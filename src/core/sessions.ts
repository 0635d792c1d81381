import { and, asc, eq, isNull, lt, or, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { loginFailures, loginTickets, recoveryCodes, revokedTokens, settings, twoFactor, users } from "../db/schema";
import { signalStreamsClosed } from "./notifications";
import {
  type Role,
  LOGIN_EMAIL_FREE_FAILURES,
  LOGIN_EMAIL_MAX_DELAY_SECONDS,
  LOGIN_PAIR_FREE_FAILURES,
  LOGIN_SOURCE_FREE_FAILURES,
  LOGIN_WINDOW_MINUTES,
} from "../shared/constants";
import { MSG } from "../shared/messages";
import { refuse } from "./errors";
import { minutesOf, secondsInterval } from "./throttle";
import { pairsAtOnce } from "./prepared";
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

/**
 * At most `concurrency` hashes and checks at once, at most `queue` more waiting for a turn; past
 * that the call is refused at once with "busy" (429), instead of every sign-in waiting behind a
 * flood of them. argon2 is meant to be slow and memory-hungry: unbounded, a burst of logins or
 * sign-ups would take every core and all the memory, and everyone's answer would take as long.
 *
 * This counts what one process is doing with its own CPU, so it lives in that process's memory;
 * nothing another process needs is kept here.
 */
export function boundedHasher(inner: PasswordHasher, limits: { concurrency: number; queue: number }): PasswordHasher {
  let running = 0;
  const waiting: (() => void)[] = [];
  async function inTurn<T>(work: () => Promise<T>): Promise<T> {
    if (running < limits.concurrency) running++;
    else if (waiting.length >= limits.queue) return refuse("busy", undefined, 1);
    // A finished call hands its place straight to the first in line, so `running` stays as is.
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  }
  return {
    hash: (password) => inTurn(() => inner.hash(password)),
    verify: (password, hash) => inTurn(() => inner.verify(password, hash)),
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
  /** The user's session generation when the token was made (see `revokeAllTokens`); absent before any. */
  gen?: string;
}

/**
 * Who a login is for: the user, and the session generation (users.session_generation; undefined
 * while none was started) read together with the password hash it was checked against. The
 * token and the trusted-device cookie are made in that generation, never in one read later: a
 * sign-out everywhere (`revokeAllTokens`, which starts a new generation) that commits while the
 * password is being checked then ends this login's token too, instead of a login with the old
 * password getting a token of the new generation.
 */
export interface LoginUser {
  id: string;
  generation: string | undefined;
}

/**
 * Signs the user out everywhere: every token made before this call stops working, and so does
 * every login ticket (a right password still waiting for its second factor: a token half made).
 */
export async function revokeAllTokens(db: Db, userId: string): Promise<string> {
  const generation = crypto.randomUUID();
  await db.update(users).set({ sessionGeneration: generation }).where(eq(users.id, userId));
  await db.delete(loginTickets).where(eq(loginTickets.userId, userId));
  // Every open stream of the user ends too (at commit when `db` is a transaction).
  await signalStreamsClosed(db, userId);
  // The caller may make a token in it (a password change keeps its own session: src/core/account.ts).
  return generation;
}

export interface TokenUser {
  id: string;
  role: Role;
}

/** What the database says about a token's user, read in the same statement as the user (see `tokenVerdict`). */
export interface TokenRow {
  id: string;
  role: Role;
  /** Whether the token's jti is in revoked_tokens. */
  revoked: boolean;
  /** The user's current session generation; null while none was started. */
  generation: string | null;
}

/** SQL: whether the token whose jti is `jti` (a placeholder, a column, an expression) was revoked. */
export const tokenRevoked = (jti: SQLWrapper) => sql<boolean>`EXISTS (SELECT 1 FROM revoked_tokens WHERE jti = ${jti})`;

/**
 * The rule of a token, given what the database holds about its user (null: no such user, or
 * deleted): good when not revoked and of the user's current session generation.
 */
export function tokenVerdict(row: TokenRow | undefined, claims: TokenClaims): TokenUser | null {
  if (!row || row.revoked) return null;
  if (row.generation !== null && row.generation !== claims.gen) return null;
  return { id: row.id, role: row.role };
}

/**
 * The token's user for a [user id, token id] pair: the user (not deleted) with the token's
 * revocation and the user's session generation; none when the user is gone or deleted. The checks
 * of requests that come while two token statements are running go together in the next one
 * (`pairsAtOnce`): every signed-in request makes one, and a statement for a few tokens costs
 * Postgres and the driver little more than one for one.
 */
const tokenRow = pairsAtOnce<TokenRow>(
  "token_users",
  sql`SELECT ${users.id} AS id, ${users.role} AS role, ${tokenRevoked(sql`ask.pair->>1`)} AS revoked, ${users.sessionGeneration} AS generation
    FROM ${users}
    WHERE ${users.id} = ask.pair->>0 AND ${users.deletedAt} IS NULL`,
);

/**
 * The user a token speaks for, when the token is not revoked and the user not deleted. One round
 * trip, shared with the checks of the requests that came while the token statements were busy.
 */
export async function tokenUser(db: Db, claims: TokenClaims): Promise<TokenUser | null> {
  return tokenVerdict(await tokenRow(db)([claims.sub, claims.jti]), claims);
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
  if (!hash) {
    dummyHashes.set(hasher, (hash = hasher.hash(crypto.randomUUID())));
    // A refused first try (the hasher was busy) is not kept: the next call makes it again.
    hash.catch(() => dummyHashes.delete(hasher));
  }
  return hash;
}

/** Where a login attempt comes from when the server cannot tell (no socket: tests, app.request()). */
export const UNKNOWN_SOURCE = "unknown";

/**
 * Seconds an attempt from one (email, source address) waits after that pair's last failure,
 * when the pair has `failures` within the window: nothing for the first few, then 1 s, doubling
 * with each failure, at most the window itself.
 */
export function pairDelaySeconds(failures: number): number {
  if (failures < LOGIN_PAIR_FREE_FAILURES) return 0;
  return Math.min(2 ** (failures - LOGIN_PAIR_FREE_FAILURES), LOGIN_WINDOW_MINUTES * 60);
}

/**
 * Seconds any attempt at one email waits after that email's last failure, when it has
 * `failures` within the window from all sources together: nothing up to a number that one
 * source alone cannot reach (its own delays stop it first), then 1 s, doubling, and never more
 * than a few minutes. Many sources guessing together are slowed to a crawl; the owner, from
 * anywhere, waits at most that long.
 */
export function emailDelaySeconds(failures: number): number {
  if (failures < LOGIN_EMAIL_FREE_FAILURES) return 0;
  return Math.min(2 ** (failures - LOGIN_EMAIL_FREE_FAILURES), LOGIN_EMAIL_MAX_DELAY_SECONDS);
}

/**
 * Seconds any attempt from one source address waits after that source's last failure, when it
 * has `failures` within the window at any emails together: nothing for what an office behind one
 * address types wrong, then 1 s, doubling, never more than a few minutes. One password tried on
 * many accounts from one address (spraying) slows to a crawl.
 */
export function sourceDelaySeconds(failures: number): number {
  if (failures < LOGIN_SOURCE_FREE_FAILURES) return 0;
  return Math.min(2 ** (failures - LOGIN_SOURCE_FREE_FAILURES), LOGIN_EMAIL_MAX_DELAY_SECONDS);
}

/** Records one failed attempt at `email` from `source` (a wrong password, or a wrong second factor). */
export async function recordLoginFailure(db: Db, email: string, source: string): Promise<void> {
  await db.insert(loginFailures).values({ email: normalizeEmail(email), source });
}

/**
 * A device trusted for a user (src/server/deviceTrust.ts): the user's id and the session
 * generation they were in when it signed in. It stands only while the user is still in that
 * generation: an admin password reset (`revokeAllTokens`) un-trusts every browser of before.
 */
export interface TrustedDevice {
  userId: string;
  generation: string;
}

/** Whether `device` is trusted for `user` now: the same user, still in the generation it signed in to. */
const trustedFor = (user: { id: string; sessionGeneration: string | null } | undefined, device: TrustedDevice | undefined) =>
  user !== undefined && device !== undefined && user.id === device.userId && (user.sessionGeneration ?? "") === device.generation;

/**
 * Seconds an attempt at `email` (normalized) from `source` must still wait, from the failures
 * of the window (`pairDelaySeconds`, `emailDelaySeconds`, `sourceDelaySeconds`); 0 when it may
 * go. A trusted device meets only its pair's delays. Read under the lock on the user's row that
 * every attempt takes, so that parallel attempts at one email count each other (attempts at
 * other emails from the source are bounded by LOGIN_CHECKS_PER_SOURCE). An unknown source (no
 * address: tests through app.request) is no address to slow down. Time is the database's.
 */
async function loginWait(tx: Tx, email: string, source: string, trusted: boolean): Promise<number> {
  const ofEmail = sql`${loginFailures.email} = ${email}`;
  const ofSource = sql`${loginFailures.source} = ${source}`;
  const ofPair = sql`${ofEmail} AND ${ofSource}`;
  const failures = (which: SQL) => sql<number>`count(*) FILTER (WHERE ${which})`.mapWith(Number);
  // Seconds since the last of them. clock_timestamp(), not now(): a transaction that waited for
  // the lock started before the failure it now sees was recorded.
  const since = (which: SQL) =>
    sql<number>`coalesce(extract(epoch from clock_timestamp() - max(${loginFailures.createdAt}) FILTER (WHERE ${which})), 0)`.mapWith(Number);
  const [recent] = await tx
    .select({
      pair: failures(ofPair),
      pairSince: since(ofPair),
      all: failures(ofEmail),
      allSince: since(ofEmail),
      fromSource: failures(ofSource),
      sourceSince: since(ofSource),
    })
    .from(loginFailures)
    .where(and(or(ofEmail, ofSource), sql`${loginFailures.createdAt} > now() - ${secondsInterval(LOGIN_WINDOW_MINUTES * 60)}`));
  const waitFor = (delay: number, since: number) => (delay > 0 ? delay - Math.max(0, since) : 0);
  const pairWait = waitFor(pairDelaySeconds(recent?.pair ?? 0), recent?.pairSince ?? 0);
  if (trusted) return pairWait;
  return Math.max(
    pairWait,
    waitFor(emailDelaySeconds(recent?.all ?? 0), recent?.allSince ?? 0),
    source === UNKNOWN_SOURCE ? 0 : waitFor(sourceDelaySeconds(recent?.fromSource ?? 0), recent?.sourceSince ?? 0),
  );
}

/** Refuses an attempt that must still wait `seconds`, with "throttled" and the seconds to wait. */
export function refuseThrottledLogin(seconds: number): never {
  const wait = Math.ceil(seconds);
  return refuse("throttled", MSG.tooManyLogins(minutesOf(wait)), wait);
}

/**
 * Checks an email and password, coming from `source` (the caller's address). Failures slow
 * down, with growing delays, the pair (email, source) they came from, so somebody guessing from
 * one address never keeps the owner out from another; all failures of the email together,
 * from however many addresses, slow down every attempt at it, but never by more than a few
 * minutes (`pairDelaySeconds`, `emailDelaySeconds`). A throttled attempt is refused with
 * "throttled" and the seconds to wait, before the password is looked at. An attempt from a device
 * trusted for the email's user (`device`: it signed in to that account before, in the user's
 * current session generation, src/server/deviceTrust.ts) meets only its pair's delays, so that
 * failures made elsewhere never keep the owner out of a browser they used before.
 *
 * The attempt is recorded as a failure before the password is checked (and forgotten if it
 * succeeds), under a lock on the user's row: parallel guesses then count each other, instead of
 * all passing the check while none has failed yet. The second factor's codes count as attempts
 * of the same kind (`finishLogin`, src/core/twoFactor.ts).
 */
export async function login(
  db: Db,
  hasher: PasswordHasher,
  email: string,
  password: string,
  source: string = UNKNOWN_SOURCE,
  device?: TrustedDevice,
): Promise<LoginUser> {
  const key = normalizeEmail(email);
  const claim = await inTransaction(db, async (tx) => {
    const [user] = await tx
      .select({ id: users.id, passwordHash: users.passwordHash, sessionGeneration: users.sessionGeneration })
      .from(users)
      .where(and(eq(sql`lower(${users.email})`, key), sql`${users.deletedAt} IS NULL`))
      .for("no key update");
    const wait = await loginWait(tx, key, source, trustedFor(user, device));
    if (wait > 0) return { wait };
    const [attempt] = await tx.insert(loginFailures).values({ email: key, source }).returning({ id: loginFailures.id });
    return { user, attemptId: attempt!.id };
  });
  if (claim.wait !== undefined) return refuseThrottledLogin(claim.wait);
  const { user, attemptId } = claim;
  let ok: boolean;
  try {
    // Verify against a dummy hash for unknown emails so both answers take as long.
    ok = await hasher.verify(password, user?.passwordHash ?? (await dummyHash(hasher)));
  } catch (error) {
    // Not checked (the hasher was busy): not a failure either.
    await db.delete(loginFailures).where(eq(loginFailures.id, attemptId));
    throw error;
  }
  if (!user || !ok) {
    await db.delete(loginFailures).where(sql`${loginFailures.createdAt} < now() - ${secondsInterval(LOGIN_WINDOW_MINUTES * 60)}`);
    return refuse("invalid_credentials");
  }
  await db.delete(loginFailures).where(eq(loginFailures.id, attemptId));
  return { id: user.id, generation: user.sessionGeneration ?? undefined };
}

/**
 * The proof of the password a signed-in member gives before what could lock them out of the
 * account (a new password or email, two-factor on or off: src/core/account.ts): the same check,
 * throttle and failure record as `login`'s for the member's email from `source`, so a stolen
 * session token buys no more guesses than the login form. A wrong password is refused with
 * "wrong_password" (400: the session itself is fine, and a 401 would sign the member out).
 */
export async function checkCurrentPassword(
  db: Db,
  hasher: PasswordHasher,
  userId: string,
  password: string,
  source: string = UNKNOWN_SOURCE,
  device?: TrustedDevice,
): Promise<void> {
  type Claim = { gone: true } | { wait: number } | { hash: string; attemptId: bigint };
  const claim = await inTransaction(db, async (tx): Promise<Claim> => {
    const [user] = await tx
      .select({ id: users.id, email: users.email, passwordHash: users.passwordHash, sessionGeneration: users.sessionGeneration })
      .from(users)
      .where(and(eq(users.id, userId), isNull(users.deletedAt)))
      .for("no key update");
    if (!user) return { gone: true };
    const key = normalizeEmail(user.email);
    const wait = await loginWait(tx, key, source, trustedFor(user, device));
    if (wait > 0) return { wait };
    const [attempt] = await tx.insert(loginFailures).values({ email: key, source }).returning({ id: loginFailures.id });
    return { hash: user.passwordHash, attemptId: attempt!.id };
  });
  if ("gone" in claim) return refuse("bad_token");
  if ("wait" in claim) return refuseThrottledLogin(claim.wait);
  let ok: boolean;
  try {
    ok = await hasher.verify(password, claim.hash);
  } catch (error) {
    // Not checked (the hasher was busy): not a failure either.
    await db.delete(loginFailures).where(eq(loginFailures.id, claim.attemptId));
    throw error;
  }
  if (!ok) return refuse("wrong_password");
  await db.delete(loginFailures).where(eq(loginFailures.id, claim.attemptId));
}

/**
 * The second step's counterpart of `login`'s throttle, inside the transaction that checks a
 * code: locks the user's row as `login` does (so that parallel codes and passwords count each
 * other), then answers the seconds the attempt must still wait (0: the code may be checked). A
 * wrong code is then recorded with `recordLoginFailure` in the same transaction.
 */
export async function secondStepWait(tx: Tx, userId: string, source: string, device?: TrustedDevice): Promise<number> {
  const [user] = await tx
    .select({ id: users.id, email: users.email, sessionGeneration: users.sessionGeneration })
    .from(users)
    .where(eq(users.id, userId))
    .for("no key update");
  if (!user) return 0;
  return loginWait(tx, normalizeEmail(user.email), source, trustedFor(user, device));
}

/** A random password: 16 characters of base64url (96 bits). */
export const randomPassword = () => Buffer.from(crypto.getRandomValues(new Uint8Array(12))).toString("base64url");

export interface AdminReset {
  email: string;
  password: string;
  /** True when the password was made here (and must be shown), false when it was given. */
  generated: boolean;
  /** Whether two-factor was turned off too. */
  twoFactorOff: boolean;
}

/**
 * Run from the server's machine (`bun run admin:reset-password`, `--reset-admin-password`): a
 * new password for the admin, given or random, and every token of theirs revoked. The admin is
 * the one whose email is `email` when it is given (none such is refused, naming the admins),
 * else the first admin (the tree's root).
 * With `disableTwoFactor`, their second factor and recovery codes go too (a lost phone).
 * Their failed-login record is forgotten.
 */
export async function resetAdminPassword(
  db: Db,
  hasher: PasswordHasher,
  options: { email?: string; password?: string; disableTwoFactor?: boolean } = {},
): Promise<AdminReset> {
  const admins = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(eq(users.role, "admin"), isNull(users.deletedAt)))
    .orderBy(sql`${users.referrerId} IS NOT NULL`, asc(users.createdAt));
  if (admins.length === 0) throw new Error("There is no admin in this database yet: start the server once to create it.");
  const wanted = options.email ? normalizeEmail(options.email) : undefined;
  // An email that names no admin (a typo) is refused: falling back to the first admin would reset the root's password.
  const admin = wanted === undefined ? admins[0] : admins.find((a) => normalizeEmail(a.email) === wanted);
  if (!admin) throw new Error(`No admin has the email ${options.email} (ADMIN_EMAIL). The admins: ${admins.map((a) => a.email).join(", ")}.`);
  const password = options.password ?? randomPassword();
  const passwordHash = await hasher.hash(password);
  await inTransaction(db, async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, admin.id));
    await tx.delete(loginFailures).where(eq(loginFailures.email, normalizeEmail(admin.email)));
    if (options.disableTwoFactor) {
      await tx.delete(twoFactor).where(eq(twoFactor.userId, admin.id));
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, admin.id));
    }
    await revokeAllTokens(tx, admin.id);
  });
  return { email: admin.email, password, generated: options.password === undefined, twoFactorOff: Boolean(options.disableTwoFactor) };
}
