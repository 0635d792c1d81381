import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { rowsOf, type Db } from "../db/client";
import { teamCounts, users, type Program, type TransferKind } from "../db/schema";
import type { StatementKind } from "../shared/contract";
import { STATEMENT_PAGE_SIZE } from "../shared/constants";
import { EXTERNAL, SYSTEM } from "./ledger";
import { pageCount } from "./util";

const pages = (total: number) => pageCount(total, STATEMENT_PAGE_SIZE);

/**
 * The user's direct partners, newest first, each with their own team size. Counts come from
 * team_counts (kept up to date at sign-up and deletion), so no request scans a downline.
 */
export async function partnersOf(db: Db, userId: string, page: number) {
  const [own] = await db.select({ total: teamCounts.total, direct: teamCounts.direct }).from(teamCounts).where(eq(teamCounts.userId, userId));
  const rows = await db
    .select({ id: users.id, name: users.name, joinedAt: users.createdAt, partners: sql<number>`coalesce(${teamCounts.total}, 0)` })
    .from(users)
    .leftJoin(teamCounts, eq(teamCounts.userId, users.id))
    .where(and(eq(users.referrerId, userId), isNull(users.deletedAt)))
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(STATEMENT_PAGE_SIZE)
    .offset((page - 1) * STATEMENT_PAGE_SIZE);
  const directPartners = own?.direct ?? 0;
  return {
    partners: rows.map((r) => ({ ...r, partners: Number(r.partners) })),
    page,
    totalPages: pages(directPartners),
    directPartners,
    totalPartners: own?.total ?? 0,
  };
}

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

/** The user's ledger entries, newest first (money in cents, signed from the user's side). */
export async function transactionsOf(db: Db, userId: string, page: number) {
  const offset = (page - 1) * STATEMENT_PAGE_SIZE;
  const window = offset + STATEMENT_PAGE_SIZE;
  // Each side is read newest-first through its own (account, id) index and cut at the page end,
  // so a long history never sorts in full.
  const rows = rowsOf<LedgerRow>(
    await db.execute(sql`
      SELECT t.id::text AS id, t.created_at, t.kind, t.amount::text AS amount, t.incoming,
             t.balance_after::text AS balance_after, t.other, u.name AS other_name,
             t.request_id, t.program, t.level,
             (t.incoming AND t.kind = 'purchase'
               AND EXISTS (SELECT 1 FROM placements p WHERE p.transfer_id = t.id AND p.outcome = 'pass_up')) AS passed_up
      FROM (
        (SELECT id, created_at, kind, amount, false AS incoming, from_balance_after AS balance_after, to_account AS other,
                request_id, program, level
         FROM transfers WHERE from_account = ${userId} ORDER BY id DESC LIMIT ${window})
        UNION ALL
        (SELECT id, created_at, kind, amount, true, to_balance_after, from_account, request_id, program, level
         FROM transfers WHERE to_account = ${userId} ORDER BY id DESC LIMIT ${window})
      ) t
      LEFT JOIN users u ON u.id = t.other
      ORDER BY t.id DESC
      LIMIT ${STATEMENT_PAGE_SIZE} OFFSET ${offset}`),
  );
  const [count] = rowsOf<{ n: string }>(
    await db.execute(sql`SELECT ((SELECT count(*) FROM transfers WHERE from_account = ${userId})
                               + (SELECT count(*) FROM transfers WHERE to_account = ${userId}))::text AS n`),
  );

  const transactions = rows.map((r) => {
    const amount = BigInt(r.amount);
    return {
      id: r.id,
      createdAt: new Date(r.created_at),
      kind: statementKind(r.kind, r.incoming, r.passed_up),
      amount: r.incoming ? amount : -amount,
      counterparty: r.other === EXTERNAL ? null : r.other === SYSTEM ? { name: "System" } : { name: r.other_name ?? "" },
      balanceAfter: BigInt(r.balance_after),
      program: r.program,
      level: r.level === null ? null : Number(r.level),
      requestId: r.request_id,
    };
  });
  return { transactions, page, totalPages: pages(Number(count?.n ?? 0)) };
}
