import { and, asc, count, desc, eq, ilike, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db, Tx } from "../db/client";
import { accounts, teamCounts, users } from "../db/schema";
import { LEVELS_PER_PROGRAM, type LevelStatus, PROGRAMS, type ProgramId, SEARCH_MAX_RESULTS, SEARCH_PER_MINUTE } from "../shared/constants";
import { MSG } from "../shared/messages";
import { cleanName, readsAsPlatform } from "../shared/names";
import { refuse, withoutQueryParams } from "./errors";
import { tokenRevoked, tokenVerdict, type TokenClaims, type TokenRow, type TokenUser } from "./sessions";
import { pairsAtOnce } from "./prepared";
import { addHit, recentHits, takeHit } from "./throttle";
import { inTransaction } from "./tx";
import { chainOfNewPartner, rebalanceChains } from "./chains";
import { countOnTheWayUp, shareChains, teamSize } from "./teams";
import { createAccount } from "./ledger";
import { notify, texts } from "./notifications";
import { likeContains, newId, newReferralId, normalizeReferralId, pageCount } from "./util";
import { looksLikeStaff } from "./staffNames";
import { queueVerification } from "./accountTokens";

export interface NewUser {
  name: string;
  email: string;
  passwordHash: string;
  referralId: string;
}

/**
 * The name as it is kept: cleaned (src/shared/names.ts), refused when empty, too long or reading
 * as the platform: by the forms' rule (`readsAsPlatform`) or by its Unicode confusable skeleton
 * (`looksLikeStaff`, ./staffNames.ts). At sign-up and at every name change.
 */
export function acceptableName(raw: string): string {
  const name = cleanName(raw);
  if (name === "") return refuse("validation", "Name is required.");
  if (name.length > 100) return refuse("validation", "Name must be at most 100 characters.");
  if (readsAsPlatform(name) || looksLikeStaff(name)) return refuse("validation", MSG.reservedName);
  return name;
}

/** The user whose email is `email`, ignoring case, as the unique index compares them. */
const emailIs = (email: string) => eq(sql`lower(${users.email})`, sql`lower(${email})`);

/**
 * Refuses, as registerUser would, a sign-up that cannot succeed as things stand: a name not
 * acceptable, a referral ID nobody live holds, an email already taken. Cheap (two look-ups by
 * index), so that a refused sign-up costs no password hash; registerUser checks again, in its
 * transaction, and decides.
 */
export async function refuseHopelessSignUp(db: Db, input: Pick<NewUser, "name" | "email" | "referralId">): Promise<void> {
  acceptableName(input.name);
  const [referrer] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.referralId, normalizeReferralId(input.referralId)), isNull(users.deletedAt)));
  if (!referrer) return refuse("invalid_referral");
  const [taken] = await db.select({ id: users.id }).from(users).where(emailIs(input.email));
  if (taken) return refuse("email_taken");
}

/**
 * A sign-up: the user registered in one transaction (registerUser), then the chains rebalanced
 * where that calls for it (chains.ts rebalanceChains, a transaction of its own when it does).
 * The sign-up stands once committed: a takeover that fails is logged, and the next sign-up in
 * that branch makes it.
 */
export async function signUp(db: Db, input: NewUser): Promise<{ id: string }> {
  const made = await inTransaction(db, (tx) => registerUser(tx, input));
  await rebalanceChains(db, made.id).catch((error) => console.error("chain takeover after a sign-up failed:", withoutQueryParams(error)));
  return made;
}

/**
 * Registers a user under the holder of `referralId`, and counts them in every upline's team.
 * Locks: shareChains, then the referrer's team_counts row (sign-ups under one referrer queue
 * there; sign-ups elsewhere in the tree do not wait for each other), then the team_sums rows of
 * the way up (teams.ts), last, so they are held the shortest time. Use signUp, which also
 * rebalances the chains.
 */
