import { QueryState } from "../../components/QueryState";
import { useDeposits } from "./api/getDeposits";
import { useWithdrawals } from "./api/getWithdrawals";
import { DecisionButtons } from "./DecisionButtons";
import { DepositTable } from "./DepositTable";
import { WithdrawalTable } from "./WithdrawalTable";

const LOAD_FAILED = "Could not load dashboard data.";
const EMPTY = "No pending requests.";

/** Admin: every pending deposit and withdrawal, to accept or decline. */
export default function AdminDashboardPage() {
  const deposits = useDeposits({ status: "pending" });
  const withdrawals = useWithdrawals({ status: "pending" });

  return (
    <div className="flex flex-col gap-8">
      <h1 className="heading-gradient text-2xl font-bold">Admin Dashboard</h1>
      <section aria-labelledby="pending-deposits" className="flex flex-col gap-3">
        <h2 id="pending-deposits" className="m-0 text-lg font-semibold text-fg">
          Pending deposits
        </h2>
        <QueryState query={deposits} error={LOAD_FAILED} empty={EMPTY} isEmpty={(rows) => rows.length === 0}>
          {(rows) => (
            <DepositTable
              rows={rows}
              caption="Pending deposits"
              actions={(row) => <DecisionButtons kind="deposits" id={row._id} label={`deposit of ${row.userName}`} />}
            />
          )}
        </QueryState>
      </section>
      <section aria-labelledby="pending-withdrawals" className="flex flex-col gap-3">
        <h2 id="pending-withdrawals" className="m-0 text-lg font-semibold text-fg">
          Pending withdrawals
        </h2>
        <QueryState query={withdrawals} error={LOAD_FAILED} empty={EMPTY} isEmpty={(rows) => rows.length === 0}>
          {(rows) => (
            <WithdrawalTable
              rows={rows}
              caption="Pending withdrawals"
              actions={(row) => <DecisionButtons kind="withdrawals" id={row._id} label={`withdrawal of ${row.userName}`} />}
            />
          )}
        </QueryState>
      </section>
    </div>
  );
}
