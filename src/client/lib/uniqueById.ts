/**
 * Rows in order, each id once (its first). For lists read page by page with offsets, newest
 * first: a row added between two reads pushes the last row of one page to the top of the next.
 */
export function uniqueById<Row extends { id: string }>(rows: Row[]): Row[] {
  const seen = new Set<string>();
  return rows.filter((row) => {
    if (seen.has(row.id)) return false;
    seen.add(row.id);
    return true;
  });
}