export async function registerUser(tx: Tx, input: NewUser): Promise<{ id: string }> {
  const name = acceptableName(input.name);
  await shareChains(tx);
  // Locked (key share, as the foreign key would) so that a deletion of the referrer in flight
  // is waited for, and then seen.
  const [referrer] = await tx
    .select({ id: users.id, depth: users.depth })
    .from(users)
    .where(and(eq(users.referralId, normalizeReferralId(input.referralId)), isNull(users.deletedAt)))
    .for("key share");
  if (!referrer) return refuse("invalid_referral");
  // First, so that sign-ups under one referrer queue here: the chain placement below (chains.ts)
  // relies on it.
  await countDirect(tx, referrer.id, 1);

  // The unique indexes decide, not a read before the write: a registration racing ours with the
  // same email makes this insert wait for it, then do nothing. A referral ID clash does the same.
  for (let attempt = 1; ; attempt++) {
    const id = newId();
    const inserted = await tx
      .insert(users)
      .values({
        id,
        name,
        email: input.email,
        passwordHash: input.passwordHash,
        role: "user",
        referralId: newReferralId(),
        referrerId: referrer.id,
        depth: referrer.depth + 1,
        chainId: await chainOfNewPartner(tx, referrer.id, id),
      })
      .onConflictDoNothing()
      .returning({ id: users.id });
    if (inserted.length > 0) {
      await createAccount(tx, id, "user");
      await tx.insert(teamCounts).values({ userId: id });
      // The address is confirmed through a mailed link (docs/rules.md#account-recovery-and-mail).
      await queueVerification(tx, id, input.email);
      await notify(tx, { userId: referrer.id, kind: "partner_joined", eventKey: `partner:${id}`, text: texts.partnerJoined(name), data: { partnerId: id } });
      await countOnTheWayUp(tx, id, 1);
      return { id };
    }
    // lower() on both sides, as the unique index has it.
    const [taken] = await tx.select({ id: users.id }).from(users).where(emailIs(input.email));
    if (taken) return refuse("email_taken");
    if (attempt >= 5) throw new Error("registration: no free referral ID after 5 attempts");
  }
}

/** Adds `delta` to the number of direct partners of `referrerId` (and locks that row). */
async function countDirect(tx: Tx, referrerId: string, delta: 1 | -1): Promise<void> {
  await tx.update(teamCounts).set({ direct: sql`${teamCounts.direct} + ${delta}` }).where(eq(teamCounts.userId, referrerId));
}

/** Soft delete: the user keeps the ledger history and the place in the chain, and leaves every team. */
export async function deleteUser(tx: Tx, id: string): Promise<{ name: string; email: string; deletedAt: Date }> {
  await shareChains(tx);
  const [user] = await tx
    .select({ name: users.name, email: users.email, role: users.role, referrerId: users.referrerId, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, id))
    .for("update");
  if (!user || user.deletedAt) return refuse("user_not_found");
  if (user.role === "admin") return refuse("cannot_delete_admin");
  const deletedAt = new Date();
  await tx.update(users).set({ deletedAt }).where(eq(users.id, id));
  if (user.referrerId) await countDirect(tx, user.referrerId, -1);
  await countOnTheWayUp(tx, id, -1);
  return { name: user.name, email: user.email, deletedAt };
}

/**
 * Name and referral ID behind a referral ID. A deleted user is found only by the users they
 * referred: their sponsor stays their sponsor, but is hidden from everyone else.
 */
export async function findReferrer(db: Db, referralId: string, callerId: string) {
  const [row] = await db
    .select({ name: users.name, myReferralId: users.referralId })
    .from(users)
    .where(
      and(
        eq(users.referralId, normalizeReferralId(referralId)),
        or(isNull(users.deletedAt), sql`${users.id} = (SELECT referrer_id FROM users WHERE id = ${callerId})`),
      ),
    );
  return row ?? refuse("user_not_found");
}

export async function adminReferralId(db: Db): Promise<string> {
  const [row] = await db
    .select({ referralId: users.referralId })
    .from(users)
    .where(and(eq(users.role, "admin"), isNull(users.referrerId), isNull(users.deletedAt)))
    .orderBy(asc(users.createdAt))
    .limit(1);
  return row?.referralId ?? refuse("user_not_found");
}

/** One level of a member as GET /api/auth lists it; `boxes` are the current cycle's slots. */
interface LevelState {
  level: number;
  status: LevelStatus;
  cycles: number;
  boxes: string[];
}

/** A level the member holds, as the member statement lists it: [program, level, status, cycles, slots]. */
type HeldLevel = [ProgramId, number, LevelStatus, number, string[]];

/**
 * The member's own values as the member statement reads them, one json array (one column for the
 * driver to hand over, and the key of GET /api/auth's encoded answers as it is): name, email,
 * referral ID, the referrer's, created (ms since 1970), balance and hold (cents, as text: exact),
 * team total and direct, the levels held, unread notifications, whether the address is confirmed.
 */
type MemberValues = [string, string, string, string | null, number, string, string, number, number, HeldLevel[] | null, number, boolean];

/** A row of the member statement: the token's verdict's columns, and the member's values. */
interface MemberRow extends TokenRow {
  /** MemberValues as json text. */
  values: string;
}

/**
 * Everything GET /api/auth answers, and what the token check needs, for a [user id, token id]
 * pair, in one statement (one round trip): the member with balance, hold and team counters,
 * their referrer's ID, the levels they hold (their user_levels rows, read through the primary
 * key), the unread notifications, and the token's revocation and session generation; none when
 * the user is gone or deleted. GET /api/auth is what every open dashboard asks most: the pairs
 * asked while the member statements are busy share the next one (`pairsAtOnce`), and Postgres
 * and the driver spend less on one statement for many members than on one statement each.
 */
