import { useState } from "react";
import toast from "react-hot-toast";
import { Link, useNavigate, useSearchParams } from "react-router";
import * as z from "zod/mini";
import { resetPasswordSchema } from "../../../shared/contract/account";
import { PAGES } from "../../../shared/pages";
import { AuthFrame } from "../../../ui/AuthFrame";
import { Field } from "../../components/Field";
import { ApiError } from "../../lib/api";
import { showAtField } from "../../lib/fieldFailure";
import { failureMessage } from "../../lib/serverMessage";
import { useSchemaForm } from "../../lib/useSchemaForm";
import { PasswordField } from "../../components/PasswordField";
import { useResetPassword } from "./api/account";

/** The fields typed here: the payload's own rules, the token coming from the link. */
const formSchema = z.pick(resetPasswordSchema, { password: true, code: true });

function confirmation(values: { password: string; confirmPassword: string }) {
  if (!values.confirmPassword) return { confirmPassword: "Please confirm your password." };
  return values.confirmPassword === values.password ? {} : { confirmPassword: "Passwords do not match" };
}

/**
 * Where a reset link lands (?token=...): a new password, typed twice. With two-factor on, the
 * server asks for a code too (two_factor_code_required), and the code field appears. A link that
 * is no longer good says what to do: ask for a new one.
 */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const { values, errors, set, submit, fail } = useSchemaForm(formSchema, { password: "", confirmPassword: "", code: "" }, { check: confirmation });
  const reset = useResetPassword();
  const navigate = useNavigate();
  const [needsCode, setNeedsCode] = useState(false);
  const [deadLink, setDeadLink] = useState<string | null>(token ? null : "This page needs the link from the mail we sent you. Please open that link again, or ask for a new one.");

  const onSubmit = submit(({ password, code }) =>
    reset.mutate(
      { token, password, ...(code ? { code } : {}) },
      {
        onSuccess: ({ msg }) => {
          toast.success(msg);
          navigate(PAGES.login, { replace: true });
        },
        onError: (error) => {
          const code = error instanceof ApiError ? error.code : undefined;
          if (code === "token_invalid") return setDeadLink(failureMessage(error, "This link is not valid any more."));
          if (code === "two_factor_code_required") setNeedsCode(true);
          showAtField(error, fail, { validation: "password", two_factor_code_required: "code", two_factor_invalid: "code", throttled: "code" }, "Your password could not be reset. Please try again.");
        },
      },
    ),
  );

  return (
    <AuthFrame pageTitle="Reset password" title="Choose a new password" subtitle="Every session will be signed out">
      {deadLink ? (
        <div className="grid gap-4">
          <p role="alert" className="m-0 rounded-control border border-declined/40 bg-declined/12 px-3 py-2 text-sm">
            {deadLink}
          </p>
          <Link to={PAGES.forgotPassword} className="btn-primary w-full text-center">
            Ask for a new link
          </Link>
        </div>
      ) : (
        <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-label="Reset password">
          <PasswordField label="New password" name="password" autoComplete="new-password" value={values.password} error={errors.password} onChange={set("password")} />
          <PasswordField
            label="Confirm new password"
            name="confirmPassword"
            autoComplete="new-password"
            value={values.confirmPassword}
            error={errors.confirmPassword}
            onChange={set("confirmPassword")}
          />
          {needsCode && (
            <Field label="Authentication code" error={errors.code} hint="A code from your authenticator app, or one of your recovery codes.">
              {(control) => <input {...control} name="code" type="text" autoComplete="one-time-code" value={values.code} onChange={set("code")} className="input" />}
            </Field>
          )}
          <button type="submit" className="btn-primary mt-1 w-full py-3 text-base" disabled={reset.isPending}>
            {reset.isPending ? "Saving..." : "Set the new password"}
          </button>
        </form>
      )}
      <p className="m-0 mt-6 text-center text-sm muted">
        <Link to={PAGES.login} className="link">
          Back to Log In
        </Link>
      </p>
    </AuthFrame>
  );
}
