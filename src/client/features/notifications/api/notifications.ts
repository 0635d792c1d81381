import { keepPreviousData, type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import * as z from "zod/mini";
import { MEMBER } from "../../../../shared/contract/member";
import { call } from "../../../lib/api";
import { meKey } from "../../../lib/me";
import { refreshAfter } from "../../../lib/refresh";

/** ["notifications"] reloads every page (the live stream invalidates it on each new one). */
export const notificationsKey = (page?: number) => (page === undefined ? ["notifications"] : ["notifications", page]) as readonly unknown[];

type NotificationPage = z.output<typeof MEMBER.notifications.response>;

export const useNotifications = (page: number) =>
  useQuery({
    queryKey: notificationsKey(page),
    queryFn: ({ signal }) => call(MEMBER.notifications, { query: { page }, signal }),
    placeholderData: keepPreviousData,
    // Polling stays as the fallback of the live stream.
    refetchInterval: 60_000,
  });

/**
 * The id of the newest notification the member was shown: the top of page 1 (of any page loaded,
 * should page 1 have left the cache). "Mark all as read" marks up to it only, so one that arrived
 * after the list was loaded stays unread.
 */
export function newestShownId(client: QueryClient): string | undefined {
  let newest: string | undefined;
  for (const [, page] of client.getQueriesData<NotificationPage>({ queryKey: notificationsKey() })) {
    const top = page?.items[0]?.id;
    if (top !== undefined && (newest === undefined || BigInt(top) > BigInt(newest))) newest = top;
  }
  return newest;
}

/**
 * Marks notifications read ({ids}, or {all: true} up to the newest shown); the bell's count comes
 * with the next GET /api/auth.
 */
export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (which: { ids: string[] } | { all: true }) => {
      const upTo = "all" in which ? newestShownId(client) : undefined;
      return call(MEMBER.notificationsRead, { body: upTo === undefined ? which : { ...which, upTo } });
    },
    onSuccess: () => refreshAfter(client, notificationsKey(), meKey),
  });
}
