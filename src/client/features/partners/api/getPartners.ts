import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api";

export interface Partner {
  _id: string;
  name: string;
  joinedAt: string;
  /** That partner's own team size. */
  partners: number;
}

export interface PartnerPage {
  partners: Partner[];
  page: number;
  totalPages: number;
  directPartners: number;
  totalPartners: number;
}

export const partnersKey = (page?: number) => (page === undefined ? ["partners"] : ["partners", page]) as readonly unknown[];

export const getPartners = (page: number, signal?: AbortSignal) =>
  api<PartnerPage>("GET", `/user/partners?page=${page}`, { signal, quiet: true });

export const partnersQuery = (page: number) =>
  queryOptions({ queryKey: partnersKey(page), queryFn: ({ signal }) => getPartners(page, signal) });

export const usePartners = (page: number) => useQuery({ ...partnersQuery(page), placeholderData: keepPreviousData });
