import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { QueryState } from "../../components/QueryState";
import { useDeposits } from "./api/getDeposits";
import { useWithdrawals } from "./api/getWithdrawals";
import { DecisionButtons } from "./DecisionButtons";
import { DepositTable } from "./DepositTable";
import { WithdrawalTable } from "./WithdrawalTable";

/** Admin: every pending deposit and withdrawal, to accept or decline. */
export default function AdminDashboardPage() {
  const deposits = useDeposits({ status: "pending" });
  const withdrawals = useWithdrawals({ status: "pending" });

  return (
    <div className="flex flex-col gap-8">
      <h1 className="heading-gradient text-2xl font-bold">Admin Dashboard</h1>
      <PendingSection id="pending-deposits" title="Pending deposits" query={deposits}>
        {(rows) => (
          <DepositTable
            rows={rows}
            caption="Pending deposits"
            actions={(row) => <DecisionButtons kind="deposits" request={row} />}
          />
        )}
      </PendingSection>
      <PendingSection id="pending-withdrawals" title="Pending withdrawals" query={withdrawals}>
        {(rows) => (
          <WithdrawalTable
            rows={rows}
            caption="Pending withdrawals"
            actions={(row) => <DecisionButtons kind="withdrawals" request={row} />}
          />
        )}
      </PendingSection>
    </div>
  );
}

interface PendingSectionProps<Row> {
  id: string;
  title: string;
  query: UseQueryResult<Row[]>;
  children: (rows: Row[]) => ReactNode;
}

/** One kind of pending request under its heading, with the dashboard's load-failure and empty texts. */
function PendingSection<Row>({ id, title, query, children }: PendingSectionProps<Row>) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h2 id={id} className="m-0 text-lg font-semibold text-fg">
        {title}
      </h2>
      <QueryState query={query} error="Could not load dashboard data." empty="No pending requests." isEmpty={(rows) => rows.length === 0}>
        {children}
      </QueryState>
    </section>
  );
}
