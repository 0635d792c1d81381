import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { ADMIN } from "../../../../shared/contract/admin";
import type { withdrawalRequest } from "../../../../shared/contract/admin";
import type { Answer } from "../../../../shared/contract/wire";
import { REQUEST_PAGE_SIZE } from "../../../../shared/constants";
import { call } from "../../../lib/api";
import { readRequestPage } from "./requestPage";
import { requestsKey, type RequestFilter } from "./requestKeys";

export type WithdrawalRequest = Answer<typeof withdrawalRequest>;

/** One page of withdrawals (REQUEST_PAGE_SIZE), newest first, with the number that match in all. */
export const getWithdrawals = ({ page = 1, ...filter }: RequestFilter, signal?: AbortSignal) =>
  readRequestPage(page, (onResponse) =>
    call(ADMIN.withdrawals, { query: { ...filter, page, limit: REQUEST_PAGE_SIZE }, signal, quiet: true, onResponse }),
  );

export const withdrawalsQuery = (filter: RequestFilter) =>
  queryOptions({ queryKey: requestsKey("withdrawals", filter), queryFn: ({ signal }) => getWithdrawals(filter, signal) });

export const useWithdrawals = (filter: RequestFilter) => useQuery({ ...withdrawalsQuery(filter), placeholderData: keepPreviousData });
