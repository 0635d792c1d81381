import { twoFactorCodeSchema } from "../../../shared/contract/auth";
import { Field } from "../../components/Field";
import { ApiError } from "../../lib/api";
import { showFailure } from "../../lib/serverMessage";
import { useSchemaForm } from "../../lib/useSchemaForm";
import { useLoginTwoFactor } from "./api/login";

interface TwoFactorStepProps {
  /** The ticket the password step answered. */
  ticket: string;
  onSignedIn: () => void;
  /** Back to the password step (the ticket is used up or expired, or the member chose to). */
  onRestart: () => void;
}

/** The second step of a login with 2FA on: a code from the authenticator app, or a recovery code. */
export function TwoFactorStep({ ticket, onSignedIn, onRestart }: TwoFactorStepProps) {
  const { values, errors, set, submit } = useSchemaForm(twoFactorCodeSchema, { code: "" });
  const verify = useLoginTwoFactor();

  const onSubmit = submit(({ code }) =>
    verify.mutate(
      { ticket, code },
      {
        onSuccess: onSignedIn,
        onError: (error) => {
          showFailure(error, "The code could not be checked. Please try again.");
          if (error instanceof ApiError && (error.code === "login_ticket_invalid" || error.code === "throttled")) onRestart();
        },
      },
    ),
  );

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-5" aria-label="Two-factor authentication">
      <Field label="Authentication code" error={errors.code} hint="The 6-digit code of your authenticator app, or one of your recovery codes.">
        {(control) => (
          <input
            {...control}
            name="code"
            type="text"
            autoComplete="one-time-code"
            autoFocus
            spellCheck={false}
            required
            value={values.code}
            onChange={set("code")}
            className="input tracking-widest"
          />
        )}
      </Field>
      <button type="submit" className="btn-primary w-full py-3 text-base" disabled={verify.isPending}>
        {verify.isPending ? "Verifying..." : "Verify"}
      </button>
      <button type="button" className="btn-secondary w-full" onClick={onRestart}>
        Back to login
      </button>
    </form>
  );
}
