import { useState } from "react";
import { useSearchText } from "../../lib/useSearchText";
import { useDeposits } from "./api/getDeposits";
import { useStepBack } from "./api/requestPage";
import { DepositTable } from "./DepositTable";
import { HistorySearch } from "./HistorySearch";
import { PagedRequests } from "./PagedRequests";

/** Admin: every deposit request with its status, searchable, a page at a time. */
export default function AdminDepositPage() {
  const { text, setText, search } = useSearchText();
  const [page, setPage] = useState(1);
  const deposits = useDeposits({ search, page });
  useStepBack(page, setPage, deposits.data);
  return (
    <div className="flex flex-col gap-6">
      <h1 className="heading-gradient text-2xl font-bold">Deposit History</h1>
      <HistorySearch
        value={text}
        onChange={(next) => {
          setText(next);
          setPage(1); // a new search starts on its first page
        }}
      />
      <PagedRequests
        query={deposits}
        page={page}
        onPage={setPage}
        noun={["deposit", "deposits"]}
        error="Failed to load deposit history."
        empty="No deposits found."
      >
        {(rows) => <DepositTable rows={rows} caption="Deposit history" />}
      </PagedRequests>
    </div>
  );
}
