import { useState } from "react";
import toast from "react-hot-toast";
import { emailChangeSchema, profileSchema } from "../../../shared/contract/account";
import { Field } from "../../components/Field";
import { showAtField } from "../../lib/fieldFailure";
import type { Me } from "../../lib/me";
import { useSchemaForm } from "../../lib/useSchemaForm";
import { PasswordField } from "../../components/PasswordField";
import { useChangeEmail, useUpdateProfile } from "../account/api/account";

/**
 * The profile's own settings: the name (the sign-up's rules, names that pass for staff refused
 * with the server's reason under the field) and the email address, which changes only once the
 * link mailed to the new address is opened. Loaded with the profile page, after its cards.
 */
export default function AccountSettings({ user }: { user: Pick<Me, "name" | "email"> }) {
  return (
    <section className="card flex flex-col gap-6" aria-labelledby="account-settings-title">
      <h2 id="account-settings-title" className="card-title m-0">
        Account settings
      </h2>
      <NameForm name={user.name} />
      <EmailForm email={user.email} />
    </section>
  );
}

function NameForm({ name }: { name: string }) {
  const update = useUpdateProfile();
  const { values, errors, set, submit, fail } = useSchemaForm(profileSchema, { name });
  const onSubmit = submit((input) =>
    update.mutate(input, {
      onSuccess: ({ msg }) => toast.success(msg),
      onError: (error) => showAtField(error, fail, { validation: "name" }, "Your name could not be saved. Please try again."),
    }),
  );
  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-3" aria-label="Edit profile">
      <Field label="Name" error={errors.name} hint="Shown to other members: in gifts, partner lists and matrices.">
        {(control) => <input {...control} name="name" type="text" autoComplete="name" required value={values.name} onChange={set("name")} className="input" />}
      </Field>
      <button type="submit" className="btn-primary justify-self-start" disabled={update.isPending}>
        {update.isPending ? "Saving..." : "Save name"}
      </button>
    </form>
  );
}

function EmailForm({ email }: { email: string }) {
  const change = useChangeEmail();
  const [sent, setSent] = useState<string | null>(null);
  const { values, errors, set, submit, reset, fail } = useSchemaForm(emailChangeSchema, { newEmail: "", password: "" });
  const onSubmit = submit((input) =>
    change.mutate(input, {
      onSuccess: ({ msg }) => {
        setSent(msg);
        reset();
      },
      onError: (error) =>
        showAtField(error, fail, { email_taken: "newEmail", validation: "newEmail", wrong_password: "password", throttled: "password" }, "The link could not be sent. Please try again."),
    }),
  );
  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-3" aria-label="Change email">
      <p className="m-0 text-sm">
        Your address: <span className="font-medium">{email}</span>
      </p>
      {sent && (
        <p role="status" className="m-0 rounded-control border border-accepted/40 bg-accepted/12 px-3 py-2 text-sm">
          {sent}
        </p>
      )}
      <Field label="New email" error={errors.newEmail} hint="We mail a link there; your address changes once you open it.">
        {(control) => <input {...control} name="newEmail" type="email" autoComplete="email" required value={values.newEmail} onChange={set("newEmail")} className="input" />}
      </Field>
      <PasswordField label="Current password" name="password" autoComplete="current-password" value={values.password} error={errors.password} onChange={set("password")} />
      <button type="submit" className="btn-primary justify-self-start" disabled={change.isPending}>
        {change.isPending ? "Sending..." : "Change email"}
      </button>
    </form>
  );
}
