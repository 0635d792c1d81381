import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { ADMIN } from "../../../../shared/contract/admin";
import type { depositRequest } from "../../../../shared/contract/admin";
import type { Answer } from "../../../../shared/contract/wire";
import { call } from "../../../lib/api";
import { requestsKey, type RequestFilter } from "./requestKeys";

export type DepositRequest = Answer<typeof depositRequest>;

export const getDeposits = (filter: RequestFilter, signal?: AbortSignal) =>
  call(ADMIN.deposits, { query: filter, signal, quiet: true });

export const depositsQuery = (filter: RequestFilter) =>
  queryOptions({ queryKey: requestsKey("deposits", filter), queryFn: ({ signal }) => getDeposits(filter, signal) });

export const useDeposits = (filter: RequestFilter) => useQuery({ ...depositsQuery(filter), placeholderData: keepPreviousData });
