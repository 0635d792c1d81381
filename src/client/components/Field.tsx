import { useId, type InputHTMLAttributes, type ReactNode } from "react";
import { type Cents, formatDollars } from "../../shared/money";

/** What the control inside a Field must spread so its label, hint and error are linked. */
export interface FieldControlProps {
  id: string;
  "aria-invalid": boolean;
  "aria-describedby"?: string;
}

interface FieldProps {
  label: string;
  error?: string;
  hint?: ReactNode;
  children: (control: FieldControlProps) => ReactNode;
}

/** A labelled form control with an optional hint and its validation message. */
export function Field({ label, error, hint, children }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : "", error ? errorId : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      {children({ id, "aria-invalid": Boolean(error), "aria-describedby": describedBy })}
      {hint && (
        <p id={hintId} className="muted text-sm">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} role="alert" className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

type AmountInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "min" | "max"> & { min: Cents; max?: Cents };

/**
 * A USDT amount, kept as the typed text (the form's schema reads it as exact cents): the
 * decimal keyboard, steps of a cent, and the smallest and largest amounts for assistive tech.
 */
export function AmountInput({ min, max, ...props }: AmountInputProps) {
  return (
    <input
      className="input"
      required
      {...props}
      type="number"
      inputMode="decimal"
      step="0.01"
      min={formatDollars(min)}
      max={max === undefined ? undefined : formatDollars(max)}
    />
  );
}
