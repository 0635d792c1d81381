import { useEffect, type KeyboardEvent } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import { PAGES } from "../../../shared/pages";
import { ErrorState } from "../../components/ErrorState";
import { Spinner } from "../../components/Spinner";
import { ApiError } from "../../lib/api";
import { useMemberRecord, type MemberRecord } from "./api/memberRecord";
import { MemberListPanel } from "./MemberLists";
import { MemberMatrix } from "./MemberMatrix";
import { MemberOverview } from "./MemberOverview";

/** The record's tabs, in order; `?tab=` names the one shown (the overview when absent or unknown). */
export const MEMBER_TABS = [
  { id: "overview", label: "Overview" },
  { id: "transactions", label: "Transactions" },
  { id: "missed", label: "Missed" },
  { id: "requests", label: "Requests" },
  { id: "partners", label: "Partners" },
  { id: "audit", label: "Audit" },
  { id: "matrix", label: "Matrix" },
] as const;
export type MemberTab = (typeof MEMBER_TABS)[number]["id"];

const tabId = (tab: MemberTab) => `member-tab-${tab}`;
const PANEL_ID = "member-panel";

/**
 * Admin: one member's whole record (GET /api/admin/users/:id and its lists), opened from All
 * Users. The tab, and each tab's page, level and cycle, are kept in the URL: a reload or a shared
 * link shows the same view.
 */
export default function MemberPage() {
  const { id = "" } = useParams();
  const [params, setParams] = useSearchParams();
  const tab = MEMBER_TABS.find((t) => t.id === params.get("tab"))?.id ?? "overview";
  const record = useMemberRecord(id);

  /** Another tab: its own first page (what the other tab paged to means nothing there). */
  function show(next: MemberTab) {
    setParams(next === "overview" ? {} : { tab: next }, { replace: true });
  }

  return (
    <div className="flex min-w-0 flex-col gap-6">
      <header className="flex flex-col gap-2">
        <Link to={PAGES.allUsers} className="link self-start text-sm">
          <span aria-hidden="true">‹</span> All Users
        </Link>
        <h1 className="heading-gradient m-0 break-words text-2xl font-bold">{record.data?.name ?? "Member"}</h1>
        {record.data && <Summary record={record.data} />}
      </header>
      {record.isPending ? (
        <Spinner label="Loading the member's record..." />
      ) : record.isError ? (
        record.error instanceof ApiError && record.error.status === 404 ? (
          <ErrorState title="Member not found" message="No member has this ID, or the member was deleted." />
        ) : (
          <ErrorState message="Failed to load the member's record." onRetry={() => void record.refetch()} />
        )
      ) : (
        <>
          <Tabs value={tab} onChange={show} />
          <div role="tabpanel" id={PANEL_ID} aria-labelledby={tabId(tab)} className="min-w-0">
            {tab === "overview" && <MemberOverview record={record.data} />}
            {tab === "matrix" && <MemberMatrix record={record.data} />}
            {tab !== "overview" && tab !== "matrix" && <MemberListPanel key={tab} list={tab} record={record.data} />}
          </div>
        </>
      )}
    </div>
  );
}

/** Under the name: who they are at a glance (the overview has the rest). */
function Summary({ record }: { record: MemberRecord }) {
  return (
    <p className="muted m-0 flex flex-wrap gap-x-3 gap-y-1 text-sm">
      <span className="[overflow-wrap:anywhere]">{record.email}</span>
      <span>{record.role === "admin" ? "Admin" : "Member"}</span>
      <span className="font-mono">{record.myReferralId}</span>
    </p>
  );
}

/**
 * The tab list (ARIA tabs): arrow keys, Home and End move between tabs. It scrolls sideways on a
 * narrow screen, the chosen tab kept in view.
 */
function Tabs({ value, onChange }: { value: MemberTab; onChange: (tab: MemberTab) => void }) {
  useEffect(() => {
    document.getElementById(tabId(value))?.scrollIntoView?.({ block: "nearest", inline: "nearest" });
  }, [value]);

  function onKeyDown(event: KeyboardEvent) {
    const at = MEMBER_TABS.findIndex((t) => t.id === value);
    const to =
      event.key === "ArrowRight" ? (at + 1) % MEMBER_TABS.length
      : event.key === "ArrowLeft" ? (at - 1 + MEMBER_TABS.length) % MEMBER_TABS.length
      : event.key === "Home" ? 0
      : event.key === "End" ? MEMBER_TABS.length - 1
      : -1;
    if (to < 0) return;
    event.preventDefault();
    const next = MEMBER_TABS[to]!.id;
    onChange(next);
    document.getElementById(tabId(next))?.focus();
  }

  return (
    <div role="tablist" aria-label="Member record" className="-mx-1 flex gap-2 overflow-x-auto px-1 py-1" onKeyDown={onKeyDown}>
      {MEMBER_TABS.map((tab) => {
        const selected = tab.id === value;
        return (
          <button
            key={tab.id}
            id={tabId(tab.id)}
            type="button"
            role="tab"
            aria-selected={selected}
            aria-controls={PANEL_ID}
            tabIndex={selected ? 0 : -1}
            className={`btn btn-sm focus-ring shrink-0 ${selected ? "btn-primary" : "btn-secondary"}`}
            onClick={() => onChange(tab.id)}
          >
            {tab.label}
          </button>
        );
      })}
    </div>
  );
}
