import { DataTable, type Column } from "./DataTable";
import { DateTime } from "./DateTime";
import { Money } from "./Money";
import type { Transaction } from "../features/transactions/api/getTransactions";
import { transactionLabel } from "../features/transactions/kinds";

const columns: Column<Transaction>[] = [
  { header: "Date", cell: (row) => <DateTime value={row.createdAt} /> },
  {
    header: "Type",
    cell: (row) => (
      <>
        <span className="block">{transactionLabel(row)}</span>
        {row.program && row.level !== null && (
          <span className="muted block text-xs">
            {row.program.toUpperCase()} · Level {row.level}
          </span>
        )}
      </>
    ),
  },
  { header: "With", cell: (row) => row.counterparty?.name || <span className="muted">—</span> },
  {
    header: "Amount",
    numeric: true,
    // The sign is written out: colour alone must not tell credit from debit.
    cell: (row) => <Money value={row.amount} signed className={row.amount >= 0 ? "text-figure-green" : "text-declined"} />,
  },
  { header: "Balance after", numeric: true, cell: (row) => <Money value={row.balanceAfter} /> },
];

/** The statement: one row per ledger entry, signed amount and the balance it left. */
export function TransactionsTable({ rows, caption = "Your transactions, newest first" }: { rows: Transaction[]; caption?: string }) {
  return <DataTable caption={caption} rows={rows} rowKey={(row) => row.id} columns={columns} />;
}
