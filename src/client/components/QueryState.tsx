import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { EmptyState } from "./EmptyState";
import { ErrorState } from "./ErrorState";
import { Pagination } from "./Pagination";
import { Spinner } from "./Spinner";

interface QueryStateProps<T> {
  query: UseQueryResult<T>;
  /** The spec's load-failure sentence. */
  error: string;
  errorTitle?: string;
  /** The spec's empty-list sentence. */
  empty: string;
  isEmpty: (data: T) => boolean;
  loadingLabel?: string;
  children: (data: T) => ReactNode;
}

/** Every list's three other states (loading, error, empty) in one place, so no page forgets one. */
export function QueryState<T>({ query, error, errorTitle, empty, isEmpty, loadingLabel, children }: QueryStateProps<T>) {
  if (query.isPending) return <Spinner label={loadingLabel} />;
  if (query.isError) return <ErrorState title={errorTitle} message={error} onRetry={() => void query.refetch()} />;
  if (isEmpty(query.data)) return <EmptyState message={empty} />;
  return <>{children(query.data)}</>;
}

interface PagedQueryStateProps<T extends { totalPages: number }> extends QueryStateProps<T> {
  page: number;
  onPage: (page: number) => void;
}

/**
 * A paged list: QueryState, then the page with the pager under it. While the next page loads
 * (the query keeps the previous data) the page is dimmed and the pager waits.
 */
export function PagedQueryState<T extends { totalPages: number }>({ page, onPage, children, ...state }: PagedQueryStateProps<T>) {
  const loadingNext = state.query.isPlaceholderData;
  return (
    <QueryState {...state}>
      {(data) => (
        <div className={loadingNext ? "opacity-60" : ""}>
          {children(data)}
          <Pagination page={page} totalPages={data.totalPages} onChange={onPage} busy={loadingNext} />
        </div>
      )}
    </QueryState>
  );
}
