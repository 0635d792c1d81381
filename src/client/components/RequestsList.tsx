import type { InfiniteData, UseInfiniteQueryResult } from "@tanstack/react-query";
import type { RequestType } from "../../shared/constants";
import type { memberRequest } from "../../shared/contract/member";
import type { Answer } from "../../shared/contract/wire";
import { networkName } from "../../shared/chain";
import { MSG } from "../../shared/messages";
import { DataTable, type Column } from "./DataTable";
import { DateTime } from "./DateTime";
import { EmptyState } from "./EmptyState";
import { LongId } from "./LongText";
import { ErrorState } from "./ErrorState";
import { formatMoney, Money } from "./Money";
import { Spinner } from "./Spinner";
import { StatusBadge } from "./StatusBadge";
import { chainAmountBeyond, shortAddress } from "../lib/chainAmount";
import { confirmAction } from "../lib/confirm";
import { uniqueById } from "../lib/uniqueById";
import { withToast } from "../lib/serverMessage";
import { Icon } from "../../ui/icons";
import { useCancelWithdrawal } from "../features/myRequests/api/cancelWithdrawal";

export type MemberRequest = Answer<typeof memberRequest>;
type Pages = InfiniteData<{ items: MemberRequest[]; page: number; totalPages: number }>;

const TYPE_LABEL: Record<RequestType, string> = { deposit: "Deposit", withdrawal: "Withdrawal" };

const TEXTS = {
  all: { title: "Your deposit and withdrawal requests", empty: "You have no deposit or withdrawal requests yet." },
  deposit: { title: "Your deposit requests", empty: "You have not requested any deposits yet." },
  withdrawal: { title: "Your withdrawal requests", empty: "You have not requested any withdrawals yet." },
} as const;

export const dateColumn: Column<MemberRequest> = { header: "Requested", cell: (row) => <DateTime value={row.createdAt} /> };

export const typeColumn: Column<MemberRequest> = {
  header: "Type",
  cell: (row) => (
    <>
      <span className="block">{TYPE_LABEL[row.type]}</span>
      {row.method && <span className="muted block text-xs">{row.method}</span>}
    </>
  ),
};

const methodColumn: Column<MemberRequest> = { header: "Network", cell: (row) => row.method ?? <span className="muted">—</span> };

// A deposit's transaction ID, or the payout's of a withdrawal once the admin recorded it; a
// transfer to the member's own address also names that address.
const transactionColumn: Column<MemberRequest> = {
  header: "Transaction ID",
  cell: (row) =>
    row.transactionId || row.toAddress || row.type === "withdrawal" ? (
      <span className="flex flex-col gap-0.5">
        {row.transactionId && <LongId value={row.transactionId} label={row.type === "withdrawal" ? "payout transaction ID" : "transaction ID"} />}
        {/* Where a withdrawal is paid: the address as the network writes it, whole on hover and copy. */}
        {row.type === "withdrawal" && row.address && (
          <span className="muted flex flex-wrap items-center gap-1 text-xs">
            to <LongId value={row.address} label="withdrawal address" />
          </span>
        )}
        <span className="muted text-xs">{networkName(row.network)}</span>
        {row.toAddress && (
          <span className="muted text-xs">
            to your address{" "}
            <span className="font-mono" title={row.toAddress}>
              {shortAddress(row.toAddress)}
            </span>
          </span>
        )}
      </span>
    ) : (
      <span className="muted">—</span>
    ),
};

/**
 * A withdrawal's fee: the one kept once accepted, the one it will have while pending (its amount
 * less its net); none once declined or cancelled (nothing was kept).
 */
const feeOf = (row: MemberRequest) => row.fee ?? (row.net !== null ? row.amount - row.net : null);

export const amountColumn: Column<MemberRequest> = {
  header: "Amount",
  numeric: true,
  cell: (row) => {
    const fee = feeOf(row);
    return (
      <>
        <Money value={row.amount} className="block" />
        {chainAmountBeyond(row.chainAmount, row.amount) && <span className="muted block text-xs">{row.chainAmount} USDT on chain</span>}
        {fee !== null && (
          <span className="muted block text-xs">
            Fee <Money value={fee} />
          </span>
        )}
        {row.net !== null && (
          <span className="muted block text-xs">
            {row.status === "accepted" ? "Paid out" : "To receive"} <Money value={row.net} />
          </span>
        )}
      </>
    );
  },
};

/** A withdrawal the member cancelled: their own decision, not a refusal (its status is declined). */
function CancelledBadge() {
  return (
    <span className="badge badge-locked inline-flex items-center gap-1">
      <Icon name="close" />
      Cancelled by you
    </span>
  );
}

