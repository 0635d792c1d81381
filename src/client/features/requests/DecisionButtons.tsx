import { DECISIONS, REASON_MAX_LENGTH, type Decision } from "../../../shared/constants";
import { MSG } from "../../../shared/messages";
import type { Cents } from "../../../shared/money";
import { formatMoney } from "../../components/Money";
import { confirmAction, confirmWithReason } from "../../lib/confirm";
import { withToast } from "../../lib/serverMessage";
import { estimateCents } from "../../lib/withdrawalEstimate";
import { useDecideRequest } from "./api/decideRequest";
import { payoutIdField } from "./payoutId";
import type { RequestKind } from "./api/requestKeys";

const BUTTON: Record<Decision, { text: string; className: string }> = {
  accepted: { text: "Accept", className: "btn-primary" },
  declined: { text: "Decline", className: "btn-danger" },
};

/** What the buttons need of a pending request: who asked, and for how much. */
export interface PendingRequest {
  id: string;
  userName: string;
  userEmail: string;
  amount: Cents;
  /** A withdrawal's network (`USDT TRC20`...): its payout ID is checked against it. */
  accountType?: string;
}

const NOUN: Record<RequestKind, string> = { deposits: "deposit", withdrawals: "withdrawal" };

/** What the admin added to a confirmed decision: a decline's reason, an accepted withdrawal's payout ID. */
export interface DecisionExtras {
  reason?: string;
  transactionId?: string;
}

/**
 * Asks the admin to confirm a decision, naming the member and the amount. A decline takes an
 * optional reason for the member; accepting a withdrawal, the payout's optional transaction ID
 * (checked against the withdrawal's network, ./payoutId.ts). Answers what was added ({} for
 * nothing), or null when not confirmed.
 */
export async function confirmDecision(kind: RequestKind, status: Decision, request: PendingRequest): Promise<DecisionExtras | null> {
  const extras = await confirmDecisionText(kind, status, request);
  if (extras === null) return null;
  if (!extras) return {};
  return status === "declined" ? { reason: extras } : { transactionId: extras };
}

async function confirmDecisionText(kind: RequestKind, status: Decision, request: PendingRequest): Promise<string | null> {
  const who = `${request.userName} (${request.userEmail})`;
  const amount = formatMoney(request.amount);
  if (status === "declined") {
    return confirmWithReason({
      title: `Decline this ${NOUN[kind]}?`,
      text: `The ${NOUN[kind]} of ${amount} by ${who} will be declined. No money moves.`,
      confirmText: "Yes, decline",
      danger: true,
      inputLabel: "Reason for the member (optional)",
      maxLength: REASON_MAX_LENGTH,
    });
  }
  const text =
    kind === "deposits"
      ? `${amount} will be credited to ${who}. Accept only once the transaction has arrived in the platform wallet.`
      : `The withdrawal of ${amount} by ${who} will be paid: ${formatMoney(estimateCents(request.amount).receive)} to their wallet after the fee.`;
  if (kind === "withdrawals" && request.accountType) {
    return confirmWithReason({ title: `Accept this ${NOUN[kind]}?`, text, confirmText: "Yes, accept", ...payoutIdField(request.accountType) });
  }
  return (await confirmAction({ title: `Accept this ${NOUN[kind]}?`, text, confirmText: "Yes, accept" })) ? "" : null;
}

/** Accept / Decline for one pending request, each confirmed first. Disabled while this row's decision is on its way. */
export function DecisionButtons({ kind, request }: { kind: RequestKind; request: PendingRequest }) {
  const decide = useDecideRequest();

  async function send(status: Decision) {
    const extras = await confirmDecision(kind, status, request);
    if (extras === null) return;
    const texts = { loading: "Processing request...", success: MSG.requestDecided(status), failure: "Failed to process request." };
    await withToast(texts, () => decide.submit({ kind, id: request.id, status, ...extras }));
  }

  return (
    <div className="flex justify-end gap-2">
      {DECISIONS.map((status) => (
        <button
          key={status}
          type="button"
          className={`btn ${BUTTON[status].className} btn-sm focus-ring`}
          disabled={decide.isPending}
          onClick={() => void send(status)}
        >
          {BUTTON[status].text}
          <span className="sr-only">
            {" "}
            {NOUN[kind]} of {request.userName}
          </span>
        </button>
      ))}
    </div>
  );
}
