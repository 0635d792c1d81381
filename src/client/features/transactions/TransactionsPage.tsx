import { useState } from "react";
import { PagedQueryState } from "../../components/QueryState";
import { useTransactions } from "./api/getTransactions";
import { TransactionsTable } from "./TransactionsTable";

/** Every movement of the user's balance, newest first. */
export default function TransactionsPage() {
  const [page, setPage] = useState(1);
  const statement = useTransactions(page);
  return (
    <div className="flex flex-col gap-6">
      <h1 className="heading-gradient text-2xl font-bold">Transactions</h1>
      <PagedQueryState
        query={statement}
        page={page}
        onPage={setPage}
        error="Could not load your transactions."
        empty="No transactions yet."
        isEmpty={(data) => data.transactions.length === 0}
        loadingLabel="Loading transactions..."
      >
        {(data) => <TransactionsTable rows={data.transactions} />}
      </PagedQueryState>
    </div>
  );
}
