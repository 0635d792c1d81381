import { Link, useSearchParams } from "react-router";
import { LEVELS_PER_PROGRAM, type MissedReason, PROGRAMS, type ProgramId } from "../../../shared/constants";
import { PAGES } from "../../../shared/pages";
import { DataTable, type Column } from "../../components/DataTable";
import { DateTime } from "../../components/DateTime";
import { Money } from "../../components/Money";
import { PagedQueryState } from "../../components/QueryState";
import { type MissedFilter, type MissedItem, useMissed } from "./api/getMissed";

/** Why it passed the member by, in words. */
const WHY: Record<MissedReason, string> = {
  frozen: "Your level was frozen",
  not_active: "You had not bought this level",
};

const programOf = (text: string | null): ProgramId | undefined => PROGRAMS.find((p) => p === text);

/** `?level=` as a level there is, else none (a link cut short shows every level). */
function levelOf(text: string | null): number | undefined {
  const level = Number(text);
  return text !== null && Number.isInteger(level) && level >= 1 && level <= LEVELS_PER_PROGRAM ? level : undefined;
}

const columns: Column<MissedItem>[] = [
  { header: "When", cell: (row) => <DateTime value={row.createdAt} /> },
  { header: "Who bought", cell: (row) => row.buyer.name },
  { header: "Level", cell: (row) => `${row.program.toUpperCase()} · Level ${row.level}` },
  { header: "Why", cell: (row) => WHY[row.reason] },
  { header: "Amount", numeric: true, cell: (row) => <Money value={row.amount} className="text-pending" /> },
];

/** What the list is of, as its heading says it. */
function scope({ program, level }: MissedFilter): string {
  if (program && level !== undefined) return `${program.toUpperCase()} · Level ${level}`;
  if (program) return program.toUpperCase();
  return level !== undefined ? `Level ${level}, both programs` : "";
}

/**
 * Every payment that passed the member by (GET /api/user/missed): who bought, at which program and
 * level, how much, why, and when, newest first, 20 a page. `?program=&level=` (the links from a
 * frozen or unbought level) keeps to one level, with a way back to all of them.
 */
export default function MissedPage() {
  const [params, setParams] = useSearchParams();
  const filter: MissedFilter = { program: programOf(params.get("program")), level: levelOf(params.get("level")) };
  const page = Math.max(1, Math.floor(Number(params.get("page")) || 1));
  const missed = useMissed(page, filter);
  const of = scope(filter);

  function toPage(next: number) {
    const query = new URLSearchParams(params);
    if (next > 1) query.set("page", String(next));
    else query.delete("page");
    setParams(query, { replace: true });
  }

  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-col gap-2">
        <h1 className="heading-gradient m-0 text-2xl font-bold">Missed earnings{of && `: ${of}`}</h1>
        <p className="muted m-0 text-sm">
          Payments that passed you by because your level was frozen or not bought yet. They moved no money of yours.
        </p>
        <p className="m-0 flex flex-wrap gap-4 text-sm">
          {of && (
            <Link to={PAGES.missed} className="link">
              Show every level
            </Link>
          )}
          <Link to={PAGES.package} className="link">
            See your levels
          </Link>
          <Link to={PAGES.earnings} className="link">
            Earnings
          </Link>
        </p>
      </header>
      <PagedQueryState
        query={missed}
        page={page}
        onPage={toPage}
        error="Could not load your missed earnings."
        empty={of ? `Nothing has passed you by at ${of}.` : "Nothing has passed you by yet."}
        isEmpty={(data) => data.items.length === 0}
        loadingLabel="Loading your missed earnings..."
      >
        {(data) => (
          <div className="flex flex-col gap-3">
            <p className="muted m-0 text-sm" aria-live="polite">
              {data.total === 1 ? "1 payment missed" : `${data.total} payments missed`}
            </p>
            <DataTable
              caption={`Missed earnings${of && `, ${of}`}, newest first`}
              // The records carry no id; their place on the page is stable for as long as it shows.
              rows={data.items.map((item, i) => ({ ...item, key: `${data.page}-${i}` }))}
              rowKey={(row) => row.key}
              columns={columns}
            />
          </div>
        )}
      </PagedQueryState>
    </div>
  );
}
