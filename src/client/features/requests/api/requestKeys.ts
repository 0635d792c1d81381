export type RequestKind = "deposits" | "withdrawals";
import type { RequestStatus } from "../../../../shared/constants";

export type { RequestStatus };

export interface RequestFilter {
  status?: RequestStatus;
  search?: string;
  /** 1-based, REQUEST_PAGE_SIZE requests a page; 1 when absent. */
  page?: number;
}

/** ["admin", kind, filter]: invalidating ["admin", kind] reloads both the dashboard and the history. */
export const requestsKey = (kind: RequestKind, filter?: RequestFilter) =>
  (filter ? ["admin", kind, filter] : ["admin", kind]) as readonly unknown[];

