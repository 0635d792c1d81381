import { QueryClient } from "@tanstack/react-query";

/**
 * One client per app. Errors are already toasted by the API client, so queries do not retry
 * by default (a retry would toast twice); the current-user query sets its own retry of 1.
 */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: 0, staleTime: 15_000, refetchOnWindowFocus: true },
      mutations: { retry: 0 },
    },
  });
}
