import { useInfiniteQuery } from "@tanstack/react-query";
import { MEMBER } from "../../../../shared/contract/member";
import type { partnerPage } from "../../../../shared/contract/member";
import type { Answer } from "../../../../shared/contract/wire";
import { call } from "../../../lib/api";

export type PartnerPage = Answer<typeof partnerPage>;
export type Partner = PartnerPage["partners"][number];

/** ["partners"] reloads every branch; ["partners", id] is the direct partners of one member ("me": the caller's). */
export const partnersKey = (of?: string) => (of === undefined ? ["partners"] : ["partners", of]) as readonly unknown[];

/** A page of the direct partners of `of`, a member of the caller's team (the caller's own when absent). */
export const getPartners = (page: number, of?: string, signal?: AbortSignal) =>
  call(MEMBER.partners, { query: of === undefined ? { page } : { page, of }, signal, quiet: true });

/** One branch of the downline, read page after page ("Load more"); each branch has its own query. */
export const usePartnerBranch = (of?: string) =>
  useInfiniteQuery({
    queryKey: partnersKey(of ?? "me"),
    queryFn: ({ pageParam, signal }) => getPartners(pageParam, of, signal),
    initialPageParam: 1,
    getNextPageParam: (last: PartnerPage) => (last.page < last.totalPages ? last.page + 1 : undefined),
  });
