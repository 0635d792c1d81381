import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import { rowsOf, type Db, type Tx } from "../db/client";
import { teamCounts, transferKinds, users, type Program, type TransferKind } from "../db/schema";
import type { StatementKind } from "../shared/contract";
import { PLATFORM_NAME, STATEMENT_PAGE_SIZE } from "../shared/constants";
import { startOfDay } from "../shared/days";
import { refuse } from "./errors";
import { teamSize } from "./teams";
import { EXTERNAL, SYSTEM } from "./ledger";
import { pageCount } from "./util";

// ---------------------------------------------------------------------------------------------
// Partners

/**
 * The direct partners of `of` (the caller when absent), newest first, each with their own team
 * size, their own direct partners and their highest active level in each program. Partners who
 * left (deleted by an admin) stay on the list, marked `deleted`: their own partners are still in
 * the caller's team and counted in its size, and their branch can be opened like any other.
 * `of` must be the caller or someone of the caller's team, at any depth; anyone else answers
 * partner_not_found, exactly like an unknown id, so no one learns about other members' teams.
 *
 * Counts come from team_counts (direct partners) and team_sums (whole teams, teams.ts), both kept
 * up to date at sign-up and deletion, so no request scans a downline; the levels are correlated probes of user_levels' primary key inside the one query of
 * the page.
 *
 * `after` (the id of a partner of `of`, deleted since or not): the page is the partners that come
 * after that one, whatever joined or left since, instead of the `page`-th by offset (`page` is
 * then only answered back). Another id answers partner_not_found.
 */
export async function partnersOf(db: Db, callerId: string, page: number, of?: string, after?: string, limit = STATEMENT_PAGE_SIZE) {
  const listed = of ?? callerId;
  if (listed !== callerId && !(await isInTeamOf(db, callerId, listed))) return refuse("partner_not_found");
  // Partners who left: not in the counts, still on the list (the users_left_referrer_idx index).
  const left = sql<number>`(SELECT count(*) FROM users gone WHERE gone.referrer_id = ${users.id} AND gone.deleted_at IS NOT NULL)`;
  const [own] = await db
    .select({ total: teamSize(users), direct: teamCounts.direct, left })
    .from(users)
    .leftJoin(teamCounts, eq(teamCounts.userId, users.id))
    .where(eq(users.id, listed));
  let cursor: SQL | undefined;
  if (after !== undefined) {
    const [last] = await db.select({ id: users.id }).from(users).where(and(eq(users.id, after), eq(users.referrerId, listed)));
    if (!last) return refuse("partner_not_found");
    // Compared in the database: its timestamps are finer than a JavaScript Date.
    cursor = sql`(${users.createdAt}, ${users.id}) < (SELECT last.created_at, last.id FROM users last WHERE last.id = ${last.id})`;
  }
  const highestActive = (program: Program) =>
    sql<number | null>`(SELECT max(ul.level) FROM user_levels ul WHERE ul.user_id = ${users.id} AND ul.program = ${program} AND ul.status = 'active')`;
  const rows = await db
    .select({
      id: users.id,
      name: users.name,
      joinedAt: users.createdAt,
      deleted: sql<boolean>`(${users.deletedAt} IS NOT NULL)`,
      partners: teamSize(users),
      directPartners: sql<number>`coalesce(${teamCounts.direct}, 0)`,
      // Partners listed under them, those who left included: a branch to open.
      hasPartners: sql<boolean>`EXISTS (SELECT 1 FROM users c WHERE c.referrer_id = ${users.id})`,
      level3p: highestActive("3p"),
      level6p: highestActive("6p"),
    })
    .from(users)
    .leftJoin(teamCounts, eq(teamCounts.userId, users.id))
    .where(and(eq(users.referrerId, listed), cursor))
    .orderBy(desc(users.createdAt), desc(users.id))
    // One more than a page: whether another page follows, told by the rows themselves.
    .limit(limit + 1)
    .offset(cursor ? 0 : (page - 1) * limit);
  const directPartners = Number(own?.direct ?? 0);
  // The partners on the list: those who left are still on it.
  const onList = directPartners + Number(own?.left ?? 0);
  return {
    partners: rows.slice(0, limit).map(({ level3p, level6p, ...r }) => ({
      ...r,
      partners: Number(r.partners),
      directPartners: Number(r.directPartners),
      levels: { "3p": Number(level3p ?? 0), "6p": Number(level6p ?? 0) },
    })),
    page,
    totalPages: pageCount(onList, limit),
    hasMore: rows.length > limit,
    directPartners,
    totalPartners: Number(own?.total ?? 0),
    onList,
  };
}

