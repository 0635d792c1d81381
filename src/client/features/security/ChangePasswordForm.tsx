import toast from "react-hot-toast";
import { changePasswordSchema } from "../../../shared/contract/account";
import { showAtField } from "../../lib/fieldFailure";
import { useSchemaForm } from "../../lib/useSchemaForm";
import { PasswordField } from "../../components/PasswordField";
import { useChangePassword } from "../account/api/account";

function confirmation(values: { newPassword: string; confirmPassword: string }) {
  if (!values.confirmPassword) return { confirmPassword: "Please confirm your new password." };
  return values.confirmPassword === values.newPassword ? {} : { confirmPassword: "Passwords do not match" };
}

/**
 * The Security page's password change: the current password, the new one twice. Every other
 * session is signed out; this one goes on (the answer's token), and a notice is mailed.
 */
export function ChangePasswordForm() {
  const change = useChangePassword();
  const { values, errors, set, submit, reset, fail } = useSchemaForm(
    changePasswordSchema,
    { currentPassword: "", newPassword: "", confirmPassword: "" },
    { check: confirmation },
  );
  const onSubmit = submit((input) =>
    change.mutate(input, {
      onSuccess: ({ msg }) => {
        toast.success(msg);
        reset();
      },
      onError: (error) =>
        showAtField(error, fail, { wrong_password: "currentPassword", throttled: "currentPassword", validation: "newPassword" }, "Your password could not be changed. Please try again."),
    }),
  );
  return (
    <section className="card flex flex-col gap-4" aria-labelledby="password-title">
      <h2 id="password-title" className="card-title">
        Password
      </h2>
      <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-label="Change password">
        <PasswordField
          label="Current password"
          name="currentPassword"
          autoComplete="current-password"
          value={values.currentPassword}
          error={errors.currentPassword}
          onChange={set("currentPassword")}
        />
        <PasswordField label="New password" name="newPassword" autoComplete="new-password" value={values.newPassword} error={errors.newPassword} onChange={set("newPassword")} />
        <PasswordField
          label="Confirm new password"
          name="confirmPassword"
          autoComplete="new-password"
          value={values.confirmPassword}
          error={errors.confirmPassword}
          onChange={set("confirmPassword")}
        />
        <p className="m-0 text-sm muted">Every other session is signed out; this one stays signed in.</p>
        <button type="submit" className="btn-primary justify-self-start" disabled={change.isPending}>
          {change.isPending ? "Saving..." : "Change password"}
        </button>
      </form>
    </section>
  );
}
