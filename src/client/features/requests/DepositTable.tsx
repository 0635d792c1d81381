import type { ReactNode } from "react";
import { DataTable, type Column } from "../../components/DataTable";
import { DateTime } from "../../components/DateTime";
import { Money } from "../../components/Money";
import { StatusBadge } from "../../components/StatusBadge";
import type { DepositRequest } from "./api/getDeposits";

interface DepositTableProps {
  rows: DepositRequest[];
  caption: string;
  /** The dashboard adds Accept/Decline; the history shows the status instead. */
  actions?: (row: DepositRequest) => ReactNode;
}

const mono = (text: string) => <span className="break-all font-mono text-xs">{text}</span>;

export function DepositTable({ rows, caption, actions }: DepositTableProps) {
  const columns: Column<DepositRequest>[] = [
    { header: "Date", cell: (row) => <DateTime value={row.createdAt} /> },
    {
      header: "User",
      cell: (row) => (
        <>
          <span className="block">{row.userName}</span>
          <span className="muted block break-all text-xs">{row.userEmail}</span>
        </>
      ),
    },
    { header: "Amount", numeric: true, cell: (row) => <Money value={row.amount} /> },
    { header: "From wallet", cell: (row) => mono(row.address) },
    { header: "Transaction ID", cell: (row) => mono(row.transactionId) },
    actions ? { header: "Actions", end: true, cell: actions } : { header: "Status", cell: (row) => <StatusBadge status={row.status} /> },
  ];
  return <DataTable caption={caption} rows={rows} rowKey={(row) => row._id} columns={columns} />;
}
