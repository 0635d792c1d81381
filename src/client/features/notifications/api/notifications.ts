import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { MEMBER } from "../../../../shared/contract/member";
import { call } from "../../../lib/api";
import { meKey } from "../../../lib/me";
import { refreshAfter } from "../../../lib/refresh";

/** ["notifications"] reloads every page (the live stream invalidates it on each new one). */
export const notificationsKey = (page?: number) => (page === undefined ? ["notifications"] : ["notifications", page]) as readonly unknown[];

export const useNotifications = (page: number) =>
  useQuery({
    queryKey: notificationsKey(page),
    queryFn: ({ signal }) => call(MEMBER.notifications, { query: { page }, signal }),
    placeholderData: keepPreviousData,
    // Polling stays as the fallback of the live stream.
    refetchInterval: 60_000,
  });

/** Marks notifications read ({ids} or {all: true}); the bell's count comes with the next GET /api/auth. */
export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (which: { ids: string[] } | { all: true }) => call(MEMBER.notificationsRead, { body: which }),
    onSuccess: () => refreshAfter(client, notificationsKey(), meKey),
  });
}
