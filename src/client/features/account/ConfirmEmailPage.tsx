import { Link, useSearchParams } from "react-router";
import { PAGES } from "../../../shared/pages";
import { AuthFrame } from "../../../ui/AuthFrame";
import { failureMessage } from "../../lib/serverMessage";
import { useConfirmEmail } from "./api/account";

/**
 * Where an address's confirmation link lands (?token=...): a sign-up's, or an email change's.
 * The member confirms with a button (a mail scanner that opens links confirms nothing), and the
 * server's answer says what happened: confirmed, changed, or what to do when the link is dead.
 */
export default function ConfirmEmailPage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const confirm = useConfirmEmail();

  return (
    <AuthFrame pageTitle="Confirm email" title="Confirm your email address">
      {confirm.isSuccess ? (
        <p role="status" className="m-0 rounded-control border border-accepted/40 bg-accepted/12 px-3 py-2 text-sm">
          {confirm.data.msg}
        </p>
      ) : confirm.isError || !token ? (
        <p role="alert" className="m-0 rounded-control border border-declined/40 bg-declined/12 px-3 py-2 text-sm">
          {token
            ? failureMessage(confirm.error, "The address could not be confirmed. Please try again.")
            : "This page needs the link from the mail we sent you. Please open that link again."}
        </p>
      ) : (
        <div className="grid gap-4">
          <p className="m-0 muted">Open this link only if you asked for it: it makes the address it was mailed to your account's.</p>
          <button type="button" className="btn-primary w-full py-3 text-base" disabled={confirm.isPending} onClick={() => confirm.mutate(token)}>
            {confirm.isPending ? "Confirming..." : "Confirm my address"}
          </button>
        </div>
      )}
      <p className="m-0 mt-6 text-center text-sm muted">
        <Link to={PAGES.dashboard} className="link">
          Go to the dashboard
        </Link>
        {" · "}
        <Link to={PAGES.login} className="link">
          Log In
        </Link>
      </p>
    </AuthFrame>
  );
}
