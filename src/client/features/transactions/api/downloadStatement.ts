import { MEMBER } from "../../../../shared/contract/member";
import { isErrorCode } from "../../../../shared/errorCodes";
import { API_BASE, ApiError, queryString } from "../../../lib/api";
import { getToken } from "../../../lib/session";
import { type StatementFilter, withTimeZone } from "./getTransactions";

/**
 * The statement as CSV (`transactionsCsv` of the contract) with the page's filters. A plain
 * link could not send the token, so it is fetched like every other call, with x-auth-token,
 * and kept as the server's bytes (no decoding: the figures are already text).
 */
export async function fetchStatementCsv(filter: StatementFilter): Promise<Blob> {
  const headers: Record<string, string> = { Accept: "text/csv" };
  const token = getToken();
  if (token) headers["x-auth-token"] = token;
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${MEMBER.transactionsCsv.path}${queryString(withTimeZone(filter))}`, { headers });
  } catch {
    throw new ApiError("Could not reach the server.", 0, undefined);
  }
  if (response.ok) return response.blob();
  const body: unknown = await response.json().catch(() => undefined);
  const refusal = body && typeof body === "object" ? (body as { msg?: unknown; code?: unknown }) : {};
  const msg = typeof refusal.msg === "string" && refusal.msg ? refusal.msg : "Could not download the statement.";
  throw new ApiError(msg, response.status, body, isErrorCode(refusal.code) ? refusal.code : undefined);
}

/** Hands `blob` to the browser as a download named `name`: an object URL on a temporary <a download>. */
export function saveFile(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has been handled, so the download has its data.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
