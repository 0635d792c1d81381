import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { ADMIN } from "../../../../shared/contract/admin";
import type { auditEntry } from "../../../../shared/contract/admin";
import type { Answer } from "../../../../shared/contract/wire";
import { call } from "../../../lib/api";

export type AuditEntry = Answer<typeof auditEntry>;
export type AuditAction = AuditEntry["action"];
/** The values an action changed, as the server recorded them (amounts as dollar text, "12.50"). */
export type AuditValues = NonNullable<AuditEntry["before"]>;

export const auditKey = (page?: number) => (page === undefined ? ["admin", "audit"] : ["admin", "audit", page]) as readonly unknown[];

export const getAudit = (page: number, signal?: AbortSignal) => call(ADMIN.audit, { query: { page }, signal, quiet: true });

// staleTime 0: opened right after an admin action, the trail must already show it.
export const auditQuery = (page: number) =>
  queryOptions({ queryKey: auditKey(page), queryFn: ({ signal }) => getAudit(page, signal), staleTime: 0 });

// The previous page stays on screen while the next loads, so the table does not jump.
export const useAudit = (page: number) => useQuery({ ...auditQuery(page), placeholderData: keepPreviousData });
