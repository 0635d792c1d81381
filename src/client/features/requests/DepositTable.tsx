import type { ReactNode } from "react";
import { DataTable, type Column } from "../../components/DataTable";
import { Money } from "../../components/Money";
import type { DepositRequest } from "./api/getDeposits";
import { LongId } from "../../components/LongText";
import { dateColumn, statusOrActions, userColumn } from "./columns";
import { ChainEvidence, DepositTransaction } from "./ChainEvidence";
import { chainAmountBeyond } from "../../lib/chainAmount";

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
    { header: "Amount", numeric: true, cell: (row) => <DepositAmount row={row} /> },
    { header: "From wallet", cell: (row) => <Wallets row={row} /> },
    { header: "Transaction ID", cell: (row) => <DepositTransaction row={row} /> },
    { header: "On chain", cell: (row) => <ChainEvidence row={row} /> },
    statusOrActions(actions),
  ];
  return <DataTable caption={caption} rows={rows} rowKey={(row) => row.id} columns={columns} />;
}

/** The credited whole cents, and the exact amount on chain when it says more ("10.005"). */
function DepositAmount({ row }: { row: DepositRequest }) {
  const exact = chainAmountBeyond(row.chainAmount, row.amount);
  return (
    <>
      <Money value={row.amount} className="block" />
      {exact && <span className="muted block text-xs">{exact} USDT on chain</span>}
    </>
  );
}

/** The sender, and for a transfer to a member's own address, that address (what the operator sweeps). */
function Wallets({ row }: { row: DepositRequest }) {
  return (
    <span className="flex flex-col gap-1">
      <LongId value={row.address} label="wallet address" />
      {row.toAddress && (
        <span className="flex flex-col gap-0.5">
          <span className="muted text-xs">To the member's address</span>
          <LongId value={row.toAddress} label="member's deposit address" />
        </span>
      )}
    </span>
  );
}
