import toast from "react-hot-toast";
import * as z from "zod/mini";
import { type Endpoint as ApiEndpoint, fillPath, type PathParams } from "../../shared/contract/wire";
import { isPage, PAGES } from "../../shared/pages";
import { type ErrorCode, isErrorCode, SIGN_IN_AGAIN } from "../../shared/errorCodes";
import { BUILD_HEADER } from "../../shared/constants";
import { noteServerBuild, reportReached, reportUnreachable, unreachableStatus } from "./connection";
import { getToken, setToken } from "./session";

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
    /** The refusal's code (src/shared/errors.ts); undefined when no answer came or it carried none. */
    readonly code?: ErrorCode,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export interface RequestOptions {
  body?: unknown;
  /** Skip the error toast; the caller shows its own message. */
  quiet?: boolean;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * Sent as Idempotency-Key on money calls: one per user action, the same on every retry of it,
   * so the server applies the action once and replays its first answer (see lib/moneyMutation).
   */
  idempotencyKey?: string;
  /** Sees the response before its body is read (a header such as X-Total-Count). */
  onResponse?: (response: Response) => void;
}

export const API_BASE = "/api";

/** What a failure with no answer from the server says (the browser's own words name no cause). */
export const NO_ANSWER = "The server could not be reached.";

/**
 * The one way the client talks to the server. Sends the token in x-auth-token, parses JSON,
 * and on failure: toasts the message (msg, else the error's own, else a default) unless its
 * code only means "sign in again", and on 401 forgets the token and goes to the login page. The error is still
 * thrown to the caller. Each try tells lib/connection whether the server was reached: no answer,
 * or a gateway's, is not toasted (the dashboard's banner says it once) and never signs out.
 */
export async function api<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
  const token = getToken();
  if (token) headers["x-auth-token"] = token;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  if (options.idempotencyKey !== undefined) headers["Idempotency-Key"] = options.idempotencyKey;

  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    // A call given up by its caller (a page left) says nothing about the server.
    if (!(error instanceof DOMException && error.name === "AbortError")) reportUnreachable();
    throw new ApiError(NO_ANSWER, 0, undefined);
  }

  noteServerBuild(response.headers.get(BUILD_HEADER));
  options.onResponse?.(response);
  const text = await response.text();
  let body: unknown = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  if (response.ok) {
    reportReached();
    return body as T;
  }

  const refusal = body && typeof body === "object" ? (body as { msg?: unknown; code?: unknown }) : {};
  const msg = (typeof refusal.msg === "string" && refusal.msg) || response.statusText || "An unknown error occurred";
  const code = isErrorCode(refusal.code) ? refusal.code : undefined;
  const away = unreachableStatus(response.status, code);
  if (away) reportUnreachable();
  else reportReached();
  if (!options.quiet && !away && !(code && SIGN_IN_AGAIN.has(code))) toast.error(msg);
  if (response.status === 401) {
    setToken(null);
    if (typeof window !== "undefined" && !isPage(window.location.pathname, PAGES.login)) window.location.assign(PAGES.login);
  }
  throw new ApiError(msg, response.status, body, code);
}

/** The message to show for a failed call: the server's msg, the error's own, else `fallback`. */
export function errorMessage(error: unknown, fallback = "An unknown error occurred"): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

type PathOf<E extends ApiEndpoint> = E["path"];
type HasParams<E extends ApiEndpoint> = [PathParams<PathOf<E>>] extends [never] ? false : true;

/** What `call` takes for an endpoint: its path params, query and body, typed by the contract. */
export type CallOptions<E extends ApiEndpoint> = Omit<RequestOptions, "body"> &
  (HasParams<E> extends true ? { params: Record<PathParams<PathOf<E>>, string | number> } : { params?: never }) &
  (E extends { query: z.core.$ZodType } ? { query?: z.input<E["query"]> } : { query?: never }) &
  (E extends { body: z.core.$ZodType } ? { body: z.input<E["body"]> } : { body?: never });

/** `?a=1&b=2` from the defined values of `query`, or "". */
export function queryString(query: Record<string, unknown> | undefined): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined && value !== "") search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : "";
}

/**
 * Calls an endpoint of the contract (src/shared/contract/) by its definition and reads the
 * answer through its schema: money arrives as bigint cents, dates as Date, ids as `id`. An
 * answer that does not fit the contract is an error, not data.
 */
export async function call<E extends ApiEndpoint>(endpoint: E, ...[options]: CallArgs<E>): Promise<z.output<E["response"]>> {
  const { params, query, ...rest } = (options ?? {}) as CallOptions<E> & { params?: Record<string, string | number>; query?: Record<string, unknown> };
  const path = fillPath(endpoint.path, (params ?? {}) as never) + queryString(query);
  const answer = await api(endpoint.method, path, rest as RequestOptions);
  const read = z.safeDecode(endpoint.response, answer as never);
  if (read.success) return read.data as z.output<E["response"]>;
  const message = "The server's answer could not be read. Please reload the page.";
  if (!rest.quiet) toast.error(message);
  throw new ApiError(message, 200, answer);
}

type CallArgs<E extends ApiEndpoint> = HasParams<E> extends true
  ? [options: CallOptions<E>]
  : E extends { body: z.core.$ZodType }
    ? [options: CallOptions<E>]
    : [options?: CallOptions<E>];
