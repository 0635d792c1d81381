import { withToast } from "../../lib/serverMessage";
import { useDecideRequest } from "./api/decideRequest";
import type { RequestKind } from "./api/requestKeys";

/** Accept / Decline for one pending request. Disabled while this row's decision is on its way. */
export function DecisionButtons({ kind, id, label }: { kind: RequestKind; id: string; label: string }) {
  const decide = useDecideRequest();

  async function send(status: "accepted" | "declined") {
    const texts = { loading: "Processing request...", success: `Request successfully ${status}.`, failure: "Failed to process request." };
    await withToast(texts, () => decide.submit({ kind, id, status }));
  }

  return (
    <div className="flex justify-end gap-2">
      <button type="button" className="btn btn-primary btn-sm focus-ring" disabled={decide.isPending} onClick={() => void send("accepted")}>
        Accept<span className="sr-only"> {label}</span>
      </button>
      <button type="button" className="btn btn-danger btn-sm focus-ring" disabled={decide.isPending} onClick={() => void send("declined")}>
        Decline<span className="sr-only"> {label}</span>
      </button>
    </div>
  );
}
