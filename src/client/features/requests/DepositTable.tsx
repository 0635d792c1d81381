import type { ReactNode } from "react";
import { DataTable, type Column } from "../../components/DataTable";
import { Money } from "../../components/Money";
import type { DepositRequest } from "./api/getDeposits";
import { LongId } from "../../components/LongText";
import { dateColumn, statusOrActions, userColumn } from "./columns";
import { ChainEvidence, DepositTransaction } from "./ChainEvidence";

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
    { header: "From wallet", cell: (row) => <LongId value={row.address} label="wallet address" /> },
    { header: "Transaction ID", cell: (row) => <DepositTransaction row={row} /> },
    { header: "On chain", cell: (row) => <ChainEvidence row={row} /> },
    statusOrActions(actions),
  ];
  return <DataTable caption={caption} rows={rows} rowKey={(row) => row.id} columns={columns} />;
}
