import { useMutation, type UseMutationOptions } from "@tanstack/react-query";
import { useRef } from "react";
import { ApiError } from "./api";

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
 * Only network failures and "still running" answers are retried, at most twice: the retry
 * carries the same key, so if an earlier attempt did reach the server it is replayed, not applied
 * again. Any other answer from the server (4xx refusals included) is final.
 */
export const MONEY_RETRIES = 2;
export const retryNetworkErrors = (failures: number, error: unknown) =>
  failures < MONEY_RETRIES && (isNetworkError(error) || isStillRunning(error));
export const moneyRetryDelay = (failures: number) => 500 * 2 ** failures;

type Options<TInput, TAnswer> = Omit<UseMutationOptions<TAnswer, Error, TInput & Keyed>, "mutationFn" | "retry" | "retryDelay">;

/**
 * The one way the UI moves money. `submit(input)` is one user action: it makes the action's
 * Idempotency-Key and react-query's retries reuse it, since the key is part of the variables.
 * A later submit gets a new key, except after a failure with no answer: if the user then sends
 * the very same input again, it is the same action retried, so it keeps the key and a call that
 * did go through is replayed instead of paying twice. A new key also follows any real answer,
 * because the server replays refusals too (a key that got "insufficient balance" keeps getting it).
 */
export function useMoneyMutation<TInput, TAnswer>(send: (input: TInput & Keyed) => Promise<TAnswer>, options: Options<TInput, TAnswer> = {}) {
  const mutation = useMutation({ ...options, mutationFn: send, retry: retryNetworkErrors, retryDelay: moneyRetryDelay });
  const unanswered = useRef<{ input: string; key: string } | null>(null);

  async function submit(input: TInput): Promise<TAnswer> {
    const fingerprint = JSON.stringify(input, (_key, value) => (typeof value === "bigint" ? `${value}n` : value));
    const key = unanswered.current?.input === fingerprint ? unanswered.current.key : crypto.randomUUID();
    unanswered.current = null;
    try {
      return await mutation.mutateAsync({ ...input, idempotencyKey: key });
    } catch (error) {
      // Still unanswered: the first attempt may yet go through, so the same input keeps the key.
      if (isNetworkError(error) || isStillRunning(error)) unanswered.current = { input: fingerprint, key };
      throw error;
    }
  }

  return { ...mutation, submit };
}
