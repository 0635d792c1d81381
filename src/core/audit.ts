import { count, desc, eq } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { adminAudit, users, type AuditAction } from "../db/schema";
import { AUDIT_PAGE_SIZE } from "../shared/constants";
import { pageCount } from "./util";

export interface AuditEntry {
  adminId: string;
  action: AuditAction;
  targetType: "deposit" | "withdrawal" | "level" | "user";
  targetId: string;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/** Records an admin action in the caller's transaction, so it exists exactly when the action does. */
export async function recordAudit(tx: Tx, entry: AuditEntry): Promise<void> {
  await tx.insert(adminAudit).values({ ...entry, before: entry.before ?? null, after: entry.after ?? null });
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
      adminName: users.name,
      adminEmail: users.email,
    })
    .from(adminAudit)
    .innerJoin(users, eq(users.id, adminAudit.adminId))
    .orderBy(desc(adminAudit.createdAt), desc(adminAudit.id))
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
