import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { MEMBER, STATEMENT_KINDS } from "../../../../shared/contract/member";
import type { StatementKind, transactionPage } from "../../../../shared/contract/member";
import type { Answer } from "../../../../shared/contract/wire";
import { call } from "../../../lib/api";

export type TransactionKind = StatementKind;
/** Amounts in cents, signed: credits positive, debits negative. */
export type TransactionPage = Answer<typeof transactionPage>;
export type Transaction = TransactionPage["transactions"][number];

/** The statement's filters (`statementFilter` of src/shared/schemas.ts): one kind, days from and to (both included, in the browser's time zone: `withTimeZone`). */
export interface StatementFilter {
  kind?: StatementKind;
  /** YYYY-MM-DD */
  from?: string;
  /** YYYY-MM-DD */
  to?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isKind = (value: string | null): value is StatementKind => STATEMENT_KINDS.includes(value as StatementKind);

/** The filters written in a URL's search params; a value that is not one is left out. */
export function readFilter(params: URLSearchParams): StatementFilter {
  const kind = params.get("kind");
  const from = params.get("from");
  const to = params.get("to");
  return {
    ...(isKind(kind) ? { kind } : {}),
    ...(from && DAY.test(from) ? { from } : {}),
    ...(to && DAY.test(to) ? { to } : {}),
  };
}

/** ["transactions"] reloads every page of every filter (a purchase or a gift invalidates it). */
export const transactionsKey = (page?: number, filter: StatementFilter = {}) =>
  (page === undefined ? ["transactions"] : ["transactions", filter, page]) as readonly unknown[];

/**
 * The filter as the server reads it: the days with the browser's time zone, whose dates the
 * statement shows (the server reads days as UTC ones without it).
 */
export const withTimeZone = (filter: StatementFilter) =>
  filter.from || filter.to ? { ...filter, tz: Intl.DateTimeFormat().resolvedOptions().timeZone } : { ...filter };

export const getTransactions = (page: number, filter: StatementFilter = {}, signal?: AbortSignal) =>
  call(MEMBER.transactions, { query: { ...withTimeZone(filter), page }, signal, quiet: true });

export const transactionsQuery = (page: number, filter: StatementFilter = {}) =>
  queryOptions({ queryKey: transactionsKey(page, filter), queryFn: ({ signal }) => getTransactions(page, filter, signal) });

// The previous page stays on screen while the next loads, so the table does not jump.
export const useTransactions = (page: number, filter: StatementFilter = {}, enabled = true) =>
  useQuery({ ...transactionsQuery(page, filter), placeholderData: keepPreviousData, enabled });
