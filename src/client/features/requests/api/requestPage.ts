import { useEffect } from "react";
import { REQUEST_PAGE_SIZE, TOTAL_COUNT_HEADER } from "../../../../shared/constants";

/** One page of an admin request list, and how many requests match in all (the X-Total-Count header). */
export interface RequestPage<Row> {
  rows: Row[];
  page: number;
  total: number;
  totalPages: number;
}

/**
 * Reads one page of a request list: `fetchRows` makes the call and hands its response to the
 * callback, which takes the total from the header. Without the header (an earlier server, which
 * answered every request at once) what arrived is all there is.
 */
export async function readRequestPage<Row>(page: number, fetchRows: (onResponse: (response: Response) => void) => Promise<Row[]>): Promise<RequestPage<Row>> {
  let header: string | null = null;
  const rows = await fetchRows((response) => (header = response.headers.get(TOTAL_COUNT_HEADER)));
  const counted = header === null ? Number.NaN : Number(header);
  const total = Number.isInteger(counted) && counted >= 0 ? counted : (page - 1) * REQUEST_PAGE_SIZE + rows.length;
  return { rows, page, total, totalPages: Math.max(1, Math.ceil(total / REQUEST_PAGE_SIZE)) };
}

/**
 * When a list shrinks under the page shown (requests decided, here or elsewhere) and that page is
 * past the new last one, steps back to the last one.
 */
export function useStepBack(page: number, setPage: (page: number) => void, data: { totalPages: number } | undefined) {
  useEffect(() => {
    if (data && page > data.totalPages) setPage(data.totalPages);
  }, [page, setPage, data]);
}
