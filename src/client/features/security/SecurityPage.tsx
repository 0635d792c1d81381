import { useState } from "react";
import toast from "react-hot-toast";
import { twoFactorChangeSchema, twoFactorCodeSchema, twoFactorSetupSchema } from "../../../shared/contract/auth";
import { CopyButton } from "../../components/CopyButton";
import { ErrorState } from "../../components/ErrorState";
import { Field } from "../../components/Field";
import { Spinner } from "../../components/Spinner";
import { showAtField } from "../../lib/fieldFailure";
import { useSchemaForm } from "../../lib/useSchemaForm";
import { PasswordField } from "../../components/PasswordField";
import { ChangePasswordForm } from "./ChangePasswordForm";
import { useBeginSetup, useDisableTwoFactor, useEnableTwoFactor, useTwoFactorStatus } from "./api/twoFactor";
import { QrCode } from "../../components/QrCode";

/**
 * Security: the password, and two-factor authentication for any member (admins may be required
 * to use it, ADMIN_REQUIRE_2FA). Changing either asks for the current password: a session alone
 * cannot lock its owner out. Set-up shows a QR code drawn here and the secret as text, and asks
 * for a code to turn it on; the ten recovery codes are shown once, right then.
 */
export default function SecurityPage() {
  const status = useTwoFactorStatus();
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);

  return (
    <div className="flex max-w-xl flex-col gap-6">
      <h1 className="heading-gradient text-2xl font-bold">Security</h1>
      <ChangePasswordForm />
      {recoveryCodes ? (
        <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />
      ) : (
        <section className="card flex flex-col gap-4" aria-labelledby="two-factor-title">
          <h2 id="two-factor-title" className="card-title">
            Two-factor authentication
          </h2>
          {status.isPending && <Spinner label="Loading..." />}
          {status.isError && <ErrorState message="Could not load your security settings." onRetry={() => void status.refetch()} />}
          {status.data &&
            (status.data.enabled ? (
              <Enabled codesLeft={status.data.recoveryCodesLeft} />
            ) : (
              <>
                {status.data.required && (
                  <p role="alert" className="m-0 rounded-control border border-pending/40 bg-pending/12 px-3 py-2 text-sm text-pending">
                    Admins must use two-factor authentication: set it up to reach the rest of the dashboard.
                  </p>
                )}
                <SetUp onEnabled={setRecoveryCodes} />
              </>
            ))}
        </section>
      )}
    </div>
  );
}

/** Where each refusal of the 2FA forms is shown. */
const CODE_FIELDS = { wrong_password: "currentPassword", two_factor_invalid: "code", throttled: "code", validation: "code" } as const;

