import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { EmptyState } from "./EmptyState";
import { ErrorState } from "./ErrorState";
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
