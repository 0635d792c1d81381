import { count, desc, eq, sql, type SQL } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { adminAudit, users, type AuditAction } from "../db/schema";
import { AUDIT_PAGE_SIZE } from "../shared/constants";
import { pageCount } from "./util";

/** Who the audit trail names for the platform's own decisions. */
export const PLATFORM_ACTOR_NAME = "Platform";

export interface AuditEntry {
  /** Null when the platform itself decided (a deposit verified on chain). */
  adminId: string | null;
  action: AuditAction;
  targetType: "deposit" | "withdrawal" | "level" | "user" | "deposit_address";
  targetId: string;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/**
 * Records an admin action in the caller's transaction, so it exists exactly when the action does.
 * Its time is when it is recorded (`clock_timestamp()`), after the locks the action waited for,
 * not when its transaction began: two edits of one price are dated in the order they were made.
 */
export async function recordAudit(tx: Tx, entry: AuditEntry): Promise<void> {
  await tx.insert(adminAudit).values({ ...entry, before: entry.before ?? null, after: entry.after ?? null, createdAt: sql`clock_timestamp()` });
}

/**
 * The entries about one member: their account (a deletion, a gift from system funds), their
 * deposits and withdrawals (each decision, an admin's or the platform's), and their own deposit
 * addresses (marked swept). Each part is the member's own rows (by their user_id indexes) looked
 * up in admin_audit_target_idx, so a member's page costs their own entries, not the whole trail:
 * written as one OR of IN lists, Postgres read all of admin_audit even with that index (50 to 66
 * ms at 250,000 entries, 2 ms this way; docs/performance.md#a-members-record).
 */
function aboutMember(userId: string): SQL {
  return sql`${adminAudit.id} IN (
    SELECT x.id FROM admin_audit x WHERE x.target_type = 'user' AND x.target_id = ${userId}
    UNION ALL
    SELECT x.id FROM deposits d JOIN admin_audit x ON x.target_type = 'deposit' AND x.target_id = d.id WHERE d.user_id = ${userId}
    UNION ALL
    SELECT x.id FROM withdrawals w JOIN admin_audit x ON x.target_type = 'withdrawal' AND x.target_id = w.id WHERE w.user_id = ${userId}
    UNION ALL
    SELECT x.id FROM deposit_addresses a JOIN admin_audit x ON x.target_type = 'deposit_address' AND x.target_id = a.network || ':' || a.index
    WHERE a.user_id = ${userId})`;
}

/**
 * A page of the trail, newest first: every entry (the admin's Audit page, AUDIT_PAGE_SIZE a page),
 * or with `about` only those about that member (their record's Audit tab), `limit` a page. `total`
 * is the number of entries listed in all.
 */
export async function listAudit(db: Db, page: number, { limit = AUDIT_PAGE_SIZE, about }: { limit?: number; about?: string } = {}) {
  const where = about === undefined ? undefined : aboutMember(about);
  const [total] = await db.select({ n: count() }).from(adminAudit).where(where);
  const rows = await db
    .select({
      id: adminAudit.id,
      createdAt: adminAudit.createdAt,
      action: adminAudit.action,
      targetType: adminAudit.targetType,
      targetId: adminAudit.targetId,
      before: adminAudit.before,
      after: adminAudit.after,
      // The platform's own decisions have no admin: they read as "Platform" (a reserved name).
      adminName: sql<string>`coalesce(${users.name}, ${PLATFORM_ACTOR_NAME})`,
      adminEmail: sql<string>`coalesce(${users.email}, '')`,
      actor: sql<"admin" | "platform">`CASE WHEN ${adminAudit.adminId} IS NULL THEN 'platform' ELSE 'admin' END`,
    })
    .from(adminAudit)
    .leftJoin(users, eq(users.id, adminAudit.adminId))
    .where(where)
    // Newest first by id: ids are taken as the actions are recorded, under the locks they
    // waited for, so one row's edits read as one unbroken chain of before and after.
    .orderBy(desc(adminAudit.id))
    .limit(limit)
    .offset((page - 1) * limit);
  return {
    entries: rows.map((r) => ({
      ...r,
      id: r.id.toString(),
      before: r.before as Record<string, unknown> | null,
      after: r.after as Record<string, unknown> | null,
    })),
    page,
    totalPages: pageCount(total?.n ?? 0, limit),
    total: total?.n ?? 0,
  };
}
