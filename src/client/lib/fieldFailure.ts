import type { ErrorCode } from "../../shared/errorCodes";
import { ApiError } from "./api";
import { failureMessage, showFailure } from "./serverMessage";

/**
 * A refusal shown where it belongs: under the field its code is about (`fields`: code -> field;
 * `validation` names the field the form's server rule is about), with the server's sentence;
 * anything else (throttled, busy, the network) as one toast.
 */
export function showAtField<K extends string>(
  error: unknown,
  fail: (field: K, message: string) => void,
  fields: Partial<Record<ErrorCode, K>>,
  fallback: string,
): void {
  const field = error instanceof ApiError && error.code ? fields[error.code] : undefined;
  if (field) fail(field, failureMessage(error, fallback));
  else showFailure(error, fallback);
}
