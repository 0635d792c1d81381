import { useMutation, useQueryClient, type UseMutationOptions } from "@tanstack/react-query";
import { useRef } from "react";
import { MSG } from "../../shared/messages";
import { ApiError } from "./api";
import { meKey } from "./me";
import { failureMessage } from "./serverMessage";

/** What every money call takes besides its own input: the Idempotency-Key of the user action. */
export interface Keyed {
  idempotencyKey: string;
}

/** No answer at all (offline, connection dropped): the server may or may not have applied the call. */
export const isNetworkError = (error: unknown) => error instanceof ApiError && error.status === 0;

/** The server is still running an earlier attempt with this key (say, one whose answer was lost). */
export const isStillRunning = (error: unknown) =>
  error instanceof ApiError && error.code === "idempotency_busy";

/**
 * Whether a failure leaves the action's outcome unknown: no answer, "still running", a 5xx (a
 * proxy's 502 or 504 may come after the server committed), a 429 ("not now"), or a success the
 * client could not read. The server keeps none of these as the key's answer, so sending the same
 * input again with the same key is always safe: a call that went through is replayed, not applied
 * twice. Only a refusal of the operation (a 4xx) is a definite answer.
 */
export const outcomeUnknown = (error: unknown) =>
  error instanceof ApiError && (error.status === 0 || isStillRunning(error) || error.status >= 500 || error.status === 429 || (error.status >= 200 && error.status < 300));

/**
 * Only network failures and "still running" answers are retried, at most twice: the retry
 * carries the same key, so if an earlier attempt did reach the server it is replayed, not applied
 * again. Any other answer from the server (4xx refusals included) is final.
 */
export const MONEY_RETRIES = 2;
export const retryNetworkErrors = (failures: number, error: unknown) =>
  failures < MONEY_RETRIES && (isNetworkError(error) || isStillRunning(error));
export const moneyRetryDelay = (failures: number) => 500 * 2 ** failures;

/**
 * A failure with no definite answer, told as such: not "failed", which would invite the member to
 * change the amount and send again (a new action, a new key: paid twice if the first went
 * through). The server's own sentence stays when it sent one (a 429's, say).
 */
function saidUnknown(error: ApiError): ApiError {
  // (A 2xx that could not be read says nothing: its msg may well be a success's.)
  if (error.status >= 300 && failureMessage(error, "") !== "") return error;
  return new ApiError(MSG.outcomeUnknown, error.status, { msg: MSG.outcomeUnknown }, error.code);
}

/**
 * How long the same input counts as a resend of an action whose outcome was unknown. Later, the
 * same gift to the same member is a new gift: reusing the key would replay the first one's
 * success and send nothing.
 */
export const RESEND_WINDOW_MS = 10 * 60_000;

type Options<TInput, TAnswer> = Omit<UseMutationOptions<TAnswer, Error, TInput & Keyed>, "mutationFn" | "retry" | "retryDelay">;

/**
 * The one way the UI moves money. `submit(input)` is one user action: it makes the action's
 * Idempotency-Key and react-query's retries reuse it, since the key is part of the variables.
 * A later submit gets a new key, except after a failure whose outcome is unknown
 * (`outcomeUnknown`): if the user then sends the very same input again, it is the same action
 * retried, so it keeps the key and a call that did go through is replayed instead of paying
 * twice. A new key follows any definite answer, because the server replays refusals too (a key
 * that got "insufficient balance" keeps getting it).
 */
export function useMoneyMutation<TInput, TAnswer>(send: (input: TInput & Keyed) => Promise<TAnswer>, options: Options<TInput, TAnswer> = {}) {
  const client = useQueryClient();
  const mutation = useMutation({ ...options, mutationFn: send, retry: retryNetworkErrors, retryDelay: moneyRetryDelay });
  const unanswered = useRef<{ input: string; key: string; at: number } | null>(null);

  async function submit(input: TInput): Promise<TAnswer> {
    const fingerprint = JSON.stringify(input, (_key, value) => (typeof value === "bigint" ? `${value}n` : value));
    const resend = unanswered.current?.input === fingerprint && Date.now() - unanswered.current.at < RESEND_WINDOW_MS;
    const key = resend ? unanswered.current!.key : crypto.randomUUID();
    unanswered.current = null;
    try {
      return await mutation.mutateAsync({ ...input, idempotencyKey: key });
    } catch (error) {
      // No definite answer: the first attempt may have gone through, so the same input keeps the key.
      if (!outcomeUnknown(error)) throw error;
      unanswered.current = { input: fingerprint, key, at: Date.now() };
      // The balance and the levels are read again: they say whether it did.
      void client.invalidateQueries({ queryKey: meKey });
      throw saidUnknown(error as ApiError);
    }
  }

  return { ...mutation, submit };
}
