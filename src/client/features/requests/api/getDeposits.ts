import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api";
import { requestQueryString, requestsKey, type RequestFilter, type RequestStatus } from "./requestKeys";

export interface DepositRequest {
  _id: string;
  userEmail: string;
  userName: string;
  amount: number;
  address: string;
  transactionId: string;
  status: RequestStatus;
  createdAt: string;
}

export const getDeposits = (filter: RequestFilter, signal?: AbortSignal) =>
  api<DepositRequest[]>("GET", `/admin/deposits${requestQueryString(filter)}`, { signal, quiet: true });

export const depositsQuery = (filter: RequestFilter) =>
  queryOptions({ queryKey: requestsKey("deposits", filter), queryFn: ({ signal }) => getDeposits(filter, signal) });

export const useDeposits = (filter: RequestFilter) => useQuery({ ...depositsQuery(filter), placeholderData: keepPreviousData });
