import { useState } from "react";
import { Pagination } from "../../components/Pagination";
import { QueryState } from "../../components/QueryState";
import { useTransactions } from "./api/getTransactions";
import { TransactionsTable } from "./TransactionsTable";

/** Every movement of the user's balance, newest first. */
export default function TransactionsPage() {
  const [page, setPage] = useState(1);
  const statement = useTransactions(page);
  return (
    <div className="flex flex-col gap-6">
      <h1 className="heading-gradient text-2xl font-bold">Transactions</h1>
      <QueryState
        query={statement}
        error="Could not load your transactions."
        empty="No transactions yet."
        isEmpty={(data) => data.transactions.length === 0}
        loadingLabel="Loading transactions..."
      >
        {(data) => (
          <div className={statement.isPlaceholderData ? "opacity-60" : ""}>
            <TransactionsTable rows={data.transactions} />
            <Pagination page={page} totalPages={data.totalPages} onChange={setPage} busy={statement.isPlaceholderData} />
          </div>
        )}
      </QueryState>
    </div>
  );
}
