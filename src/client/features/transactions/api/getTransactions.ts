import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { MEMBER } from "../../../../shared/contract/member";
import type { StatementKind, transactionPage } from "../../../../shared/contract/member";
import type { Answer } from "../../../../shared/contract/wire";
import { call } from "../../../lib/api";

export type TransactionKind = StatementKind;
/** Amounts in cents, signed: credits positive, debits negative. */
export type TransactionPage = Answer<typeof transactionPage>;
export type Transaction = TransactionPage["transactions"][number];

export const transactionsKey = (page?: number) => (page === undefined ? ["transactions"] : ["transactions", page]) as readonly unknown[];

export const getTransactions = (page: number, signal?: AbortSignal) =>
  call(MEMBER.transactions, { query: { page }, signal, quiet: true });

export const transactionsQuery = (page: number) =>
  queryOptions({ queryKey: transactionsKey(page), queryFn: ({ signal }) => getTransactions(page, signal) });

// The previous page stays on screen while the next loads, so the table does not jump.
export const useTransactions = (page: number) => useQuery({ ...transactionsQuery(page), placeholderData: keepPreviousData });
