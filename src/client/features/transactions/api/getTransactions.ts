import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { ProgramId } from "../../../../shared/constants";
import { api } from "../../../lib/api";

export type TransactionKind = "deposit" | "withdrawal" | "fee" | "gift_in" | "gift_out" | "purchase" | "unfreeze" | "earning" | "pass_up";

export interface Transaction {
  id: string;
  createdAt: string;
  kind: TransactionKind;
  /** Signed dollars: credits positive, debits negative. */
  amount: number;
  counterparty: { name: string } | null;
  balanceAfter: number;
  program: ProgramId | null;
  level: number | null;
}

export interface TransactionPage {
  transactions: Transaction[];
  page: number;
  totalPages: number;
}

export const transactionsKey = (page?: number) => (page === undefined ? ["transactions"] : ["transactions", page]) as readonly unknown[];

export const getTransactions = (page: number, signal?: AbortSignal) =>
  api<TransactionPage>("GET", `/user/transactions?page=${page}`, { signal, quiet: true });

export const transactionsQuery = (page: number) =>
  queryOptions({ queryKey: transactionsKey(page), queryFn: ({ signal }) => getTransactions(page, signal) });

// The previous page stays on screen while the next loads, so the table does not jump.
export const useTransactions = (page: number) => useQuery({ ...transactionsQuery(page), placeholderData: keepPreviousData });
