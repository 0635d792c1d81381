import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { ADMIN } from "../../../../shared/contract/admin";
import type { withdrawalRequest } from "../../../../shared/contract/admin";
import type { Answer } from "../../../../shared/contract/wire";
import { call } from "../../../lib/api";
import { requestsKey, type RequestFilter } from "./requestKeys";

export type WithdrawalRequest = Answer<typeof withdrawalRequest>;

export const getWithdrawals = (filter: RequestFilter, signal?: AbortSignal) =>
  call(ADMIN.withdrawals, { query: filter, signal, quiet: true });

export const withdrawalsQuery = (filter: RequestFilter) =>
  queryOptions({ queryKey: requestsKey("withdrawals", filter), queryFn: ({ signal }) => getWithdrawals(filter, signal) });

export const useWithdrawals = (filter: RequestFilter) => useQuery({ ...withdrawalsQuery(filter), placeholderData: keepPreviousData });
