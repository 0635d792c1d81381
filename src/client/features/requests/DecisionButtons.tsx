import toast from "react-hot-toast";
import { failureMessage, successMessage } from "../../lib/serverMessage";
import { useDecideRequest } from "./api/decideRequest";
import type { RequestKind } from "./api/requestKeys";

/** Accept / Decline for one pending request. Disabled while this row's decision is on its way. */
export function DecisionButtons({ kind, id, label }: { kind: RequestKind; id: string; label: string }) {
  const decide = useDecideRequest();

  async function send(status: "accepted" | "declined") {
    const toastId = toast.loading("Processing request...");
    try {
      const answer = await decide.submit({ kind, id, status });
      toast.success(successMessage(answer, `Request successfully ${status}.`), { id: toastId });
    } catch (error) {
      toast.error(failureMessage(error, "Failed to process request."), { id: toastId });
    }
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
