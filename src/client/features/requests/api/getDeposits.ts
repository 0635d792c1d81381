import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { ADMIN } from "../../../../shared/contract/admin";
import type { depositRequest } from "../../../../shared/contract/admin";
import type { Answer } from "../../../../shared/contract/wire";
import { REQUEST_PAGE_SIZE } from "../../../../shared/constants";
import { call } from "../../../lib/api";
import { readRequestPage } from "./requestPage";
import { requestsKey, type RequestFilter } from "./requestKeys";

export type DepositRequest = Answer<typeof depositRequest>;

/** One page of deposits (REQUEST_PAGE_SIZE), newest first, with the number that match in all. */
export const getDeposits = ({ page = 1, ...filter }: RequestFilter, signal?: AbortSignal) =>
  readRequestPage(page, (onResponse) =>
    call(ADMIN.deposits, { query: { ...filter, page, limit: REQUEST_PAGE_SIZE }, signal, quiet: true, onResponse }),
  );

export const depositsQuery = (filter: RequestFilter) =>
  queryOptions({ queryKey: requestsKey("deposits", filter), queryFn: ({ signal }) => getDeposits(filter, signal) });

export const useDeposits = (filter: RequestFilter) => useQuery({ ...depositsQuery(filter), placeholderData: keepPreviousData });
