import { useWithdrawals } from "./api/getWithdrawals";
import { HistoryPage } from "./HistoryPage";
import { WithdrawalTable } from "./WithdrawalTable";

/** Admin: every withdrawal request with its status, searchable, a page at a time. */
export default function AdminWithdrawPage() {
  return (
    <HistoryPage
      title="Withdrawal History"
      useRows={useWithdrawals}
      noun={["withdrawal", "withdrawals"]}
      error="Failed to load withdrawal history."
      empty="No withdrawals found."
      table={(rows) => <WithdrawalTable rows={rows} caption="Withdrawal history" />}
    />
  );
}
