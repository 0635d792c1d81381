import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { Provider } from "jotai";
import type { ReactNode } from "react";
import toast, { Toaster } from "react-hot-toast";
import { MemoryRouter } from "react-router";
import { meKey, type Me } from "../client/lib/me";
import * as z from "zod/mini";
import { SESSION } from "../shared/contract/session";
import { setToken, store } from "../client/lib/session";
import { resetConnection } from "../client/lib/connection";

/**
 * Renders a client component the way the app does (jotai store, React Query, router, toaster),
 * signed in as `me`. Import after "./dom" so the DOM exists.
 */
export function renderClient(ui: ReactNode, { me = makeMe() }: { me?: Me | null } = {}) {
  const client = new QueryClient({
    // Cached data stays fresh so a test sees exactly the answers it stubbed, once.
    defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } },
  });
  // react-hot-toast keeps toasts in module state; a previous test's must not show here.
  toast.remove();
  // The connection's state lives in the shared store: another test's outage must not show here.
  resetConnection();
  setToken(me ? "test-token" : null);
  if (me) client.setQueryData(meKey, me);
  const result = render(
    <Provider store={store}>
      <QueryClientProvider client={client}>
        <MemoryRouter>
          {ui}
          <Toaster />
        </MemoryRouter>
      </QueryClientProvider>
    </Provider>,
  );
  return { ...result, client };
}

const lockedLevels = () => Array.from({ length: 12 }, (_, i) => ({ level: i + 1, status: "locked" as const, cycles: 0, boxes: [] }));

export function makeMe(overrides: Partial<Me> = {}): Me {
  return {
    id: "u1",
    name: "Ada Lovelace",
    email: "ada@example.com",
    role: "user",
    balance: 10_000n,
    pendingWithdrawalsTotal: 0n,
    myReferralId: "ADA123",
    referredBy: "ROOT",
    packages: { "3p": { levels: lockedLevels() }, "6p": { levels: lockedLevels() } },
    totalPartners: 0,
    directPartners: 0,
    createdAt: new Date("2026-01-01T00:00:00.000Z"),
    ...overrides,
  };
}

/** `me` as GET /api/auth sends it (dollars, ISO dates, `_id`), for stubbed answers. */
export const wireMe = (me: Me) => z.encode(SESSION.me.response, me);
