import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { MEMBER } from "../../../../shared/contract/member";
import type { partnerPage } from "../../../../shared/contract/member";
import type { Answer } from "../../../../shared/contract/wire";
import { call } from "../../../lib/api";

export type PartnerPage = Answer<typeof partnerPage>;
export type Partner = PartnerPage["partners"][number];

export const partnersKey = (page?: number) => (page === undefined ? ["partners"] : ["partners", page]) as readonly unknown[];

export const getPartners = (page: number, signal?: AbortSignal) =>
  call(MEMBER.partners, { query: { page }, signal, quiet: true });

export const partnersQuery = (page: number) =>
  queryOptions({ queryKey: partnersKey(page), queryFn: ({ signal }) => getPartners(page, signal) });

export const usePartners = (page: number) => useQuery({ ...partnersQuery(page), placeholderData: keepPreviousData });
