import type { ReactNode } from "react";

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** Money and counts: right-aligned, tabular figures. */
  numeric?: boolean;
  /** Right-aligned without being a figure (row actions). */
  end?: boolean;
}

interface DataTableProps<T> {
  caption: string;
  rows: T[];
  rowKey: (row: T) => string;
  columns: Column<T>[];
}

/**
 * A table from md up; below that each row becomes a card of "label  value" lines, so phones
 * get readable records instead of a sideways-scrolling grid. One DOM for both: the labels are
 * display:none on wide screens (so not read twice), the header row on narrow ones.
 */
export function DataTable<T>({ caption, rows, rowKey, columns }: DataTableProps<T>) {
  return (
    <div className="md:card md:overflow-x-auto md:p-0">
      <table className="table block md:[display:table]">
        <caption className="sr-only">{caption}</caption>
        <thead className="hidden md:table-header-group">
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col" className={`th ${column.numeric || column.end ? "text-right" : ""}`}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="flex flex-col gap-3 md:table-row-group">
          {rows.map((row) => (
            <tr
              key={rowKey(row)}
              className="card flex flex-col gap-2 md:table-row md:rounded-none md:border-0 md:bg-transparent md:p-0 md:shadow-none"
            >
              {columns.map((column) => (
                <td
                  key={column.header}
                  className={`flex items-start justify-between gap-4 md:table-cell ${column.numeric ? "md:td-money" : "md:td"}`}
                >
                  <span className="muted shrink-0 text-xs font-semibold uppercase tracking-wide md:hidden">{column.header}</span>
                  <span className={`min-w-0 text-right ${column.numeric ? "tabular-nums" : column.end ? "" : "md:text-left"}`}>{column.cell(row)}</span>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
