import type { UseQueryResult } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { useSearchText } from "../../lib/useSearchText";
import type { RequestFilter } from "./api/requestKeys";
import { useStepBack, type RequestPage } from "./api/requestPage";
import { HistorySearch } from "./HistorySearch";
import { PagedRequests, type Noun } from "./PagedRequests";

interface HistoryPageProps<Row> {
  title: string;
  /** The list of one kind of request for a search and a page. */
  useRows: (filter: RequestFilter) => UseQueryResult<RequestPage<Row>>;
  noun: Noun;
  error: string;
  empty: string;
  table: (rows: Row[]) => ReactNode;
}

/** Admin: every request of one kind with its status, searchable, a page at a time. */
export function HistoryPage<Row>({ title, useRows, noun, error, empty, table }: HistoryPageProps<Row>) {
  const { text, setText, search } = useSearchText();
  const [page, setPage] = useState(1);
  const rows = useRows({ search, page });
  useStepBack(page, setPage, rows.data);
  return (
    <div className="flex flex-col gap-6">
      <h1 className="heading-gradient text-2xl font-bold">{title}</h1>
      <HistorySearch
        value={text}
        onChange={(next) => {
          setText(next);
          setPage(1); // a new search starts on its first page
        }}
      />
      <PagedRequests query={rows} page={page} onPage={setPage} noun={noun} error={error} empty={empty}>
        {table}
      </PagedRequests>
    </div>
  );
}
