import { useState } from "react";
import { useSearchText } from "../../lib/useSearchText";
import { useWithdrawals } from "./api/getWithdrawals";
import { useStepBack } from "./api/requestPage";
import { HistorySearch } from "./HistorySearch";
import { PagedRequests } from "./PagedRequests";
import { WithdrawalTable } from "./WithdrawalTable";

/** Admin: every withdrawal request with its status, searchable, a page at a time. */
export default function AdminWithdrawPage() {
  const { text, setText, search } = useSearchText();
  const [page, setPage] = useState(1);
  const withdrawals = useWithdrawals({ search, page });
  useStepBack(page, setPage, withdrawals.data);
  return (
    <div className="flex flex-col gap-6">
      <h1 className="heading-gradient text-2xl font-bold">Withdrawal History</h1>
      <HistorySearch
        value={text}
        onChange={(next) => {
          setText(next);
          setPage(1); // a new search starts on its first page
        }}
      />
      <PagedRequests
        query={withdrawals}
        page={page}
        onPage={setPage}
        noun={["withdrawal", "withdrawals"]}
        error="Failed to load withdrawal history."
        empty="No withdrawals found."
      >
        {(rows) => <WithdrawalTable rows={rows} caption="Withdrawal history" />}
      </PagedRequests>
    </div>
  );
}
