import { DECISIONS, type Decision } from "../../../shared/constants";
import { MSG } from "../../../shared/messages";
import { withToast } from "../../lib/serverMessage";
import { useDecideRequest } from "./api/decideRequest";
import type { RequestKind } from "./api/requestKeys";

const BUTTON: Record<Decision, { text: string; className: string }> = {
  accepted: { text: "Accept", className: "btn-primary" },
  declined: { text: "Decline", className: "btn-danger" },
};

/** Accept / Decline for one pending request. Disabled while this row's decision is on its way. */
export function DecisionButtons({ kind, id, label }: { kind: RequestKind; id: string; label: string }) {
  const decide = useDecideRequest();

  async function send(status: Decision) {
    const texts = { loading: "Processing request...", success: MSG.requestDecided(status), failure: "Failed to process request." };
    await withToast(texts, () => decide.submit({ kind, id, status }));
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
          <span className="sr-only"> {label}</span>
        </button>
      ))}
    </div>
  );
}