// The badge says the state in words and with an icon; under it, a transfer's confirmations so far, a
// transfer below the minimum (an admin may still credit it by hand), and the admin's reason.
const statusColumn: Column<MemberRequest> = {
  header: "Status",
  cell: (row) => (
    <span className="flex flex-col items-end gap-1 md:items-start">
      {row.cancelled ? <CancelledBadge /> : <StatusBadge status={row.status} />}
      {row.confirmations && (
<span className="text-xs text-pending">{`Confirming ${row.confirmations.seen} of ${row.confirmations.required}`}</span>
      )}
      {row.belowMinimum && row.status !== "accepted" && <span className="max-w-64 text-xs text-declined">Received below the minimum: not credited</span>}
      {/* A cancel's reason is the server's own words for what the badge already says. */}
      {row.reason && !row.cancelled && <span className="max-w-64 text-xs text-fg-soft [overflow-wrap:anywhere]">Reason: {row.reason}</span>}
      {row.decidedAt && (
        <span className="muted text-xs">
          {row.cancelled ? "Cancelled" : "Decided"} <DateTime value={row.decidedAt} />
        </span>
      )}
      {row.type === "withdrawal" && row.status === "pending" && <CancelButton request={row} />}
    </span>
  ),
};

/**
 * Cancels the member's own pending withdrawal, once confirmed: the held amount is available again
 * at once. An admin may decide it first; the server then says so (already processed) and the
 * lists are read again either way.
 */
function CancelButton({ request }: { request: MemberRequest }) {
  const cancel = useCancelWithdrawal();
  async function onClick() {
    const confirmed = await confirmAction({
      title: "Cancel this withdrawal?",
      text: `${formatMoney(request.amount)} to ${request.address} will not be paid, and the amount is available in your balance again.`,
      confirmText: "Yes, cancel it",
      danger: true,
    });
    if (!confirmed) return;
    const texts = { loading: "Cancelling withdrawal...", success: MSG.withdrawalCancelled, failure: "Cancelling failed." };
    await withToast(texts, () => cancel.submit({ id: request.id }));
  }
  return (
    <button type="button" className="btn btn-secondary btn-sm focus-ring" disabled={cancel.isPending} onClick={() => void onClick()}>
      {cancel.isPending ? "Cancelling..." : "Cancel"}
      <span className="sr-only"> withdrawal of {formatMoney(request.amount)}</span>
    </button>
  );
}

interface RequestsListProps {
  /** The member's requests, page after page (features/myRequests/api: useMyRequests). */
  query: UseInfiniteQueryResult<Pages>;
  /** The type the query asked for (only deposits or only withdrawals); both when absent (the statement). */
  type?: RequestType;
}

/**
 * The member's own deposit and withdrawal requests in every state, newest first, with the
 * status badge and the admin's reason. Pages are read with "Load more".
 */
export function RequestsList({ query, type }: RequestsListProps) {
  const texts = TEXTS[type ?? "all"];
  // A request made (elsewhere) between two pages would show twice: each is shown once.
  const rows = uniqueById(query.data?.pages.flatMap((page) => page.items) ?? []);
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = query;

  const columns = [dateColumn, type ? (type === "withdrawal" ? methodColumn : null) : typeColumn, amountColumn, transactionColumn, statusColumn].filter(
    (column): column is Column<MemberRequest> => column !== null,
  );

  return (
    <section aria-labelledby={`requests-${type ?? "all"}`} className="flex flex-col gap-3">
      <h2 id={`requests-${type ?? "all"}`} className="m-0 text-lg font-semibold text-fg">
        {texts.title}
      </h2>
      {query.isPending ? (
        <Spinner label="Loading your requests..." />
      ) : query.isError && !query.isFetchNextPageError ? (
        <ErrorState message="Could not load your requests." onRetry={() => void query.refetch()} />
      ) : rows.length === 0 && !isFetchNextPageError ? (
        <EmptyState message={texts.empty} />
      ) : (
        <>
          {rows.length > 0 && <DataTable caption={`${texts.title}, newest first`} rows={rows} rowKey={(row) => row.id} columns={columns} />}
          {isFetchNextPageError ? (
            <ErrorState message="Could not load more of your requests." onRetry={() => void fetchNextPage()} />
          ) : (
            hasNextPage && (
              <button type="button" className="btn btn-secondary btn-sm focus-ring self-center" disabled={isFetchingNextPage} onClick={() => void fetchNextPage()}>
                {isFetchingNextPage ? "Loading..." : "Load more"}
              </button>
            )
          )}
        </>
      )}
    </section>
  );
}
