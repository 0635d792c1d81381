import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { ProgramId } from "../../../../shared/constants";
import { MEMBER, type missedPage } from "../../../../shared/contract/member";
import type { Answer } from "../../../../shared/contract/wire";
import { call } from "../../../lib/api";

/** A page of the member's missed earnings: amounts in cents, dates as Date. */
export type MissedPage = Answer<typeof missedPage>;
export type MissedItem = MissedPage["items"][number];

/** Which missed earnings: all, one program's, or one level's. */
export interface MissedFilter {
  program?: ProgramId;
  level?: number;
}

export const missedKey = (filter: MissedFilter = {}, page?: number) =>
  (page === undefined ? ["me", "missed", filter] : ["me", "missed", filter, page]) as readonly unknown[];

export const getMissed = (page: number, { program, level }: MissedFilter, signal?: AbortSignal) =>
  call(MEMBER.missed, { query: { page, program, level }, signal, quiet: true });

/** One page at a time; the page shown stays (dimmed) while the next one loads. */
export const useMissed = (page: number, filter: MissedFilter) =>
  useQuery({
    queryKey: missedKey(filter, page),
    queryFn: ({ signal }) => getMissed(page, filter, signal),
    placeholderData: keepPreviousData,
  });
