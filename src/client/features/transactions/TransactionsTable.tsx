import { DateTime } from "../../components/DateTime";
import { Money } from "../../components/Money";
import type { Transaction } from "./api/getTransactions";
import { kindLabel } from "./kinds";

/** The statement: one row per ledger entry, signed amount and the balance it left. */
export function TransactionsTable({ rows }: { rows: Transaction[] }) {
  return (
    <div className="card overflow-x-auto p-0">
      <table className="table min-w-[40rem]">
        <caption className="sr-only">Your transactions, newest first</caption>
        <thead>
          <tr>
            <th className="th">Date</th>
            <th className="th">Type</th>
            <th className="th">With</th>
            <th className="th text-right">Amount</th>
            <th className="th text-right">Balance after</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <td className="td">
                <DateTime value={row.createdAt} />
              </td>
              <td className="td">
                <span className="block">{kindLabel(row.kind)}</span>
                {row.program && row.level !== null && (
                  <span className="muted block text-xs">
                    {row.program.toUpperCase()} · Level {row.level}
                  </span>
                )}
              </td>
              <td className="td">{row.counterparty?.name || <span className="muted">—</span>}</td>
              <td className="td-money">
                {/* The sign is written out: colour alone must not tell credit from debit. */}
                <Money value={row.amount} signed className={row.amount >= 0 ? "text-figure-green" : "text-declined"} />
              </td>
              <td className="td-money">
                <Money value={row.balanceAfter} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
