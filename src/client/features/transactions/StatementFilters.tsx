import { useId, useState } from "react";
import toast from "react-hot-toast";
import { STATEMENT_KINDS, type StatementKind } from "../../../shared/contract/member";
import { Icon } from "../../../ui/icons";
import { errorMessage } from "../../lib/api";
import { fetchStatementCsv, saveFile } from "./api/downloadStatement";
import type { StatementFilter } from "./api/getTransactions";
import { KIND_LABEL } from "./kinds";

interface StatementFiltersProps {
  filter: StatementFilter;
  onChange: (filter: StatementFilter) => void;
}

/** What the statement shows: one kind, from a day, to a day. The CSV carries the same filters. */
export function StatementFilters({ filter, onChange }: StatementFiltersProps) {
  const id = useId();
  const [downloading, setDownloading] = useState(false);
  const set = (name: keyof StatementFilter) => (event: { target: { value: string } }) =>
    onChange({ ...filter, [name]: event.target.value || undefined });
  const filtered = Boolean(filter.kind || filter.from || filter.to);

  async function download() {
    setDownloading(true);
    try {
      saveFile(await fetchStatementCsv(filter), "statement.csv");
    } catch (error) {
      toast.error(errorMessage(error, "Could not download the statement."));
    } finally {
      setDownloading(false);
    }
  }

  return (
    <form role="search" aria-label="Filter the statement" className="card flex flex-wrap items-end gap-4" onSubmit={(e) => e.preventDefault()}>
      <div className="flex min-w-40 flex-1 flex-col gap-1">
        <label htmlFor={`${id}-kind`} className="field-label">
          Kind
        </label>
        <select id={`${id}-kind`} className="input" value={filter.kind ?? ""} onChange={set("kind")}>
          <option value="">All kinds</option>
          {STATEMENT_KINDS.map((kind: StatementKind) => (
            <option key={kind} value={kind}>
              {KIND_LABEL[kind]}
            </option>
          ))}
        </select>
      </div>
      <div className="flex min-w-36 flex-1 flex-col gap-1">
        <label htmlFor={`${id}-from`} className="field-label">
          From
        </label>
        <input id={`${id}-from`} type="date" className="input" value={filter.from ?? ""} max={filter.to} onChange={set("from")} />
      </div>
      <div className="flex min-w-36 flex-1 flex-col gap-1">
        <label htmlFor={`${id}-to`} className="field-label">
          To
        </label>
        <input id={`${id}-to`} type="date" className="input" value={filter.to ?? ""} min={filter.from} onChange={set("to")} />
      </div>
      <div className="flex gap-2">
        {filtered && (
          <button type="button" className="btn btn-secondary focus-ring" onClick={() => onChange({})}>
            Clear filters
          </button>
        )}
        <button type="button" className="btn btn-primary focus-ring" disabled={downloading} onClick={() => void download()}>
          <Icon name="deposit" />
          {downloading ? "Downloading..." : "Download CSV"}
        </button>
      </div>
    </form>
  );
}
