import { useInfiniteQuery } from "@tanstack/react-query";
import { MEMBER } from "../../../../shared/contract/member";
import type { partnerPage } from "../../../../shared/contract/member";
import type { Answer } from "../../../../shared/contract/wire";
import { call } from "../../../lib/api";

export type PartnerPage = Answer<typeof partnerPage>;
export type Partner = PartnerPage["partners"][number];

/** ["partners"] reloads every branch; ["partners", id] is the direct partners of one member ("me": the caller's). */
export const partnersKey = (of?: string) => (of === undefined ? ["partners"] : ["partners", of]) as readonly unknown[];

/** Which page: its number, and the last partner of the page before (the server then pages from there). */
export interface PartnersPageParam {
  page: number;
  after?: string;
}

/** A page of the direct partners of `of`, a member of the caller's team (the caller's own when absent). */
export const getPartners = ({ page, after }: PartnersPageParam, of?: string, signal?: AbortSignal) =>
  call(MEMBER.partners, { query: { page, ...(of === undefined ? {} : { of }), ...(after === undefined ? {} : { after }) }, signal, quiet: true });

/**
 * One branch of the downline, read page after page ("Load more"); each branch has its own query.
 * Each page after the first starts after the last partner shown, so partners who join or leave in
 * between are neither missed nor shown twice.
 */
export const usePartnerBranch = (of?: string) =>
  useInfiniteQuery({
    queryKey: partnersKey(of ?? "me"),
    queryFn: ({ pageParam, signal }) => getPartners(pageParam, of, signal),
    initialPageParam: { page: 1 } as PartnersPageParam,
    getNextPageParam: (last: PartnerPage): PartnersPageParam | undefined => {
      const lastShown = last.partners.at(-1);
      // hasMore, not page < totalPages: the count may have dropped since the first page.
      return last.hasMore && lastShown ? { page: last.page + 1, after: lastShown.id } : undefined;
    },
  });