/**
 * Whether `memberId` is `leaderId` or below them in the referral tree (deleted or not: a partner
 * who left keeps their place, and their partners stay in the team).
 *
 * One statement that climbs from the member chain by chain (docs/rules.md#chains), the way the
 * receiver search does: on a chain the users at or above an entry depth are exactly the
 * ancestors, so the leader is above the member exactly when the climb enters the leader's chain
 * at the leader's depth or deeper. The climb stops there, or as soon as it is above the leader's
 * depth, so it costs one step per chain crossed, at most log1.5(users) (about 28 among 100,000)
 * and usually a few, whatever the depths. A plain walk from referrer to referrer would cost the
 * depth difference, 10,000 steps in a line 10,000 deep. Deleted users in between are walked
 * through (they keep their place in the tree).
 */
export async function isInTeamOf(db: Db, leaderId: string, memberId: string): Promise<boolean> {
  const [row] = rowsOf<{ inside: boolean }>(
    await db.execute(sql`
      WITH RECURSIVE leader AS (SELECT chain_id, depth FROM users WHERE id = ${leaderId}),
      up(chain_id, depth) AS (
        SELECT m.chain_id, m.depth FROM users m WHERE m.id = ${memberId}
        UNION ALL
        SELECT p.chain_id, p.depth
        FROM up
        JOIN users head ON head.id = up.chain_id
        JOIN users p ON p.id = head.referrer_id
        CROSS JOIN leader
        WHERE up.chain_id <> leader.chain_id AND p.depth >= leader.depth
      )
      SELECT EXISTS (SELECT 1 FROM up JOIN leader ON leader.chain_id = up.chain_id AND up.depth >= leader.depth) AS inside`),
  );
  return row?.inside === true;
}

// ---------------------------------------------------------------------------------------------
// Statement

/** How one ledger transfer reads from one side of it. */
export function statementKind(kind: TransferKind, incoming: boolean, passedUp: boolean): StatementKind {
  switch (kind) {
    case "gift":
      return incoming ? "gift_in" : "gift_out";
    case "admin_gift":
      return "gift_in";
    case "purchase":
      return incoming ? (passedUp ? "pass_up" : "earning") : "purchase";
    case "unfreeze":
      return incoming ? "earning" : "unfreeze";
    default:
      return kind;
  }
}

/** The statement's filters: one kind as the member reads it, days from and to (both included) in time zone `tz` (UTC when absent). */
export interface StatementFilter {
  kind?: StatementKind;
  from?: string;
  to?: string;
  /** An IANA time zone (checked by the schema): the member's, whose dates the dashboard shows. */
  tz?: string;
}

/** One row of the statement, signed from the member's side (cents). */
export interface StatementRow {
  id: string;
  createdAt: Date;
  kind: StatementKind;
  amount: bigint;
  counterparty: { name: string } | null;
  /** An admin gift: money from the platform's own funds, not from a member (counterparty PLATFORM_NAME). */
  fromPlatform: boolean;
  balanceAfter: bigint;
  program: Program | null;
  level: number | null;
  requestId: string | null;
}

interface LedgerRow {
  id: string;
  created_at: Date | string;
  kind: TransferKind;
  amount: string;
  incoming: boolean;
  balance_after: string;
  other: string;
  other_name: string | null;
  request_id: string | null;
  program: Program | null;
  level: number | null;
  passed_up: boolean;
}

