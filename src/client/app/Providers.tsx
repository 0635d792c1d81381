import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { Provider as JotaiProvider } from "jotai";
import type { ReactNode } from "react";
import { Toaster } from "react-hot-toast";
import { TOAST_MS } from "../../shared/constants";
import { store } from "../lib/session";
import { tokens } from "./toastStyle";

/** Everything the pages assume: the query cache, the session store and the toaster (top-right, 3 s). */
export function Providers({ client, children }: { client: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={client}>
      <JotaiProvider store={store}>
        {children}
        <Toaster position="top-right" toastOptions={{ duration: TOAST_MS, style: tokens.toast, success: { iconTheme: tokens.success }, error: { iconTheme: tokens.error } }} />
      </JotaiProvider>
    </QueryClientProvider>
  );
}