const referrer = alias(users, "referrer");
const memberRow = pairsAtOnce<MemberRow>(
  "current_members",
  sql`SELECT ${users.id} AS id, ${users.role} AS role,
    ${tokenRevoked(sql`ask.pair->>1`)} AS revoked,
    ${users.sessionGeneration} AS generation,
    json_build_array(
      ${users.name}, ${users.email}, ${users.referralId}, ${referrer.referralId},
      floor(extract(epoch from ${users.createdAt}) * 1000),
      ${accounts.balance}::text, ${accounts.held}::text,
      ${teamSize(users)}, coalesce(${teamCounts.direct}, 0),
      (SELECT json_agg(json_build_array(ul.program, ul.level, ul.status, ul.cycles, ul.slots)) FROM user_levels ul WHERE ul.user_id = ${users.id}),
      /* The header's bell (the partial index notifications_unread_idx). */
      (SELECT count(*) FROM notifications n WHERE n.user_id = ${users.id} AND n.read_at IS NULL),
      ${users.emailVerifiedAt} IS NOT NULL
    )::text AS values
  FROM ${users}
    JOIN ${accounts} ON ${accounts.id} = ${users.id}
    LEFT JOIN ${teamCounts} ON ${teamCounts.userId} = ${users.id}
    LEFT JOIN ${users} AS ${referrer} ON ${referrer.id} = ${users.referrerId}
  WHERE ${users.id} = ask.pair->>0 AND ${users.deletedAt} IS NULL`,
);

/**
 * The member as GET /api/auth answers it (money still in cents). Every level of both programs,
 * in order, locked where the member holds nothing: the levels are the closed set of the
 * constants (the rows of program_levels, which the seed writes and nothing adds to or removes).
 */
function memberOf(row: MemberRow) {
  const [name, email, myReferralId, referredBy, createdMs, balance, held, totalPartners, directPartners, levels, unread, emailVerified] = JSON.parse(row.values) as MemberValues;
  const holding = new Map((levels ?? []).map((l) => [`${l[0]}/${l[1]}`, l]));
  const packages = Object.fromEntries(
    PROGRAMS.map((program) => [
      program,
      {
        levels: Array.from({ length: LEVELS_PER_PROGRAM }, (_, i): LevelState => {
          const mine = holding.get(`${program}/${i + 1}`);
          return { level: i + 1, status: mine?.[2] ?? "locked", cycles: mine?.[3] ?? 0, boxes: mine?.[4] ?? [] };
        }),
      },
    ]),
  ) as Record<ProgramId, { levels: LevelState[] }>;
  return {
    id: row.id,
    name,
    email,
    role: row.role,
    myReferralId,
    referredBy,
    createdAt: new Date(Number(createdMs)),
    balance: BigInt(balance),
    held: BigInt(held),
    totalPartners: Number(totalPartners),
    directPartners: Number(directPartners),
    packages,
    unreadNotifications: Number(unread),
    emailVerified: emailVerified === true,
  };
}

export type CurrentUser = ReturnType<typeof memberOf>;

/** The signed-in user as GET /api/auth answers it (money still in cents). One round trip. */
export async function currentUser(db: Db, id: string): Promise<CurrentUser> {
  return (await findMember(db, id)) ?? refuse("bad_token");
}

/** A member as GET /api/auth answers them, by id; null when there is none or they were deleted. */
export async function findMember(db: Db, id: string): Promise<CurrentUser | null> {
  const row = await memberRow(db)([id, ""]);
  return row ? memberOf(row) : null;
}

/** What memberForToken answers: the token's user, and the member it reads (built when asked). */
export interface SignedInMember {
  user: TokenUser;
  /**
   * Everything the member's answer is made of, as one text: equal texts, equal answers (GET
   * /api/auth keeps the answers it encoded under this key).
   */
  state: string;
  member(): CurrentUser;
}

/**
 * GET /api/auth in one round trip: the user `claims` speak for (null when the token is revoked,
 * of an older session generation, or its user is gone; `tokenVerdict`), and that member.
 */
export async function memberForToken(db: Db, claims: TokenClaims): Promise<SignedInMember | null> {
  const row = await memberRow(db)([claims.sub, claims.jti]);
  const user = tokenVerdict(row, claims);
  if (!user || !row) return null;
  // The id and role are the token's user's; the rest is the one json text.
  return { user, state: `${row.id}\u0001${row.role}\u0001${row.values}`, member: () => memberOf(row) };
}

