import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api";

export interface SiteConfig {
  depositWalletAddress: string;
}

export const configKey = ["config"] as const;

export const getConfig = (signal?: AbortSignal) => api<SiteConfig>("GET", "/config", { signal, quiet: true });

// The address changes only with a redeploy; no need to refetch it on every focus.
export const configQuery = () => queryOptions({ queryKey: configKey, queryFn: ({ signal }) => getConfig(signal), staleTime: Infinity });

export const useConfig = () => useQuery(configQuery());
