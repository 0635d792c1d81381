import type { ReactNode } from "react";
import { DataTable, type Column } from "../../components/DataTable";
import { Money } from "../../components/Money";
import type { DepositRequest } from "./api/getDeposits";
import { dateColumn, mono, statusOrActions, userColumn } from "./columns";

interface DepositTableProps {
  rows: DepositRequest[];
  caption: string;
  /** The dashboard adds Accept/Decline; the history shows the status instead. */
  actions?: (row: DepositRequest) => ReactNode;
}

export function DepositTable({ rows, caption, actions }: DepositTableProps) {
  const columns: Column<DepositRequest>[] = [
    dateColumn(),
    userColumn(),
    { header: "Amount", numeric: true, cell: (row) => <Money value={row.amount} /> },
    { header: "From wallet", cell: (row) => mono(row.address) },
    { header: "Transaction ID", cell: (row) => mono(row.transactionId) },
    statusOrActions(actions),
  ];
  return <DataTable caption={caption} rows={rows} rowKey={(row) => row._id} columns={columns} />;
}
