import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { ProgramId } from "../../../../shared/constants";
import { ADMIN, type memberRecord } from "../../../../shared/contract/admin";
import type { Answer } from "../../../../shared/contract/wire";
import { STATEMENT_PAGE_SIZE, TOTAL_COUNT_HEADER } from "../../../../shared/constants";
import { call } from "../../../lib/api";

export type MemberRecord = Answer<typeof memberRecord>;
export type MemberLevel = MemberRecord["programs"][ProgramId][number];

/** Every query of one member's record: ["admin", "member", id, ...] (refreshed with the other admin queries). */
export const memberKey = (id: string, ...rest: unknown[]) => ["admin", "member", id, ...rest] as readonly unknown[];

export const useMemberRecord = (id: string) =>
  useQuery({ queryKey: memberKey(id, "record"), queryFn: ({ signal }) => call(ADMIN.memberRecord, { params: { id }, signal, quiet: true }) });

/** The lists of a record, by the name of their endpoint. */
export const MEMBER_LISTS = {
  transactions: ADMIN.memberTransactions,
  missed: ADMIN.memberMissed,
  requests: ADMIN.memberRequests,
  partners: ADMIN.memberPartners,
  audit: ADMIN.memberAudit,
} as const;
export type MemberList = keyof typeof MEMBER_LISTS;
export type MemberRow<L extends MemberList> = Answer<(typeof MEMBER_LISTS)[L]["response"]>[number];

/** One page of a list and the rows in all (X-Total-Count), as PagedQueryState reads a page. */
export interface MemberListPage<Row> {
  rows: Row[];
  total: number;
  totalPages: number;
}

/** Rows a page: the member's own pages show as many. */
export const MEMBER_PAGE_SIZE = STATEMENT_PAGE_SIZE;

async function getList<L extends MemberList>(list: L, id: string, page: number, signal?: AbortSignal): Promise<MemberListPage<MemberRow<L>>> {
  let header: string | null = null;
  const endpoint = MEMBER_LISTS[list] as (typeof MEMBER_LISTS)["audit"];
  const rows = (await call(endpoint, {
    params: { id },
    query: { page, limit: MEMBER_PAGE_SIZE },
    signal,
    quiet: true,
    onResponse: (response) => (header = response.headers.get(TOTAL_COUNT_HEADER)),
  })) as MemberRow<L>[];
  // The server always counts; without the header, what arrived up to this page is what is known.
  const counted = header === null ? Number.NaN : Number(header);
  const total = Number.isInteger(counted) && counted >= 0 ? counted : (page - 1) * MEMBER_PAGE_SIZE + rows.length;
  return { rows, total, totalPages: Math.max(1, Math.ceil(total / MEMBER_PAGE_SIZE)) };
}

/** A page of one of the member's lists; the page shown stays (dimmed) while the next loads. */
export const useMemberList = <L extends MemberList>(list: L, id: string, page: number) =>
  useQuery({
    queryKey: memberKey(id, list, page),
    queryFn: ({ signal }) => getList(list, id, page, signal),
    placeholderData: keepPreviousData,
  });

/** The member's matrix at a level: `cycle` over the level's whole life, the current one when undefined. */
export const useMemberMatrix = (id: string, program: ProgramId, level: number, cycle: number | undefined) =>
  useQuery({
    queryKey: memberKey(id, "matrix", program, level, cycle ?? "current"),
    queryFn: ({ signal }) =>
      call(ADMIN.memberMatrix, { params: { id, program, level }, query: cycle === undefined ? undefined : { cycle }, signal, quiet: true }),
    // Another cycle of the same level keeps the one shown until it arrives.
    placeholderData: (previous) => (previous?.program === program && previous.level === level ? previous : undefined),
  });
