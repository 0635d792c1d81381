import type { ReactNode } from "react";
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

/** "To send" is what the admin pays to the wallet: the amount minus the 8% fee. */
const toSend = (row: WithdrawalRequest) => (row.fee != null ? row.amount - row.fee : (estimateWithdrawal(String(row.amount))?.receive ?? 0));

export function WithdrawalTable({ rows, caption, actions }: WithdrawalTableProps) {
  return (
    <div className="card overflow-x-auto p-0">
      <table className="table min-w-[52rem]">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th className="th">Date</th>
            <th className="th">User</th>
            <th className="th text-right">Amount</th>
            <th className="th text-right">To send</th>
            <th className="th">Method</th>
            <th className="th">Wallet</th>
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
              <td className="td-money">
                <Money value={toSend(row)} />
              </td>
              <td className="td whitespace-nowrap">{row.accountType}</td>
              <td className="td max-w-[14rem] break-all font-mono text-xs">{row.accountNumber}</td>
              <td className="td">{actions ? actions(row) : <StatusBadge status={row.status} />}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
