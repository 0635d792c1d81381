import { useRef, useState, type FormEvent } from "react";
import type * as z from "zod/mini";

type Errors<V> = Partial<Record<keyof V, string>>;

interface FormOptions<V, Data> {
  /**
   * Rules the shared schema cannot hold because they need more than the payload: the available
   * balance, or a field the API never receives (the password confirmation). `data` is the
   * schema's output, undefined while the schema refuses the values. The schema's message wins
   * where both speak of one field.
   */
  check?: (values: V, data: Data | undefined) => Errors<V>;
}

/**
 * The one way a form validates: its text values go through the payload's shared zod schema
 * (src/shared/schemas.ts, the rule the server applies), so the form has no rules of its own.
 * Messages appear under the fields on the first submit and then follow the typing, so they
 * clear as they are fixed; a refused submit moves focus to the first field to fix.
 * `submit(send)` is the form's onSubmit: `send` gets the schema's output (amounts in cents). While
 * what `send` started runs, another submit (a double click, Enter pressed twice, before the
 * button shows itself disabled) does nothing: one action, one call.
 */
export function useSchemaForm<V extends Record<string, string>, S extends z.ZodMiniType>(
  schema: S,
  initial: V,
  { check }: FormOptions<V, z.output<S>> = {},
) {
  const [values, setValues] = useState(initial);
  const [tried, setTried] = useState(false);
  /** What the server refused, at the field it is about (`fail`); cleared as that field is typed in. */
  const [refused, setRefused] = useState<Errors<V>>({});
  const sending = useRef(false);
  const lastForm = useRef<HTMLFormElement | null>(null);

  // Derived on every render, so messages follow the typing (and the data `check` reads).
  const parsed = schema.safeParse(values);
  const data = parsed.success ? (parsed.data as z.output<S>) : undefined;
  const found = { ...check?.(values, data), ...(parsed.success ? {} : fieldErrors<V>(parsed.error)) } as Errors<V>;
  const valid = parsed.success && Object.keys(found).length === 0;

  /** The onChange of the field `key`. */
  const set = (key: keyof V) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((current) => ({ ...current, [key]: value }));
    setRefused((current) => {
      if (!(key in current)) return current;
      const { [key]: _gone, ...rest } = current;
      return rest as Errors<V>;
    });
  };

  const submit = (send: (data: z.output<S>) => unknown) => (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    lastForm.current = event.currentTarget;
    setTried(true);
    if (!valid) return focusFirstError(event.currentTarget);
    if (sending.current) return;
    sending.current = true;
    const release = () => void (sending.current = false);
    try {
      void Promise.resolve(send(data as z.output<S>)).then(release, release);
    } catch (error) {
      release();
      throw error;
    }
  };

  /** Back to the first values, with no messages until the next submit. */
  function reset() {
    setValues(initial);
    setTried(false);
    setRefused({});
  }

  /** Shows the server's refusal under `key` (the field it is about) and moves focus there. */
  function fail(key: keyof V, message: string) {
    setRefused((current) => ({ ...current, [key]: message }));
    if (lastForm.current) focusFirstError(lastForm.current);
  }

  const errors: Errors<V> = { ...refused, ...(tried ? found : {}) };
  return { values, setValues, errors, set, submit, reset, fail };
}

/** The first message per top-level field of a failed schema parse. */
function fieldErrors<V>(error: z.core.$ZodError): Errors<V> {
  const out: Errors<V> = {};
  for (const issue of error.issues) {
    const key = issue.path[0] as keyof V | undefined;
    if (key !== undefined && !(key in out)) out[key] = issue.message;
  }
  return out;
}

/** Keyboard and screen-reader users land on the first field to fix. */
function focusFirstError(form: HTMLFormElement) {
  // Wait a frame: the aria-invalid attributes are set by the render that follows.
  requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}
