import type { ReactNode } from "react";
import { DataTable, type Column } from "../../components/DataTable";
import { Money } from "../../components/Money";
import { estimateCents } from "../../lib/withdrawalEstimate";
import type { WithdrawalRequest } from "./api/getWithdrawals";
import { LongId } from "../../components/LongText";
import { dateColumn, statusOrActions, userColumn } from "./columns";

interface WithdrawalTableProps {
  rows: WithdrawalRequest[];
  caption: string;
  actions?: (row: WithdrawalRequest) => ReactNode;
}

/**
 * What the admin pays to the wallet: the amount minus the withdrawal fee (the recorded fee once
 * accepted, the estimate while pending); nothing for a declined request, which pays nothing.
 */
const toSend = (row: WithdrawalRequest) => (row.status === "declined" ? null : row.fee != null ? row.amount - row.fee : estimateCents(row.amount).receive);

export function WithdrawalTable({ rows, caption, actions }: WithdrawalTableProps) {
  const columns: Column<WithdrawalRequest>[] = [
    dateColumn(),
    userColumn(),
    { header: "Amount", numeric: true, cell: (row) => <Money value={row.amount} /> },
    {
      header: "To send",
      numeric: true,
      cell: (row) => {
        const cents = toSend(row);
        return cents === null ? <span className="muted">—</span> : <Money value={cents} />;
      },
    },
    { header: "Method", cell: (row) => <span className="whitespace-nowrap">{row.accountType}</span> },
    { header: "Wallet", cell: (row) => <LongId value={row.accountNumber} label="wallet address" /> },
    // The history: the payout's transaction ID, when the admin recorded it on accepting.
    ...(actions
      ? []
      : [{ header: "Payout transaction", cell: (row: WithdrawalRequest) => (row.payoutTransactionId ? <LongId value={row.payoutTransactionId} label="payout transaction ID" /> : <span className="muted">—</span>) }]),
    statusOrActions(actions),
  ];
  return <DataTable caption={caption} rows={rows} rowKey={(row) => row.id} columns={columns} />;
}
