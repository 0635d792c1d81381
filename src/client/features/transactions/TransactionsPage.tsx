import { useSearchParams } from "react-router";
import { PagedQueryState } from "../../components/QueryState";
import { RequestsList } from "../../components/RequestsList";
import { useMyRequests } from "../myRequests/api/getMyRequests";
import { readFilter, useTransactions, type StatementFilter } from "./api/getTransactions";
import { StatementFilters } from "./StatementFilters";
import { TransactionsTable } from "../../components/TransactionsTable";

const readPage = (params: URLSearchParams) => {
  const page = Number(params.get("page"));
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
};

/**
 * Every movement of the user's balance, newest first, filtered by kind and days; then the
 * deposit and withdrawal requests, whatever their state. Filters and page live in the URL, so
 * a filtered statement can be reloaded, shared and gone back to.
 */
export default function TransactionsPage() {
  const [params, setParams] = useSearchParams();
  const filter = readFilter(params);
  const page = readPage(params);
  const backwards = Boolean(filter.from && filter.to && filter.from > filter.to);
  const statement = useTransactions(page, filter, !backwards);
  const requests = useMyRequests();

  const show = (next: StatementFilter, nextPage = 1) => {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(next)) if (value) search.set(name, value);
    if (nextPage > 1) search.set("page", String(nextPage));
    setParams(search, { replace: true });
  };
  const filtered = Boolean(filter.kind || filter.from || filter.to);

  return (
    <div className="flex flex-col gap-6">
      <h1 className="heading-gradient text-2xl font-bold">Transactions</h1>
      <StatementFilters filter={filter} onChange={(next) => show(next)} />
      {backwards ? (
        <p role="alert" className="card m-0 text-center text-declined">
          The From day is after the To day: no transaction can match.
        </p>
      ) : (
        <PagedQueryState
          query={statement}
          page={page}
          onPage={(next) => show(filter, next)}
          error="Could not load your transactions."
          empty={filtered ? "No transactions match these filters." : "No transactions yet."}
          isEmpty={(data) => data.transactions.length === 0}
          loadingLabel="Loading transactions..."
        >
          {(data) => <TransactionsTable rows={data.transactions} />}
        </PagedQueryState>
      )}
      <RequestsList query={requests} />
    </div>
  );
}
