import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { EARNINGS_DAYS } from "../../../../shared/constants";
import { MEMBER, type earnings } from "../../../../shared/contract/member";
import type { Answer } from "../../../../shared/contract/wire";
import { call } from "../../../lib/api";

/** Earned and missed per day (UTC) in cents, the totals of those days and of the member's whole history. */
export type Earnings = Answer<typeof earnings>;
export type EarningsDay = Earnings["days"][number];

/** The spans the page offers; the profile reads the default one, so both share one answer. */
export const EARNINGS_RANGES = [7, 30, 90] as const;
export { EARNINGS_DAYS };

export const earningsKey = (days: number) => ["earnings", days] as const;

export const getEarnings = (days: number, signal?: AbortSignal) => call(MEMBER.earnings, { query: { days }, signal, quiet: true });

export const useEarnings = (days: number = EARNINGS_DAYS) =>
  useQuery({ queryKey: earningsKey(days), queryFn: ({ signal }) => getEarnings(days, signal), placeholderData: keepPreviousData });
