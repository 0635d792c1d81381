import { useInfiniteQuery } from "@tanstack/react-query";
import type { RequestType } from "../../../../shared/constants";
import { MEMBER, type requestPage } from "../../../../shared/contract/member";
import type { Answer } from "../../../../shared/contract/wire";
import { call } from "../../../lib/api";

/** A page of the member's own deposit and withdrawal requests: amounts in cents, dates as Date. */
export type RequestPage = Answer<typeof requestPage>;
export type MyRequest = RequestPage["items"][number];

/**
 * The member's requests, whichever page shows them (deposit, withdraw, statement): a new deposit
 * or withdrawal invalidates ["me", "requests"] and every list refreshes.
 */
export const myRequestsKey = ["me", "requests"] as const;

/**
 * How often the list is read again while a transfer to the member's own address is confirming:
 * its count moves with every block and no event says so (the credit itself comes as an event).
 */
export const CONFIRMING_POLL_MS = 5_000;

export const getMyRequests = (page: number, type: RequestType | undefined, signal?: AbortSignal) =>
  call(MEMBER.requests, { query: { page, type }, signal, quiet: true });

/**
 * Pages of requests (of one type, or both), newest first, read one after the other ("Load more").
 * `pollMs`: read again that often anyway (the deposit page, while the member's own address shows).
 */
export const useMyRequests = (type?: RequestType, pollMs?: number) =>
  useInfiniteQuery({
    queryKey: [...myRequestsKey, type ?? "all"],
    queryFn: ({ pageParam, signal }) => getMyRequests(pageParam, type, signal),
    initialPageParam: 1,
    getNextPageParam: (last: RequestPage) => (last.page < last.totalPages ? last.page + 1 : undefined),
    refetchInterval: (query) => {
      const confirming = query.state.data?.pages.some((page) => page.items.some((item) => item.confirmations !== null));
      return confirming ? CONFIRMING_POLL_MS : (pollMs ?? false);
    },
  });
