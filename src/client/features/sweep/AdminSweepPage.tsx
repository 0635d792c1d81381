import { networkName } from "../../../shared/chain";
import { DataTable, type Column } from "../../components/DataTable";
import { DateTime } from "../../components/DateTime";
import { LongId } from "../../components/LongText";
import { formatMoney, Money } from "../../components/Money";
import { QueryState } from "../../components/QueryState";
import { confirmAction } from "../../lib/confirm";
import { withToast } from "../../lib/serverMessage";
import { type SweepItem, useSweepList } from "./api/getSweepList";
import { useMarkSwept } from "./api/markSwept";

/**
 * Marking swept clears what the admin saw, not what arrived since: it goes through the row's
 * last credit. Plus 1 ms: the server keeps microseconds and the wire carries milliseconds, so the
 * time as read is up to 1 ms before the credit itself.
 */
const throughOf = (row: SweepItem) => new Date(row.lastCreditedAt.getTime() + 1);

/**
 * Admin: USDT credited at members' own deposit addresses since each was last marked swept. The
 * platform holds no keys: the operator moves the funds with their own wallet, then marks the
 * address swept here, which only takes it off the list (audited).
 */
export default function AdminSweepPage() {
  const list = useSweepList();
  const mark = useMarkSwept();

  async function markSwept(row: SweepItem) {
    const ok = await confirmAction({
      title: "Mark this address swept?",
      text: `Confirm that you moved the ${formatMoney(row.amount)} credited at ${row.userName}'s ${networkName(row.network)} address ${row.address} with your own wallet. Nothing moves on chain: the address leaves this list until more USDT is credited there.`,
      confirmText: "Yes, mark swept",
    });
    if (!ok) return;
    const texts = { loading: "Marking the address swept...", success: "Address marked swept.", failure: "Failed to mark the address swept." };
    await withToast(texts, () => mark.submit({ network: row.network, index: row.index, through: throughOf(row) }));
  }

  const columns: Column<SweepItem>[] = [
    {
      header: "Member",
      cell: (row) => (
        <>
          <span className="block">{row.userName}</span>
          <span className="muted block text-xs">{networkName(row.network)}</span>
        </>
      ),
    },
    { header: "Address", cell: (row) => <LongId value={row.address} label={`${row.userName}'s deposit address`} /> },
    { header: "Amount", numeric: true, cell: (row) => <Money value={row.amount} /> },
    { header: "Transfers", numeric: true, cell: (row) => row.transfers },
    { header: "Last credited", cell: (row) => <DateTime value={row.lastCreditedAt} /> },
    { header: "Last swept", cell: (row) => (row.sweptAt ? <DateTime value={row.sweptAt} /> : <span className="muted">Never</span>) },
    {
      header: "Actions",
      end: true,
      cell: (row) => (
        <button type="button" className="btn btn-secondary btn-sm focus-ring whitespace-nowrap" disabled={mark.isPending} onClick={() => void markSwept(row)}>
          Mark swept<span className="sr-only"> {row.address}</span>
        </button>
      ),
    },
  ];

  return (
    <div className="flex flex-col gap-6">
      <h1 className="heading-gradient text-2xl font-bold">To Sweep</h1>
      <p role="note" className="card m-0 text-sm text-fg-soft">
        What members sent to their own deposit addresses and was credited to them since each address was last marked swept. This page is read-only
        help: the platform holds no private keys, so move the funds with your own wallet (the account whose extended public key the server uses), then
        mark the address swept. Marking moves nothing; it is recorded in the audit trail.
      </p>
      <QueryState
        query={list}
        error="Failed to load the addresses to sweep."
        empty="Nothing to sweep: no USDT was credited at members' addresses since they were last swept."
        isEmpty={(rows) => rows.length === 0}
        loadingLabel="Loading the addresses to sweep..."
      >
        {(rows) => <DataTable caption="Members' deposit addresses to sweep, largest first" rows={rows} rowKey={(row) => `${row.network}:${row.index}`} columns={columns} />}
      </QueryState>
    </div>
  );
}
