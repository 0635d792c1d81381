import type { ReactNode } from "react";
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

export function DepositTable({ rows, caption, actions }: DepositTableProps) {
  return (
    <div className="card overflow-x-auto p-0">
      <table className="table min-w-[48rem]">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th className="th">Date</th>
            <th className="th">User</th>
            <th className="th text-right">Amount</th>
            <th className="th">From wallet</th>
            <th className="th">Transaction ID</th>
            <th className={`th ${actions ? "text-right" : ""}`}>{actions ? "Actions" : "Status"}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row._id}>
              <td className="td">
                <DateTime value={row.createdAt} />
              </td>
              <td className="td">
                <span className="block">{row.userName}</span>
                <span className="muted block text-xs">{row.userEmail}</span>
              </td>
              <td className="td-money">
                <Money value={row.amount} />
              </td>
              <td className="td max-w-[12rem] break-all font-mono text-xs">{row.address}</td>
              <td className="td max-w-[12rem] break-all font-mono text-xs">{row.transactionId}</td>
              <td className="td">{actions ? actions(row) : <StatusBadge status={row.status} />}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
