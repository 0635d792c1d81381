import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import toast from "react-hot-toast";
import { Link, useLocation, useNavigate } from "react-router";
import { isPage, PAGES } from "../../../shared/pages";
import { loginSchema } from "../../../shared/schemas";
import { Field } from "../../components/Field";
import { showFailure } from "../../lib/serverMessage";
import { useSchemaForm } from "../../lib/useSchemaForm";
import type { FromState } from "../../app/RequireAuth";
import { meKey, type Me } from "../../lib/me";
import { useLogin } from "./api/login";
import { getTwoFactorStatus } from "../security/api/twoFactor";
import { AuthFrame } from "../../../ui/AuthFrame";
import { PasswordField } from "../../components/PasswordField";
import { TwoFactorStep } from "./TwoFactorStep";

/** Only our own dashboard is a valid place to return to (no open redirect through state). */
function returnPath(state: unknown): string {
  const from = (state as FromState | null)?.from;
  return typeof from === "string" && isPage(from, PAGES.dashboard, { nested: true }) ? from : PAGES.dashboard;
}

export default function LoginPage() {
  const { values, errors, set, submit } = useSchemaForm(loginSchema, { email: "", password: "" });
  const login = useLogin();
  const navigate = useNavigate();
  const location = useLocation();
  const client = useQueryClient();
  /** Set when the password was right and the account has 2FA on: the code step shows. */
  const [ticket, setTicket] = useState<string | null>(null);

  async function signedIn() {
    toast.success("Login successful! Welcome back.");
    // An admin who must turn 2FA on (ADMIN_REQUIRE_2FA) can reach nothing else: straight to it.
    if (client.getQueryData<Me>(meKey)?.role === "admin") {
      const status = await getTwoFactorStatus().catch(() => null);
      if (status?.required && !status.enabled) {
        toast.error("Admins must turn on two-factor authentication. Please set it up now.");
        navigate(PAGES.security, { replace: true });
        return;
      }
    }
    navigate(returnPath(location.state), { replace: true });
  }

  const onSubmit = submit((credentials) =>
    login.mutate(credentials, {
      onSuccess: (outcome) => {
        if (outcome.signedIn) void signedIn();
        else setTicket(outcome.ticket);
      },
      onError: (error) => {
        showFailure(error, "Login failed. Please check your credentials.");
      },
    }),
  );

  if (ticket) {
    return (
      <AuthFrame pageTitle="Log In" title="Two-factor authentication" subtitle="One more step to log in">
        <TwoFactorStep ticket={ticket} onSignedIn={() => void signedIn()} onRestart={() => setTicket(null)} />
      </AuthFrame>
    );
  }

  return (
    <AuthFrame pageTitle="Log In" title="Welcome back" subtitle="Log in to your account">
      <form noValidate onSubmit={onSubmit} className="grid gap-5" aria-label="Log in">
        <Field label="Email" error={errors.email}>
          {(control) => (
            <input {...control} name="email" type="email" autoComplete="email" required value={values.email} onChange={set("email")} className="input" />
          )}
        </Field>
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          value={values.password}
          error={errors.password}
          onChange={set("password")}
        />
        <p className="-mt-3 m-0 text-right text-sm">
          <Link to={PAGES.forgotPassword} className="link">
            Forgot your password?
          </Link>
        </p>
        <button type="submit" className="btn-primary w-full py-3 text-base" disabled={login.isPending}>
          {login.isPending ? "Logging in..." : "Login"}
        </button>
      </form>
      <p className="m-0 mt-6 text-center text-sm muted">
        Don't have an account?{" "}
        <Link to={PAGES.register} className="link">
          Register
        </Link>
      </p>
    </AuthFrame>
  );
}
