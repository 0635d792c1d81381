import toast from "react-hot-toast";
import { Link, useLocation, useNavigate } from "react-router";
import { isPage, PAGES } from "../../../shared/pages";
import { loginSchema } from "../../../shared/schemas";
import { Field } from "../../components/Field";
import { failureMessage } from "../../lib/serverMessage";
import { useSchemaForm } from "../../lib/useSchemaForm";
import type { FromState } from "../../app/RequireAuth";
import { useLogin } from "./api/login";
import { AuthFrame } from "../../../ui/AuthFrame";
import { PasswordField } from "./PasswordField";

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

  const onSubmit = submit((credentials) =>
    login.mutate(credentials, {
      onSuccess: () => {
        toast.success("Login successful! Welcome back.");
        navigate(returnPath(location.state), { replace: true });
      },
      onError: (error) => {
        toast.error(failureMessage(error, "Login failed. Please check your credentials."));
      },
    }),
  );

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
