import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { WithdrawalMethod } from "../../../../shared/constants";
import { api } from "../../../lib/api";
import { requestQueryString, requestsKey, type RequestFilter, type RequestStatus } from "./requestKeys";

export interface WithdrawalRequest {
  _id: string;
  userEmail: string;
  userName: string;
  amount: number;
  /** Set once accepted: the 8% kept by the system. */
  fee: number | null;
  accountType: WithdrawalMethod;
  accountNumber: string;
  status: RequestStatus;
  createdAt: string;
}

export const getWithdrawals = (filter: RequestFilter, signal?: AbortSignal) =>
  api<WithdrawalRequest[]>("GET", `/admin/withdrawals${requestQueryString(filter)}`, { signal, quiet: true });

export const withdrawalsQuery = (filter: RequestFilter) =>
  queryOptions({ queryKey: requestsKey("withdrawals", filter), queryFn: ({ signal }) => getWithdrawals(filter, signal) });

export const useWithdrawals = (filter: RequestFilter) => useQuery({ ...withdrawalsQuery(filter), placeholderData: keepPreviousData });
