import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { REQUEST_PAGE_SIZE } from "../../../shared/constants";
import { PagedQueryState } from "../../components/QueryState";
import type { RequestPage } from "./api/requestPage";

/** What the requests are called: one, and more than one ("pending deposit", "pending deposits"). */
export type Noun = readonly [one: string, many: string];

/** "Showing 51–100 of 120 deposits": which requests the page shows, and how many there are in all. */
export function pageSummary({ rows, page, total }: Pick<RequestPage<unknown>, "rows" | "page" | "total">, [one, many]: Noun): string {
  const counted = `${total.toLocaleString("en-US")} ${total === 1 ? one : many}`;
  if (rows.length === 0) return counted;
  const first = (page - 1) * REQUEST_PAGE_SIZE + 1;
  return `Showing ${first}–${first + rows.length - 1} of ${counted}`;
}

interface PagedRequestsProps<Row> {
  query: UseQueryResult<RequestPage<Row>>;
  page: number;
  onPage: (page: number) => void;
  noun: Noun;
  error: string;
  empty: string;
  children: (rows: Row[]) => ReactNode;
}

/** A page of an admin request list: how many in all above it, Previous / Next under it. */
export function PagedRequests<Row>({ query, page, onPage, noun, error, empty, children }: PagedRequestsProps<Row>) {
  return (
    <PagedQueryState query={query} page={page} onPage={onPage} error={error} empty={empty} isEmpty={(data) => data.total === 0}>
      {(data) => (
        <>
          <p className="muted m-0 mb-2 text-sm" aria-live="polite">
            {pageSummary(data, noun)}
          </p>
          {children(data.rows)}
        </>
      )}
    </PagedQueryState>
  );
}
