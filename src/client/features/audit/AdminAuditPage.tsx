import { useState } from "react";
import { PagedQueryState } from "../../components/QueryState";
import { useAudit } from "./api/getAudit";
import { AuditTable } from "../../components/AuditTable";

/** Admin: every admin action (decisions, prices, deletions, system gifts) with its before and after. */
export default function AdminAuditPage() {
  const [page, setPage] = useState(1);
  const audit = useAudit(page);
  return (
    <div className="flex flex-col gap-6">
      <h1 className="heading-gradient text-2xl font-bold">Admin Audit</h1>
      <PagedQueryState
        query={audit}
        page={page}
        onPage={setPage}
        error="Failed to load the audit trail."
        empty="No admin actions recorded yet."
        isEmpty={(data) => data.entries.length === 0}
        loadingLabel="Loading the audit trail..."
      >
        {(data) => <AuditTable entries={data.entries} />}
      </PagedQueryState>
    </div>
  );
}
