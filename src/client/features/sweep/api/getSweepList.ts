import { useQuery } from "@tanstack/react-query";
import { ADMIN, type sweepItem } from "../../../../shared/contract/admin";
import type { Answer } from "../../../../shared/contract/wire";
import { call } from "../../../lib/api";

export type SweepItem = Answer<typeof sweepItem>;

export const sweepKey = ["admin", "sweep"] as const;

export const getSweepList = (signal?: AbortSignal) => call(ADMIN.sweepList, { signal, quiet: true });

/** The members' addresses holding USDT credited since each was last marked swept, largest first. */
export const useSweepList = () => useQuery({ queryKey: sweepKey, queryFn: ({ signal }) => getSweepList(signal) });
