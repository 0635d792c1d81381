import { useEffect, useRef } from "react";
import toast from "react-hot-toast";
import { Link, useNavigate, useSearchParams } from "react-router";
import { PAGES } from "../../../shared/pages";
import { registerSchema } from "../../../shared/schemas";
import { Field } from "../../components/Field";
import { showAtField } from "../../lib/fieldFailure";
import { successMessage } from "../../lib/serverMessage";
import { useSchemaForm } from "../../lib/useSchemaForm";
import { useAdminReferralId, useRegister } from "./api/register";
import { useInviter } from "./api/inviter";
import { ApiError } from "../../lib/api";
import { AuthFrame } from "../../../ui/AuthFrame";
import { PasswordField } from "../../components/PasswordField";

/** The confirmation is the form's own rule: the API never receives it. */
function confirmation(values: { password: string; confirmPassword: string }) {
  if (!values.confirmPassword) return { confirmPassword: "Please confirm your password." };
  return values.confirmPassword === values.password ? {} : { confirmPassword: "Passwords do not match" };
}

export default function RegisterPage() {
  const [params] = useSearchParams();
  const ref = params.get("ref")?.trim() ?? "";
  const { values, setValues, errors, set, submit, fail } = useSchemaForm(
    registerSchema,
    { name: "", email: "", password: "", confirmPassword: "", referralId: ref },
    { check: confirmation },
  );
  const admin = useAdminReferralId(!ref);
  const register = useRegister();
  const navigate = useNavigate();
  const adminId = admin.data?.referralId;

  // Without ?ref the admin's ID is the default, filled in once unless the visitor typed one.
  useEffect(() => {
    if (adminId) setValues((v) => (v.referralId ? v : { ...v, referralId: adminId }));
  }, [adminId, setValues]);

  const onSubmit = submit((payload) =>
    register.mutate(payload, {
      onSuccess: (answer) => {
        toast.success(successMessage(answer, "Registration successful! Please log in."));
        navigate(PAGES.login);
      },
      // At its field: the server's own rules (a name that passes for staff by its Unicode skeleton), a taken email, an unknown ID.
      onError: (error) => showAtField(error, fail, { validation: "name", email_taken: "email", invalid_referral: "referralId" }, "Registration failed. Please try again."),
    }),
  );

  const underAdmin = !ref && Boolean(adminId) && values.referralId.trim() === adminId;
  // The link's inviter by name, so the visitor knows whose team they join; an unknown ID is said at the field.
  const inviter = useInviter(ref);
  const inviterRefused = inviter.error instanceof ApiError && inviter.error.code === "invalid_referral" ? inviter.error.message : null;
  const told = useRef(false);
  useEffect(() => {
    // Once: `fail` is a new function every render, and typing in the field clears what it showed.
    if (!inviterRefused || told.current) return;
    told.current = true;
    fail("referralId", inviterRefused);
  }, [inviterRefused, fail]);
  const fromLink = Boolean(ref) && values.referralId.trim() === ref;
  const referralHint = fromLink
    ? inviter.data
      ? `Joining under ${inviter.data.name} (${ref})`
      : "Filled in from your invitation link."
    : underAdmin
      ? `Joining under the platform's first account (${adminId}): no invitation link was used.`
      : !ref && admin.isPending
        ? "Loading the default referral ID..."
        : undefined;
  const text = (name: "name" | "email", label: string, type: string, autoComplete: string) => (
    <Field label={label} error={errors[name]}>
      {(control) => (
        <input {...control} name={name} type={type} autoComplete={autoComplete} required value={values[name]} onChange={set(name)} className="input" />
      )}
    </Field>
  );

  return (
    <AuthFrame pageTitle="Register" title="Create your account" subtitle="Join under a referral ID">
      <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-label="Register">
        {text("name", "Name", "text", "name")}
        {text("email", "Email", "email", "email")}
        <PasswordField label="Password" name="password" autoComplete="new-password" value={values.password} error={errors.password} onChange={set("password")} />
        <PasswordField
          label="Confirm password"
          name="confirmPassword"
          autoComplete="new-password"
          value={values.confirmPassword}
          error={errors.confirmPassword}
          onChange={set("confirmPassword")}
        />
        <Field
          label="Referral ID"
          error={errors.referralId}
          hint={referralHint}
        >
          {(control) => (
            <input {...control} name="referralId" type="text" autoComplete="off" spellCheck={false} required value={values.referralId} onChange={set("referralId")} className="input font-mono" />
          )}
        </Field>
        <button type="submit" className="btn-primary mt-1 w-full py-3 text-base" disabled={register.isPending}>
          {register.isPending ? "Registering..." : "Register"}
        </button>
      </form>
      <p className="m-0 mt-6 text-center text-sm muted">
        Already have an account?{" "}
        <Link to={PAGES.login} className="link">
          Log In
        </Link>
      </p>
    </AuthFrame>
  );
}
