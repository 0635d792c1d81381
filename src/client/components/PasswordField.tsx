import { useState, type ChangeEvent } from "react";
import { Field } from "./Field";
import { Icon } from "../../ui/icons";

interface PasswordFieldProps {
  label: string;
  name: string;
  value: string;
  error?: string;
  autoComplete: "current-password" | "new-password";
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
}

/** A password input with a show/hide toggle that says what it does and whether it is on. */
export function PasswordField({ label, name, value, error, autoComplete, onChange }: PasswordFieldProps) {
  const [visible, setVisible] = useState(false);
  return (
    <Field label={label} error={error}>
      {(control) => (
        <div className="relative">
          <input
            {...control}
            name={name}
            type={visible ? "text" : "password"}
            value={value}
            onChange={onChange}
            autoComplete={autoComplete}
            required
            className="input pr-12"
          />
          <button
            type="button"
            onClick={() => setVisible((v) => !v)}
            aria-label={visible ? "Hide password" : "Show password"}
            aria-pressed={visible}
            aria-controls={control.id}
            className="absolute inset-y-1 right-1 flex w-10 cursor-pointer items-center justify-center rounded-control border-0 bg-transparent text-lg text-muted hover:text-fg focus-ring"
          >
            <Icon name={visible ? "eye-off" : "eye"} />
          </button>
        </div>
      )}
    </Field>
  );
}