/**
 * An email as a search shows it to someone who did not type it: the first character, `***`, and
 * the whole domain (`a***@example.com`), enough to tell two namesakes apart, not to write to them.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  const first = Array.from(email.slice(0, Math.max(at, 0)))[0] ?? "";
  return `${first}***${at >= 0 ? email.slice(at) : ""}`;
}

/**
 * The gift form's recipient search: up to SEARCH_MAX_RESULTS users (not deleted, not the caller)
 * a word of whose name starts with `text`, or whose whole email is `text`, ignoring case. A part
 * of an email (a domain, ".te", "@x.com") matches no one, so the search cannot list the members
 * of a domain or walk the address book letter by letter. Each result's email is masked
 * (`maskEmail`) unless it is the very email searched for: a name reveals no address. A gift names
 * a result by its id (`recipientId`). Each member may search SEARCH_PER_MINUTE times a minute;
 * beyond that the search is refused with `throttled`.
 */
export async function searchUsers(db: Db, text: string, callerId: string) {
  const wanted = text.trim();
  await takeHit(db, SEARCH_LIMIT, callerId, () => MSG.tooManySearches);
  if (wanted === "") return [];
  const escaped = escapeLike(wanted);
  const found = await db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(
      and(
        isNull(users.deletedAt),
        ne(users.id, callerId),
        or(
          ilike(users.name, `${escaped}%`),
          ilike(users.name, `% ${escaped}%`),
          ilike(users.name, `%-${escaped}%`),
          eq(sql`lower(${users.email})`, wanted.toLowerCase()),
        ),
      ),
    )
    .orderBy(asc(users.name), asc(users.id))
    .limit(SEARCH_MAX_RESULTS);
  const typed = wanted.toLowerCase();
  return found.map((user) => ({ ...user, email: user.email.toLowerCase() === typed ? user.email : maskEmail(user.email) }));
}

/** A member's recipient searches, counted in `throttle_hits` (shared by every server process). */
const SEARCH_LIMIT = { bucket: "user_search", max: SEARCH_PER_MINUTE, windowSeconds: 60 };

/**
 * A gift names its recipient by email (or by a search result's id), and tells whether someone
 * has it: a gift to an email or an id nobody has counts as a search (`countRecipientMiss`), and
 * once the member is at SEARCH_PER_MINUTE, every gift waits (`refuseRecipientLookup`, 429 `throttled`), the recipient
 * found or not, so that the answers say nothing more. Without this, gifts of 0.01 from an empty
 * balance (refused either way, but as "not found" or as "insufficient balance") would walk the
 * address book that the search's limit guards.
 */
export async function refuseRecipientLookup(db: Db, callerId: string): Promise<void> {
  const { n, retryAfter } = await recentHits(db, SEARCH_LIMIT.bucket, callerId, SEARCH_LIMIT.windowSeconds);
  if (n >= SEARCH_LIMIT.max) return refuse("throttled", MSG.tooManySearches, retryAfter);
}

export const countRecipientMiss = (db: Db, callerId: string) => addHit(db, SEARCH_LIMIT.bucket, callerId);

/** `text` as a literal inside a LIKE pattern: its wildcards and the escape character escaped. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listUsers(db: Db, { page, limit, search }: { page: number; limit: number; search?: string }) {
  const where = and(
    isNull(users.deletedAt),
    search ? or(ilike(users.name, likeContains(search)), ilike(users.email, likeContains(search))) : undefined,
  );
  const [total] = await db.select({ n: count() }).from(users).where(where);
  const rows = await db
    .select({ id: users.id, name: users.name, email: users.email, role: users.role, balance: accounts.balance, createdAt: users.createdAt })
    .from(users)
    .innerJoin(accounts, eq(accounts.id, users.id))
    .where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(limit)
    .offset((page - 1) * limit);
  return { users: rows, totalPages: pageCount(total?.n ?? 0, limit) };
}

/** Shares the users row `where` names, when that user is not deleted (lock order step 2); answers it, or undefined. */
export async function lockActiveUser(tx: Tx, where: SQL | undefined) {
  const [row] = await tx
    .select({ id: users.id, role: users.role })
    .from(users)
    .where(and(where, isNull(users.deletedAt)))
    .for("share");
  return row;
}

/**
 * The token was checked before this transaction began; a deletion may have committed since, or
 * be about to. Sharing the caller's users row (lock order step 2) waits for it and then refuses,
 * like the token check would. Every money call of a member takes it (the purchase in its first
 * statement).
 */
export async function lockCaller(tx: Tx, userId: string): Promise<void> {
  if (!(await lockActiveUser(tx, eq(users.id, userId)))) refuse("bad_token");
}
