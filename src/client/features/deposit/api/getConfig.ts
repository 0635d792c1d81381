import { queryOptions, useQuery } from "@tanstack/react-query";
import { PUBLIC } from "../../../../shared/contract/public";
import type { depositNetwork, siteConfig } from "../../../../shared/contract/public";
import type { Answer } from "../../../../shared/contract/wire";
import { call } from "../../../lib/api";

export type SiteConfig = Answer<typeof siteConfig>;
export type DepositNetwork = Answer<typeof depositNetwork>;

export const configKey = ["config"] as const;

export const getConfig = (signal?: AbortSignal) => call(PUBLIC.config, { signal, quiet: true });

// The addresses change only with a redeploy; no need to refetch them on every focus.
export const configQuery = () => queryOptions({ queryKey: configKey, queryFn: ({ signal }) => getConfig(signal), staleTime: Infinity });

export const useConfig = () => useQuery(configQuery());
