export type RequestKind = "deposits" | "withdrawals";
import type { RequestStatus } from "../../../../shared/constants";

export type { RequestStatus };

export interface RequestFilter {
  status?: RequestStatus;
  search?: string;
}

/** ["admin", kind, filter]: invalidating ["admin", kind] reloads both the dashboard and the history. */
export const requestsKey = (kind: RequestKind, filter?: RequestFilter) =>
  (filter ? ["admin", kind, filter] : ["admin", kind]) as readonly unknown[];

