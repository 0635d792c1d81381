import { DataTable, type Column } from "./DataTable";
import { DateTime } from "./DateTime";
import { EmailText, LongId } from "./LongText";
import type { AuditEntry } from "../features/audit/api/getAudit";
import { actionLabel, describeChange, targetLabel } from "../features/audit/describe";

function Target({ entry }: { entry: AuditEntry }) {
  const { kind, id } = targetLabel(entry);
  return (
    <>
      <span className="block">{kind}</span>
      {id && (
        <span className="muted block">
          <LongId value={id} label={`${kind} ID`} />
        </span>
      )}
    </>
  );
}

/** The changed values first, then (muted) what the action was about but left as it was. */
function Change({ entry }: { entry: AuditEntry }) {
  const { changes, context } = describeChange(entry.before, entry.after);
  if (changes.length === 0 && context.length === 0) return <span className="muted">—</span>;
  return (
    <>
      {changes.map((line, index) => (
        <span key={index} className="block">
          {line}
        </span>
      ))}
      {context.length > 0 && <span className="muted block text-xs">{context.join(" · ")}</span>}
    </>
  );
}

const columns: Column<AuditEntry>[] = [
  { header: "Time", cell: (entry) => <DateTime value={entry.createdAt} /> },
  {
    header: "Admin",
    cell: (entry) => (
      <>
        <span className="block">{entry.adminName}</span>
        {entry.actor === "platform" ? (
          <span className="muted block text-xs">automatic, on chain evidence</span>
        ) : (
          <EmailText email={entry.adminEmail} className="muted block text-xs" />
        )}
      </>
    ),
  },
  { header: "Action", cell: (entry) => <span className="whitespace-nowrap">{actionLabel(entry.action)}</span> },
  { header: "Target", cell: (entry) => <Target entry={entry} /> },
  { header: "Change", cell: (entry) => <Change entry={entry} /> },
];

/** One page of the trail, as the server sends it: newest first. */
export function AuditTable({ entries, caption = "Admin actions, newest first" }: { entries: AuditEntry[]; caption?: string }) {
  return <DataTable caption={caption} rows={entries} rowKey={(entry) => entry.id} columns={columns} />;
}
