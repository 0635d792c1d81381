import toast from "react-hot-toast";
import { SIGN_IN_AGAIN } from "../../shared/errorCodes";
import { ApiError } from "./api";

/**
 * The spec's defaults apply only "when the server gives no msg", so a failure shows the
 * server's own sentence when it sent one and the page's default otherwise (network errors,
 * HTML error pages, bare status texts).
 */
export function failureMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return msgOf(error.body) ?? fallback;
  return fallback;
}

/**
 * Shows a failure as an error toast (`failureMessage`), with `options` as react-hot-toast takes
 * them (the id of a loading toast it replaces). Silent for the two refusals that only mean "sign
 * in again", as the spec says ("No token, authorization denied", "Token is not valid"): the app
 * signs the member out instead. A loading toast it would have replaced is dismissed.
 */
export function showFailure(error: unknown, fallback: string, options?: { id?: string }): void {
  if (error instanceof ApiError && error.code !== undefined && SIGN_IN_AGAIN.has(error.code)) {
    if (options?.id !== undefined) toast.dismiss(options.id);
    return;
  }
  toast.error(failureMessage(error, fallback), options);
}

/** The `msg` of a successful answer, else the page's default success text. */
export function successMessage(answer: unknown, fallback: string): string {
  return msgOf(answer) ?? fallback;
}

/**
 * A refusal about one field of the request (the answer's `field`, docs/rules.md#errors), with its
 * sentence: the form shows it at that field. Null for anything else.
 */
export function refusedField(error: unknown): { field: string; msg: string } | null {
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500) return null;
  const field = (error.body as { field?: unknown } | undefined)?.field;
  const msg = msgOf(error.body);
  return typeof field === "string" && field !== "" && msg !== undefined ? { field, msg } : null;
}

/**
 * Shows a refusal about a field at the form's field (`fail` of useSchemaForm) when the form has
 * it: `fields` maps the API's field names to the form's. Answers whether it did, so the caller
 * toasts only the refusals that are about no field of the form.
 */
export function failAtField<K>(error: unknown, fail: (key: K, msg: string) => void, fields: Partial<Record<string, K>>): boolean {
  const refusal = refusedField(error);
  const key = refusal ? fields[refusal.field] : undefined;
  if (!refusal || key === undefined) return false;
  fail(key, refusal.msg);
  return true;
}

function msgOf(body: unknown): string | undefined {
  if (!body || typeof body !== "object") return undefined;
  const msg = (body as { msg?: unknown }).msg;
  return typeof msg === "string" && msg.trim() ? msg : undefined;
}

/** The texts of one request behind a toast: while it runs, and the defaults for its outcome. */
export interface ToastTexts {
  loading: string;
  success: string;
  failure: string;
}

/**
 * Runs `send` behind a loading toast that becomes the server's answer (or the defaults when
 * it says nothing). Resolves to whether the request succeeded, so forms know when to clear.
 */
export async function withToast(texts: ToastTexts, send: () => Promise<unknown>, atField?: (error: unknown) => boolean): Promise<boolean> {
  const id = toast.loading(texts.loading);
  try {
    toast.success(successMessage(await send(), texts.success), { id });
    return true;
  } catch (error) {
    // A refusal shown at its field (`atField` answers whether it was) needs no toast as well.
    if (atField?.(error)) toast.dismiss(id);
    else showFailure(error, texts.failure, { id });
    return false;
  }
}
