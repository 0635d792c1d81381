import { QueryState } from "../../components/QueryState";
import { useSearchText } from "../../lib/useSearchText";
import { useWithdrawals } from "./api/getWithdrawals";
import { HistorySearch } from "./HistorySearch";
import { WithdrawalTable } from "./WithdrawalTable";

/** Admin: every withdrawal request with its status, searchable. */
export default function AdminWithdrawPage() {
  const { text, setText, search } = useSearchText();
  const withdrawals = useWithdrawals({ search });
  return (
    <div className="flex flex-col gap-6">
      <h1 className="heading-gradient text-2xl font-bold">Withdrawal History</h1>
      <HistorySearch value={text} onChange={setText} />
      <QueryState
        query={withdrawals}
        error="Failed to load withdrawal history."
        empty="No withdrawals found."
        isEmpty={(rows) => rows.length === 0}
      >
        {(rows) => <WithdrawalTable rows={rows} caption="Withdrawal history" />}
      </QueryState>
    </div>
  );
}
