import { useState } from "react";
import { Link } from "react-router";
import { forgotPasswordSchema } from "../../../shared/contract/account";
import { PAGES } from "../../../shared/pages";
import { AuthFrame } from "../../../ui/AuthFrame";
import { Field } from "../../components/Field";
import { showAtField } from "../../lib/fieldFailure";
import { useSchemaForm } from "../../lib/useSchemaForm";
import { useForgotPassword } from "./api/account";

/**
 * Forgot password (linked from the login page): the email, then the server's one answer, the
 * same whether the email has an account or not ("if an account uses this email...").
 */
export default function ForgotPasswordPage() {
  const { values, errors, set, submit, fail } = useSchemaForm(forgotPasswordSchema, { email: "" });
  const forgot = useForgotPassword();
  const [sent, setSent] = useState<string | null>(null);

  const onSubmit = submit((input) =>
    forgot.mutate(input, {
      onSuccess: ({ msg }) => setSent(msg),
      onError: (error) => showAtField(error, fail, { validation: "email", throttled: "email" }, "The link could not be sent. Please try again."),
    }),
  );

  return (
    <AuthFrame pageTitle="Forgot password" title="Forgot your password?" subtitle="We mail you a link to choose a new one">
      {sent ? (
        <div className="grid gap-4">
          <p role="status" className="m-0 rounded-control border border-accepted/40 bg-accepted/12 px-3 py-2 text-sm">
            {sent}
          </p>
          <p className="m-0 text-sm muted">Nothing after a few minutes? Look in your spam folder, or send it again.</p>
          <button type="button" className="btn-secondary w-full" onClick={() => setSent(null)}>
            Send it again
          </button>
        </div>
      ) : (
        <form noValidate onSubmit={onSubmit} className="grid gap-5" aria-label="Forgot password">
          <Field label="Email" error={errors.email} hint="The address you signed up with.">
            {(control) => <input {...control} name="email" type="email" autoComplete="email" required value={values.email} onChange={set("email")} className="input" />}
          </Field>
          <button type="submit" className="btn-primary w-full py-3 text-base" disabled={forgot.isPending}>
            {forgot.isPending ? "Sending..." : "Send me a link"}
          </button>
        </form>
      )}
      <p className="m-0 mt-6 text-center text-sm muted">
        Remembered it?{" "}
        <Link to={PAGES.login} className="link">
          Log In
        </Link>
      </p>
    </AuthFrame>
  );
}