/** Bounds the days a filter can name to what a timestamp of the database holds (no transfer is older than 1970). */
const EARLIEST = 0;
const LATEST = Date.parse("9999-12-31T23:59:59.999Z");
const clamp = (ms: number) => Math.min(LATEST, Math.max(EARLIEST, ms));

/** The day after `day` (YYYY-MM-DD). */
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * The filter's days as a half-open range of instants, from the start of `from` to the start of
 * the day after `to`, in the filter's time zone (a day of 23 or 25 hours where the clocks
 * change); `from` after `to` is refused.
 */
function rangeOf(filter: StatementFilter): { since?: string; until?: string } {
  if (filter.from && filter.to && filter.from > filter.to) return refuse("validation", "From must be on or before To.");
  const zone = filter.tz ?? "UTC";
  // Days around the ends of what a timestamp holds are its ends (no zone has a clock there).
  const at = (day: string) => new Date(day < "1970-01-02" ? EARLIEST : clamp(startOfDay(day, zone))).toISOString();
  return {
    since: filter.from ? at(filter.from) : undefined,
    until: filter.to ? (filter.to >= "9999-12-31" ? new Date(LATEST).toISOString() : at(nextDay(filter.to))) : undefined,
  };
}

/** An incoming purchase that reached the member passed up from a matrix below (`t` is the transfer). */
const PASSED_UP = sql`(t.kind = 'purchase' AND EXISTS (SELECT 1 FROM placements p WHERE p.transfer_id = t.id AND p.outcome = 'pass_up'))`;

/**
 * The transfers of one side (incoming or outgoing) that read as `kind`. Derived from
 * `statementKind` itself, transfer kind by transfer kind, so the filter and the labels cannot
 * disagree.
 */
function kindCondition(kind: StatementKind, incoming: boolean): SQL {
  const parts: SQL[] = [];
  for (const transferKind of transferKinds) {
    const plain = statementKind(transferKind, incoming, false) === kind;
    const passed = incoming && statementKind(transferKind, incoming, true) === kind;
    if (plain && (passed || !incoming)) parts.push(sql`t.kind = ${transferKind}`);
    else if (plain) parts.push(sql`(t.kind = ${transferKind} AND NOT ${PASSED_UP})`);
    else if (passed) parts.push(sql`(t.kind = ${transferKind} AND ${PASSED_UP})`);
  }
  return parts.length > 0 ? sql`(${sql.join(parts, sql` OR `)})` : sql`false`;
}

/** Everything one side of the member's transfers must meet: the account, the filters, the cursor. */
function sideWhere(userId: string, incoming: boolean, filter: StatementFilter, before?: string): SQL {
  const { since, until } = rangeOf(filter);
  const conditions = [incoming ? sql`t.to_account = ${userId}` : sql`t.from_account = ${userId}`];
  if (filter.kind) conditions.push(kindCondition(filter.kind, incoming));
  if (since) conditions.push(sql`t.created_at >= ${since}::timestamptz`);
  if (until) conditions.push(sql`t.created_at < ${until}::timestamptz`);
  if (before !== undefined) conditions.push(sql`t.id < ${before}::bigint`);
  return sql.join(conditions, sql` AND `);
}

/**
 * Statement rows newest first (by transfer id): `limit` of them after `offset`, or after the
 * transfer `before` (a cursor, for reading the whole statement in batches).
 *
 * Each side is read newest-first through its own (account, id) index with its filters and cut at
 * `offset + limit`, so a long history never sorts in full; a filter only makes that index scan
 * skip the rows it leaves out. A transfer is on one side only (its accounts differ).
 */
