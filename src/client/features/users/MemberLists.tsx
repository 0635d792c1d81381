import { Link, useSearchParams } from "react-router";
import type { MissedReason } from "../../../shared/constants";
import { networkName } from "../../../shared/chain";
import { memberPage } from "./memberPaths";
import { DataTable, type Column } from "../../components/DataTable";
import { DateTime } from "../../components/DateTime";
import { LongId } from "../../components/LongText";
import { Money } from "../../components/Money";
import { PagedQueryState } from "../../components/QueryState";
import { amountColumn, dateColumn, type MemberRequest, typeColumn } from "../../components/RequestsList";
import { StatusBadge } from "../../components/StatusBadge";
import { AuditTable } from "../../components/AuditTable";
import { TransactionsTable } from "../../components/TransactionsTable";
import { type MemberList, type MemberRecord, type MemberRow, useMemberList } from "./api/memberRecord";

type Missed = MemberRow<"missed">;
type Partner = MemberRow<"partners">;

/** Why a payment passed the member by, said of them (the member's own page says "your level"). */
const WHY: Record<MissedReason, string> = {
  frozen: "The level was frozen",
  not_active: "The level was not bought",
};

const missedColumns: Column<Missed>[] = [
  { header: "When", cell: (row) => <DateTime value={row.createdAt} /> },
  { header: "Who bought", cell: (row) => row.buyer.name },
  { header: "Level", cell: (row) => `${row.program.toUpperCase()} · Level ${row.level}` },
  { header: "Why", cell: (row) => WHY[row.reason] },
  { header: "Amount", numeric: true, cell: (row) => <Money value={row.amount} className="text-pending" /> },
];

// The member's own list has a cancel button here; the operator decides requests on the request pages.
const requestColumns: Column<MemberRequest>[] = [
  dateColumn,
  typeColumn,
  amountColumn,
  {
    header: "Transaction",
    cell: (row) => (
      <span className="flex flex-col gap-0.5">
        {row.transactionId ? <LongId value={row.transactionId} label={row.type === "withdrawal" ? "payout transaction ID" : "transaction ID"} /> : <span className="muted">—</span>}
        {row.address && (
          <span className="muted flex flex-wrap items-center gap-1 text-xs">
            {row.type === "withdrawal" ? "to" : "from"} <LongId value={row.address} label={row.type === "withdrawal" ? "withdrawal address" : "sender address"} />
          </span>
        )}
        <span className="muted text-xs">{networkName(row.network)}</span>
        {row.toAddress && (
          <span className="muted flex flex-wrap items-center gap-1 text-xs">
            to their own address <LongId value={row.toAddress} label="deposit address" />
          </span>
        )}
      </span>
    ),
  },
  {
    header: "Status",
    cell: (row) => (
      <span className="flex flex-col items-end gap-1 md:items-start">
        <StatusBadge status={row.status} />
        {row.cancelled && <span className="muted text-xs">Cancelled by the member</span>}
        {row.confirmations && <span className="text-xs text-pending">{`Confirming ${row.confirmations.seen} of ${row.confirmations.required}`}</span>}
        {row.belowMinimum && row.status !== "accepted" && <span className="text-xs text-declined">Received below the minimum: not credited</span>}
        {row.reason && !row.cancelled && <span className="max-w-64 text-xs text-fg-soft [overflow-wrap:anywhere]">Reason: {row.reason}</span>}
        {row.decidedAt && (
          <span className="muted text-xs">
            Decided <DateTime value={row.decidedAt} />
          </span>
        )}
      </span>
    ),
  },
];

const partnerColumns: Column<Partner>[] = [
  {
    header: "Name",
    cell: (row) =>
      // A partner who left has no record to open.
      row.deleted ? (
        <span>
          {row.name} <span className="muted text-xs">· deleted</span>
        </span>
      ) : (
        <Link to={memberPage(row.id)} className="link break-words">
          {row.name}
        </Link>
      ),
  },
  { header: "Joined", cell: (row) => <DateTime value={row.joinedAt} /> },
  { header: "Highest active level", cell: (row) => `3P ${row.levels["3p"] || "—"} · 6P ${row.levels["6p"] || "—"}` },
  { header: "Direct partners", numeric: true, cell: (row) => row.directPartners },
  { header: "Team", numeric: true, cell: (row) => row.partners },
];

/** Each list's words: what it is of, what it says when empty or when it cannot load. */
const TEXTS: Record<MemberList, { title: string; empty: string; counted: (n: number) => string }> = {
  transactions: { title: "Transactions", empty: "No transactions yet.", counted: (n) => (n === 1 ? "1 transaction" : `${n} transactions`) },
  missed: { title: "Missed earnings", empty: "Nothing has passed this member by yet.", counted: (n) => (n === 1 ? "1 payment missed" : `${n} payments missed`) },
  requests: { title: "Deposit and withdrawal requests", empty: "No deposit or withdrawal requests yet.", counted: (n) => (n === 1 ? "1 request" : `${n} requests`) },
  partners: { title: "Direct partners", empty: "No partners yet.", counted: (n) => (n === 1 ? "1 partner" : `${n} partners, those who left included`) },
  audit: { title: "Admin actions about this member", empty: "No admin action about this member yet.", counted: (n) => (n === 1 ? "1 action" : `${n} actions`) },
};

/**
 * One of the record's lists, a page at a time (`?page=` in the URL), with the number of rows in
 * all: the rows the member's own page shows them, read by the same code on the server.
 */
export function MemberListPanel({ list, record }: { list: MemberList; record: MemberRecord }) {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Math.floor(Number(params.get("page")) || 1));
  const query = useMemberList(list, record.id, page);
  const texts = TEXTS[list];
  const caption = `${texts.title} of ${record.name}, newest first`;

  function toPage(next: number) {
    const query = new URLSearchParams(params);
    if (next > 1) query.set("page", String(next));
    else query.delete("page");
    setParams(query, { replace: true });
  }

  return (
    <section aria-labelledby="member-list-title" className="flex flex-col gap-3">
      <h2 id="member-list-title" className="m-0 text-lg font-semibold text-fg">
        {texts.title}
      </h2>
      <PagedQueryState
        query={query}
        page={page}
        onPage={toPage}
        error={`Failed to load the ${texts.title.toLowerCase()}.`}
        empty={texts.empty}
        isEmpty={(data) => data.rows.length === 0}
        loadingLabel={`Loading the ${texts.title.toLowerCase()}...`}
      >
        {(data) => (
          <div className="flex flex-col gap-3">
            <p className="muted m-0 text-sm" aria-live="polite">
              {texts.counted(data.total)}
            </p>
            {rowsOf(list, data.rows, caption)}
          </div>
        )}
      </PagedQueryState>
    </section>
  );
}

function rowsOf(list: MemberList, rows: MemberRow<MemberList>[], caption: string) {
  switch (list) {
    case "transactions":
      return <TransactionsTable rows={rows as MemberRow<"transactions">[]} caption={caption} />;
    case "missed":
      // The records carry no id; their place on the page is stable for as long as it shows.
      return <DataTable caption={caption} rows={(rows as Missed[]).map((row, i) => ({ ...row, key: String(i) }))} rowKey={(row) => row.key} columns={missedColumns} />;
    case "requests":
      return <DataTable caption={caption} rows={rows as MemberRequest[]} rowKey={(row) => row.id} columns={requestColumns} />;
    case "partners":
      return <DataTable caption={caption} rows={rows as Partner[]} rowKey={(row) => row.id} columns={partnerColumns} />;
    case "audit":
      return <AuditTable entries={rows as MemberRow<"audit">[]} caption={caption} />;
  }
}
