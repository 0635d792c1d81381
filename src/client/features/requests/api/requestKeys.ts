export type RequestKind = "deposits" | "withdrawals";
export type RequestStatus = "pending" | "accepted" | "declined";

export interface RequestFilter {
  status?: RequestStatus;
  search?: string;
}

/** ["admin", kind, filter]: invalidating ["admin", kind] reloads both the dashboard and the history. */
export const requestsKey = (kind: RequestKind, filter?: RequestFilter) =>
  (filter ? ["admin", kind, filter] : ["admin", kind]) as readonly unknown[];

export function requestQueryString({ status, search }: RequestFilter): string {
  const query = new URLSearchParams();
  if (status) query.set("status", status);
  if (search) query.set("search", search);
  const text = query.toString();
  return text ? `?${text}` : "";
}
