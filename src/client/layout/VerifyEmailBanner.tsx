import { useState } from "react";
import toast from "react-hot-toast";
import { showFailure } from "../lib/serverMessage";

/**
 * Shown to a member who has not confirmed their address yet (GET /api/auth's emailVerified
 * false), with "send again". The call's code is fetched on the click: the dashboard's first
 * load does not carry the account area.
 */
export function VerifyEmailBanner({ email }: { email: string }) {
  const [sending, setSending] = useState(false);
  async function sendAgain() {
    setSending(true);
    try {
      const { resendVerification } = await import("../features/account/api/account");
      toast.success((await resendVerification()).msg);
    } catch (error) {
      showFailure(error, "The link could not be sent. Please try again.");
    } finally {
      setSending(false);
    }
  }
  return (
    <div role="status" className="flex flex-wrap items-center justify-center gap-x-3 gap-y-1 border-b border-pending/40 bg-ink-deep px-4 py-2 text-center text-sm">
      <span>
        Please confirm your email address: open the link we mailed to <span className="font-medium">{email}</span>.
      </span>
      <button type="button" className="btn-secondary btn-sm" disabled={sending} onClick={() => void sendAgain()}>
        {sending ? "Sending..." : "Send again"}
      </button>
    </div>
  );
}
