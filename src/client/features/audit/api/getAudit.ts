import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api";

export type AuditAction = "deposit_decision" | "withdrawal_decision" | "level_price" | "user_delete" | "admin_gift";

/** The values an action changed, as the server recorded them (amounts as dollar text, "12.50"). */
export type AuditValues = Record<string, unknown>;

export interface AuditEntry {
  id: string;
  createdAt: string;
  action: AuditAction;
  targetType: string;
  targetId: string;
  before: AuditValues | null;
  after: AuditValues | null;
  adminName: string;
  adminEmail: string;
}

export interface AuditPage {
  entries: AuditEntry[];
  page: number;
  totalPages: number;
}

export const auditKey = (page?: number) => (page === undefined ? ["admin", "audit"] : ["admin", "audit", page]) as readonly unknown[];

export const getAudit = (page: number, signal?: AbortSignal) =>
  api<AuditPage>("GET", `/admin/audit?page=${page}`, { signal, quiet: true });

// staleTime 0: opened right after an admin action, the trail must already show it.
export const auditQuery = (page: number) =>
  queryOptions({ queryKey: auditKey(page), queryFn: ({ signal }) => getAudit(page, signal), staleTime: 0 });

// The previous page stays on screen while the next loads, so the table does not jump.
export const useAudit = (page: number) => useQuery({ ...auditQuery(page), placeholderData: keepPreviousData });
