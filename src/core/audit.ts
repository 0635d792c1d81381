import { count, desc, eq, sql } from "drizzle-orm";
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

export async function listAudit(db: Db, page: number) {
  const [total] = await db.select({ n: count() }).from(adminAudit);
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
    // Newest first by id: ids are taken as the actions are recorded, under the locks they
    // waited for, so one row's edits read as one unbroken chain of before and after.
    .orderBy(desc(adminAudit.id))
    .limit(AUDIT_PAGE_SIZE)
    .offset((page - 1) * AUDIT_PAGE_SIZE);
  return {
    entries: rows.map((r) => ({
      ...r,
      id: r.id.toString(),
      before: r.before as Record<string, unknown> | null,
      after: r.after as Record<string, unknown> | null,
    })),
    page,
    totalPages: pageCount(total?.n ?? 0, AUDIT_PAGE_SIZE),
  };
}