/** Off: the current password for a new secret, then a code from the app to turn it on. */
function SetUp({ onEnabled }: { onEnabled: (codes: string[]) => void }) {
  const setup = useBeginSetup();
  const enable = useEnableTwoFactor();
  const proof = useSchemaForm(twoFactorSetupSchema, { currentPassword: "" });
  const { values, errors, set, submit, reset, fail } = useSchemaForm(twoFactorCodeSchema, { code: "" });

  const onStart = proof.submit((input) =>
    setup.mutate(input, {
      onError: (error) => showAtField(error, proof.fail, { wrong_password: "currentPassword", throttled: "currentPassword" }, "Could not start the set-up."),
    }),
  );

  // The password proved at the start goes with the code: it is not asked twice.
  const onSubmit = submit((input) =>
    enable.mutate(
      { ...input, currentPassword: proof.values.currentPassword },
      {
        onSuccess: ({ recoveryCodes }) => {
          toast.success("Two-factor authentication is on. Every other session was signed out.");
          reset();
          onEnabled(recoveryCodes);
        },
        onError: (error) => showAtField(error, fail, { ...CODE_FIELDS, wrong_password: "code" }, "The code could not be checked. Please try again."),
      },
    ),
  );

  if (!setup.data) {
    return (
      <>
        <p className="m-0 muted">
          Protect your account with a second step at login: a code from an authenticator app on your phone (Google Authenticator,
          Aegis, 1Password, ...).
        </p>
        <form noValidate onSubmit={onStart} className="grid gap-4" aria-label="Set up two-factor authentication">
          <PasswordField
            label="Current password"
            name="currentPassword"
            autoComplete="current-password"
            value={proof.values.currentPassword}
            error={proof.errors.currentPassword}
            onChange={proof.set("currentPassword")}
          />
          <button type="submit" className="btn-primary justify-self-start" disabled={setup.isPending}>
            {setup.isPending ? "Starting..." : "Set up two-factor authentication"}
          </button>
        </form>
      </>
    );
  }

  return (
    <>
      <ol className="m-0 flex list-decimal flex-col gap-3 pl-5 text-sm">
        <li>Scan this QR code with your authenticator app.</li>
        <li>Or type this key into it:</li>
      </ol>
      <QrCode text={setup.data.otpauthUrl} label="QR code for your authenticator app" />
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <code className="flex-1 break-all rounded-control bg-ink-deep px-3 py-2 font-mono text-sm text-figure-blue">{setup.data.secret}</code>
        <CopyButton text={setup.data.secret} label="Copy key" />
      </div>
      <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-label="Turn on two-factor authentication">
        <Field label="Code from the app" error={errors.code} hint="The 6-digit code the app shows now. Every other session is signed out.">
          {(control) => (
            <input {...control} name="code" type="text" inputMode="numeric" autoComplete="one-time-code" value={values.code} onChange={set("code")} className="input" />
          )}
        </Field>
        <button type="submit" className="btn-primary" disabled={enable.isPending}>
          {enable.isPending ? "Turning on..." : "Turn on"}
        </button>
      </form>
    </>
  );
}

/** The recovery codes, this once. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <section className="card flex flex-col gap-4" aria-labelledby="recovery-title">
      <h2 id="recovery-title" className="card-title">
        Your recovery codes
      </h2>
      <p className="m-0 muted">
        Each code signs you in once if you lose your phone. Keep them somewhere safe: they are shown only now.
      </p>
      <ul className="m-0 grid list-none grid-cols-2 gap-2 p-0 font-mono text-sm" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code} className="rounded-control bg-ink-deep px-3 py-2 text-center">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-3">
        <CopyButton text={codes.join("\n")} label="Copy all codes" />
        <button type="button" className="btn-primary" onClick={onDone}>
          I have saved them
        </button>
      </div>
    </section>
  );
}

/** On: the codes left, and turning it off with a code and the current password. */
function Enabled({ codesLeft }: { codesLeft: number }) {
  const disable = useDisableTwoFactor();
  const { values, errors, set, submit, reset, fail } = useSchemaForm(twoFactorChangeSchema, { code: "", currentPassword: "" });
  const onSubmit = submit((input) =>
    disable.mutate(input, {
      onSuccess: ({ msg }) => {
        toast.success(msg);
        reset();
      },
      onError: (error) => showAtField(error, fail, CODE_FIELDS, "The code could not be checked. Please try again."),
    }),
  );
  return (
    <>
      <p className="m-0">
        <span className="badge-active">On</span> Logins ask for a code from your authenticator app.{" "}
        {codesLeft} recovery code{codesLeft === 1 ? "" : "s"} left.
      </p>
      <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-label="Turn off two-factor authentication">
        <Field label="Code to turn it off" error={errors.code} hint="A code from the app, or a recovery code.">
          {(control) => <input {...control} name="code" type="text" autoComplete="one-time-code" value={values.code} onChange={set("code")} className="input" />}
        </Field>
        <PasswordField
          label="Current password"
          name="currentPassword"
          autoComplete="current-password"
          value={values.currentPassword}
          error={errors.currentPassword}
          onChange={set("currentPassword")}
        />
        <button type="submit" className="btn-danger" disabled={disable.isPending}>
          {disable.isPending ? "Turning off..." : "Turn off two-factor authentication"}
        </button>
      </form>
    </>
  );
}
