import { useState, type ChangeEvent, type FormEvent } from "react";
import toast from "react-hot-toast";
import { Link, useLocation, useNavigate } from "react-router";
import { loginSchema, type LoginInput } from "../../../shared/schemas";
import { Field } from "../../components/Field";
import { fieldErrors } from "../../lib/fieldErrors";
import { failureMessage } from "../../lib/serverMessage";
import type { FromState } from "../../app/RequireAuth";
import { useLogin } from "./api/login";
import { AuthFrame } from "../../../ui/AuthFrame";
import { focusFirstError } from "./focusFirstError";
import { PasswordField } from "./PasswordField";

type Errors = Partial<Record<keyof LoginInput, string>>;

/** Only our own dashboard is a valid place to return to (no open redirect through state). */
function returnPath(state: unknown): string {
  const from = (state as FromState | null)?.from;
  return typeof from === "string" && /^\/userdashboard(\/|$|\?|#)/i.test(from) ? from : "/userDashboard";
}

const validate = (values: LoginInput): Errors => {
  const result = loginSchema.safeParse(values);
  return result.success ? {} : fieldErrors<keyof LoginInput>(result.error);
};

export default function LoginPage() {
  const [values, setValues] = useState<LoginInput>({ email: "", password: "" });
  const [errors, setErrors] = useState<Errors>({});
  const [tried, setTried] = useState(false);
  const login = useLogin();
  const navigate = useNavigate();
  const location = useLocation();

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const next = { ...values, [event.target.name]: event.target.value };
    setValues(next);
    // Messages appear on the first submit, then follow the typing so they clear as fixed.
    if (tried) setErrors(validate(next));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTried(true);
    const found = validate(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirstError(event.currentTarget);
    login.mutate(values, {
      onSuccess: () => {
        toast.success("Login successful! Welcome back.");
        navigate(returnPath(location.state), { replace: true });
      },
      onError: (error) => {
        toast.error(failureMessage(error, "Login failed. Please check your credentials."));
      },
    });
  };

  return (
    <AuthFrame pageTitle="Log In" title="Welcome back" subtitle="Log in to your account">
      <form noValidate onSubmit={onSubmit} className="grid gap-5" aria-label="Log in">
        <Field label="Email" error={errors.email}>
          {(control) => (
            <input {...control} name="email" type="email" autoComplete="email" required value={values.email} onChange={onChange} className="input" />
          )}
        </Field>
        <PasswordField label="Password" name="password" autoComplete="current-password" value={values.password} error={errors.password} onChange={onChange} />
        <button type="submit" className="btn-primary w-full py-3 text-base" disabled={login.isPending}>
          {login.isPending ? "Logging in..." : "Login"}
        </button>
      </form>
      <p className="m-0 mt-6 text-center text-sm muted">
        Don't have an account?{" "}
        <Link to="/register" className="link">
          Register
        </Link>
      </p>
    </AuthFrame>
  );
}
