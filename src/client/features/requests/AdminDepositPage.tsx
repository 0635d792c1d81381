import { useDeposits } from "./api/getDeposits";
import { DepositTable } from "./DepositTable";
import { HistoryPage } from "./HistoryPage";

/** Admin: every deposit request with its status, searchable, a page at a time. */
export default function AdminDepositPage() {
  return (
    <HistoryPage
      title="Deposit History"
      useRows={useDeposits}
      noun={["deposit", "deposits"]}
      error="Failed to load deposit history."
      empty="No deposits found."
      table={(rows) => <DepositTable rows={rows} caption="Deposit history" />}
    />
  );
}
