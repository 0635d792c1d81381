import { useState } from "react";
import { Pagination } from "../../components/Pagination";
import { QueryState } from "../../components/QueryState";
import { useAudit } from "./api/getAudit";
import { AuditTable } from "./AuditTable";

/** Admin: every admin action (decisions, prices, deletions, system gifts) with its before and after. */
export default function AdminAuditPage() {
  const [page, setPage] = useState(1);
  const audit = useAudit(page);
  return (
    <div className="flex flex-col gap-6">
      <h1 className="heading-gradient text-2xl font-bold">Admin Audit</h1>
      <QueryState
        query={audit}
        error="Failed to load the audit trail."
        empty="No admin actions recorded yet."
        isEmpty={(data) => data.entries.length === 0}
        loadingLabel="Loading the audit trail..."
      >
        {(data) => (
          <div className={audit.isPlaceholderData ? "opacity-60" : ""}>
            <AuditTable entries={data.entries} />
            <Pagination page={page} totalPages={data.totalPages} onChange={setPage} busy={audit.isPlaceholderData} />
          </div>
        )}
      </QueryState>
    </div>
  );
}