async function statementRows(db: Db | Tx, userId: string, filter: StatementFilter, at: { limit: number; offset?: number; before?: string }) {
  const offset = at.offset ?? 0;
  const window = offset + at.limit;
  const rows = rowsOf<LedgerRow>(
    await db.execute(sql`
      SELECT s.id::text AS id, s.created_at, s.kind, s.amount::text AS amount, s.incoming,
             s.balance_after::text AS balance_after, s.other, u.name AS other_name,
             s.request_id, s.program, s.level, s.passed_up
      FROM (
        (SELECT t.id, t.created_at, t.kind, t.amount, false AS incoming, t.from_balance_after AS balance_after,
                t.to_account AS other, t.request_id, t.program, t.level, false AS passed_up
         FROM transfers t WHERE ${sideWhere(userId, false, filter, at.before)} ORDER BY t.id DESC LIMIT ${window})
        UNION ALL
        (SELECT t.id, t.created_at, t.kind, t.amount, true, t.to_balance_after, t.from_account,
                t.request_id, t.program, t.level, ${PASSED_UP}
         FROM transfers t WHERE ${sideWhere(userId, true, filter, at.before)} ORDER BY t.id DESC LIMIT ${window})
      ) s
      LEFT JOIN users u ON u.id = s.other
      ORDER BY s.id DESC
      LIMIT ${at.limit} OFFSET ${offset}`),
  );
  return rows.map((r): StatementRow => {
    const amount = BigInt(r.amount);
    const fromPlatform = r.kind === "admin_gift";
    return {
      id: r.id,
      createdAt: new Date(r.created_at),
      kind: statementKind(r.kind, r.incoming, r.passed_up),
      amount: r.incoming ? amount : -amount,
      counterparty: counterpartyOf(r, fromPlatform),
      fromPlatform,
      balanceAfter: BigInt(r.balance_after),
      program: r.program,
      level: r.level === null ? null : Number(r.level),
      requestId: r.request_id,
    };
  });
}

/**
 * Who is on the other side: nobody for the outside world (deposits, withdrawals paid out), the
 * platform for an admin gift (the operator's own funds, not a member), `System` for what the
 * operator's account takes (fees, payments nobody above could take), else the member.
 */
function counterpartyOf(r: LedgerRow, fromPlatform: boolean): { name: string } | null {
  if (r.other === EXTERNAL) return null;
  if (fromPlatform) return { name: PLATFORM_NAME };
  if (r.other === SYSTEM) return { name: "System" };
  return { name: r.other_name ?? "" };
}

/**
 * A page of the user's statement, newest first, filtered (money in cents, signed from the user's
 * side): `limit` rows a page (the member's own statement: STATEMENT_PAGE_SIZE), and `total`, the
 * rows of the whole filtered statement. The page and the count are read in one snapshot (a
 * read-only REPEATABLE READ transaction), so they agree while payments land.
 */
export async function transactionsOf(db: Db, userId: string, page: number, filter: StatementFilter = {}, limit = STATEMENT_PAGE_SIZE) {
  rangeOf(filter);
  return db.transaction(
    async (tx) => {
      const transactions = await statementRows(tx, userId, filter, { limit, offset: (page - 1) * limit });
      const [count] = rowsOf<{ n: string }>(
        await tx.execute(sql`SELECT ((SELECT count(*) FROM transfers t WHERE ${sideWhere(userId, false, filter)})
                                   + (SELECT count(*) FROM transfers t WHERE ${sideWhere(userId, true, filter)}))::text AS n`),
      );
      const total = Number(count?.n ?? 0);
      return { transactions, page, totalPages: pageCount(total, limit), total };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

/** Rows read at a time when the whole statement is wanted (the CSV). */
export const STATEMENT_BATCH = 500;

/**
 * The whole filtered statement, newest first, in batches of `batchSize` read by cursor (transfer
 * id), so a long history is never held in memory at once. Each batch is one query through the
 * same indexes as a page. A bad filter is refused before anything is read.
 */
export async function* statementBatches(db: Db, userId: string, filter: StatementFilter = {}, batchSize = STATEMENT_BATCH): AsyncGenerator<StatementRow[]> {
  rangeOf(filter);
  let before: string | undefined;
  for (;;) {
    const rows = await statementRows(db, userId, filter, { limit: batchSize, before });
    if (rows.length > 0) yield rows;
    if (rows.length < batchSize) return;
    before = rows.at(-1)!.id;
  }
}

/** Checks a filter without reading anything: `from` after `to` is refused. */
export const checkStatementFilter = (filter: StatementFilter) => void rangeOf(filter);
