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

/** The `msg` of a successful answer, else the page's default success text. */
export function successMessage(answer: unknown, fallback: string): string {
  return msgOf(answer) ?? fallback;
}

function msgOf(body: unknown): string | undefined {
  if (!body || typeof body !== "object") return undefined;
  const msg = (body as { msg?: unknown }).msg;
  return typeof msg === "string" && msg.trim() ? msg : undefined;
}
