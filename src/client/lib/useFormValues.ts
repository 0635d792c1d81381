import { useState } from "react";

/** A form's text values and its per-field errors; `set(key)` is the field's onChange. */
export function useFormValues<V extends Record<string, string>>(empty: V) {
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<Partial<Record<keyof V, string>>>({});
  const set = (key: keyof V) => (event: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: event.target.value }));
  return { values, errors, setErrors, set, reset: () => setValues(empty) };
}
