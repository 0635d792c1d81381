import { QueryState } from "../../components/QueryState";
import { useSearchText } from "../../lib/useSearchText";
import { useDeposits } from "./api/getDeposits";
import { DepositTable } from "./DepositTable";
import { HistorySearch } from "./HistorySearch";

/** Admin: every deposit request with its status, searchable. */
export default function AdminDepositPage() {
  const { text, setText, search } = useSearchText();
  const deposits = useDeposits({ search });
  return (
    <div className="flex flex-col gap-6">
      <h1 className="heading-gradient text-2xl font-bold">Deposit History</h1>
      <HistorySearch value={text} onChange={setText} />
      <QueryState query={deposits} error="Failed to load deposit history." empty="No deposits found." isEmpty={(rows) => rows.length === 0}>
        {(rows) => <DepositTable rows={rows} caption="Deposit history" />}
      </QueryState>
    </div>
  );
}
