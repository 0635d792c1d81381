import type { ReactNode } from "react";
import { DataTable, type Column } from "../../components/DataTable";
import { DateTime } from "../../components/DateTime";
import { Money } from "../../components/Money";
import { StatusBadge } from "../../components/StatusBadge";
import { estimateWithdrawal } from "../withdraw/estimate";
import type { WithdrawalRequest } from "./api/getWithdrawals";

interface WithdrawalTableProps {
  rows: WithdrawalRequest[];
  caption: string;
  actions?: (row: WithdrawalRequest) => ReactNode;
}

/** What the admin pays to the wallet: the amount minus the 8% fee (the recorded fee once accepted). */
const toSend = (row: WithdrawalRequest) => (row.fee != null ? row.amount - row.fee : (estimateWithdrawal(String(row.amount))?.receive ?? 0));

export function WithdrawalTable({ rows, caption, actions }: WithdrawalTableProps) {
  const columns: Column<WithdrawalRequest>[] = [
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
    { header: "To send", numeric: true, cell: (row) => <Money value={toSend(row)} /> },
    { header: "Method", cell: (row) => <span className="whitespace-nowrap">{row.accountType}</span> },
    { header: "Wallet", cell: (row) => <span className="break-all font-mono text-xs">{row.accountNumber}</span> },
    actions ? { header: "Actions", end: true, cell: actions } : { header: "Status", cell: (row) => <StatusBadge status={row.status} /> },
  ];
  return <DataTable caption={caption} rows={rows} rowKey={(row) => row._id} columns={columns} />;
}
