import { type ReactNode, useState } from "react";
import { useDeposits } from "./api/getDeposits";
import { useWithdrawals } from "./api/getWithdrawals";
import { useStepBack } from "./api/requestPage";
import { DecisionButtons } from "./DecisionButtons";
import { DepositTable } from "./DepositTable";
import { type Noun, PagedRequests } from "./PagedRequests";
import { WithdrawalTable } from "./WithdrawalTable";

/** Admin: every pending deposit and withdrawal, a page at a time, to accept or decline. */
export default function AdminDashboardPage() {
  return (
    <div className="flex flex-col gap-8">
      <h1 className="heading-gradient text-2xl font-bold">Admin Dashboard</h1>
      <PendingDeposits />
      <PendingWithdrawals />
    </div>
  );
}

const ERROR = "Could not load dashboard data.";
const EMPTY = "No pending requests.";

function PendingDeposits() {
  const [page, setPage] = useState(1);
  const deposits = useDeposits({ status: "pending", page });
  useStepBack(page, setPage, deposits.data);
  return (
    <PendingSection id="pending-deposits" title="Pending deposits">
      <PagedRequests query={deposits} page={page} onPage={setPage} noun={DEPOSITS} error={ERROR} empty={EMPTY}>
        {(rows) => <DepositTable rows={rows} caption="Pending deposits" actions={(row) => <DecisionButtons kind="deposits" request={row} />} />}
      </PagedRequests>
    </PendingSection>
  );
}

function PendingWithdrawals() {
  const [page, setPage] = useState(1);
  const withdrawals = useWithdrawals({ status: "pending", page });
  useStepBack(page, setPage, withdrawals.data);
  return (
    <PendingSection id="pending-withdrawals" title="Pending withdrawals">
      <PagedRequests query={withdrawals} page={page} onPage={setPage} noun={WITHDRAWALS} error={ERROR} empty={EMPTY}>
        {(rows) => (
          <WithdrawalTable rows={rows} caption="Pending withdrawals" actions={(row) => <DecisionButtons kind="withdrawals" request={row} />} />
        )}
      </PagedRequests>
    </PendingSection>
  );
}

const DEPOSITS: Noun = ["pending deposit", "pending deposits"];
const WITHDRAWALS: Noun = ["pending withdrawal", "pending withdrawals"];

/** One kind of pending request under its heading. */
function PendingSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h2 id={id} className="m-0 text-lg font-semibold text-fg">
        {title}
      </h2>
      {children}
    </section>
  );
}
