import { useEffect, useState, type ChangeEvent, type FormEvent } from "react";
import toast from "react-hot-toast";
import { Link, useNavigate, useSearchParams } from "react-router";
import { registerSchema, type RegisterInput } from "../../../shared/schemas";
import { Field } from "../../components/Field";
import { fieldErrors } from "../../lib/fieldErrors";
import { failureMessage, successMessage } from "../../lib/serverMessage";
import { useAdminReferralId, useRegister } from "./api/register";
import { AuthFrame } from "../../../ui/AuthFrame";
import { focusFirstError } from "./focusFirstError";
import { PasswordField } from "./PasswordField";

type Values = RegisterInput & { confirmPassword: string };
type Errors = Partial<Record<keyof Values, string>>;

export function validateRegistration(values: Values): Errors {
  const result = registerSchema.safeParse(values);
  const errors: Errors = result.success ? {} : fieldErrors<keyof Values>(result.error);
  if (!values.confirmPassword) errors.confirmPassword = "Please confirm your password.";
  else if (values.confirmPassword !== values.password) errors.confirmPassword = "Passwords do not match";
  return errors;
}

export default function RegisterPage() {
  const [params] = useSearchParams();
  const ref = params.get("ref")?.trim() ?? "";
  const [values, setValues] = useState<Values>({ name: "", email: "", password: "", confirmPassword: "", referralId: ref });
  const [errors, setErrors] = useState<Errors>({});
  const [tried, setTried] = useState(false);
  const admin = useAdminReferralId(!ref);
  const register = useRegister();
  const navigate = useNavigate();
  const adminId = admin.data?.referralId;

  // Without ?ref the admin's ID is the default, filled in once unless the visitor typed one.
  useEffect(() => {
    if (adminId) setValues((v) => (v.referralId ? v : { ...v, referralId: adminId }));
  }, [adminId]);

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const next = { ...values, [event.target.name]: event.target.value };
    setValues(next);
    if (tried) setErrors(validateRegistration(next));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTried(true);
    const found = validateRegistration(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirstError(event.currentTarget);
    const { confirmPassword: _, ...payload } = values;
    register.mutate(payload, {
      onSuccess: (answer) => {
        toast.success(successMessage(answer, "Registration successful! Please log in."));
        navigate("/login");
      },
      onError: (error) => {
        toast.error(failureMessage(error, "Registration failed. Please try again."));
      },
    });
  };

  const underAdmin = !ref && Boolean(adminId) && values.referralId.trim() === adminId;
  const text = (name: "name" | "email", label: string, type: string, autoComplete: string) => (
    <Field label={label} error={errors[name]}>
      {(control) => (
        <input {...control} name={name} type={type} autoComplete={autoComplete} required value={values[name]} onChange={onChange} className="input" />
      )}
    </Field>
  );

  return (
    <AuthFrame pageTitle="Register" title="Create your account" subtitle="Join under a referral ID">
      <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-label="Register">
        {text("name", "Name", "text", "name")}
        {text("email", "Email", "email", "email")}
        <PasswordField label="Password" name="password" autoComplete="new-password" value={values.password} error={errors.password} onChange={onChange} />
        <PasswordField
          label="Confirm password"
          name="confirmPassword"
          autoComplete="new-password"
          value={values.confirmPassword}
          error={errors.confirmPassword}
          onChange={onChange}
        />
        <Field
          label="Referral ID"
          error={errors.referralId}
          hint={ref ? "Filled in from your invitation link." : underAdmin ? "Registering under Admin ID" : admin.isPending ? "Loading the default referral ID..." : undefined}
        >
          {(control) => (
            <input {...control} name="referralId" type="text" autoComplete="off" spellCheck={false} required value={values.referralId} onChange={onChange} className="input font-mono" />
          )}
        </Field>
        <button type="submit" className="btn-primary mt-1 w-full py-3 text-base" disabled={register.isPending}>
          {register.isPending ? "Registering..." : "Register"}
        </button>
      </form>
      <p className="m-0 mt-6 text-center text-sm muted">
        Already have an account?{" "}
        <Link to="/login" className="link">
          Log In
        </Link>
      </p>
    </AuthFrame>
  );
}
