import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import toast from "react-hot-toast";
import { BUILD_HEADER } from "../../shared/constants";
import { readSse } from "../../shared/sse";
import { API_BASE } from "./api";
import { connectionLost, noteServerBuild, reportReached, reportUnreachable, unreachableStatus, whenReached } from "./connection";
import { meKey } from "./me";

/**
 * The member's live stream, GET /api/user/events (Server-Sent Events), read with fetch streaming
 * so the token goes in x-auth-token. Each event refreshes what it changed (react-query keys; the
 * polling of every query stays as the fallback) and a new notification is also a toast. A dropped
 * stream reconnects after a pause that grows to 30 s (5 s while the server cannot be reached),
 * with Last-Event-ID: the server sends what was missed, or, when that is more than it replays,
 * one `reset`, and every query is fetched again. A stream the server ended as it stopped (with a
 * `retry:` hint) comes back after the hint's pause. Query keys are spelled out here so the first
 * load carries none of the pages. Each try tells lib/connection whether the server was reached;
 * while it was not, the pause ends as soon as anything else reaches it.
 */
export function useLiveEvents(token: string | null | undefined, admin: boolean) {
  const client = useQueryClient();
  useEffect(() => {
    if (!token || typeof fetch === "undefined" || typeof TextDecoder === "undefined") return;
    const stop = new AbortController();
    let lastId: string | undefined;
    let failures = 0;
    /** The server's `retry:` hint (ms), followed when the stream ends cleanly. */
    let hinted: number | undefined;
    const refresh = (...keys: readonly unknown[][]) => {
      for (const queryKey of keys) void client.invalidateQueries({ queryKey });
    };
    const onEvent = (event: string, data: string, id: string | undefined) => {
      // The server's starting point: a reconnect resumes from it, never from the beginning.
      if (event === "ready") {
        if (id) lastId = id;
      } else if (event === "reset") {
        // More was missed than the server replays: everything shown is read again.
        if (id) lastId = id;
        void client.invalidateQueries();
      } else if (event === "notification") {
        if (id) lastId = id;
        try {
          const text = (JSON.parse(data) as { text?: unknown }).text;
          if (typeof text === "string") toast(text, { id: `n${id}`, icon: "🔔" });
        } catch {}
        // A missed earning moves no money (no balance event) but changes the Earnings page's "Missed".
        refresh([...meKey], ["notifications"], ["partners"], ["matrix"], ["me", "requests"], ["earnings"]);
      } else if (event === "balance") {
        // A slot paid into the member's matrix comes as a balance change alone when its notice is muted.
        refresh([...meKey], ["transactions"], ["earnings"], ["me", "requests"], ["matrix"]);
      }
      else if (event === "pending" && admin) refresh(["admin", "deposits"], ["admin", "withdrawals"]);
    };

    (async () => {
      while (!stop.signal.aborted) {
        try {
          const headers: Record<string, string> = { "x-auth-token": token, Accept: "text/event-stream" };
          if (lastId) headers["Last-Event-ID"] = lastId;
          const response = await fetch(`${API_BASE}/user/events`, { headers, signal: stop.signal });
          noteServerBuild(response.headers.get(BUILD_HEADER));
          if (unreachableStatus(response.status)) reportUnreachable();
          else reportReached();
          if (response.status === 401 || response.status === 403) return; // the session's own checks sign out
          if (!response.ok || !response.body) throw new Error(String(response.status));
          failures = 0;
          hinted = undefined;
          await readSse(response.body, ({ event, data, id, retry }) => {
            if (retry !== undefined) hinted = retry;
            onEvent(event, data, id);
          });
          // Ended by the server as it stopped: back after its hint, to whichever process answers then.
          if (hinted !== undefined) {
            await new Promise((r) => setTimeout(r, Math.min(hinted!, 30_000)));
            continue;
          }
        } catch (error) {
          if (stop.signal.aborted) return;
          // No answer, or the stream cut short: not a refusal, which came with a status.
          if (error instanceof TypeError) reportUnreachable();
        }
        failures++;
        // While the server is away the stream is also what notices it is back: it asks more often.
        const longest = connectionLost() ? LOST_RETRY_MAX_MS : 30_000;
        await pauseBeforeRetry(Math.min(1000 * 2 ** Math.min(failures, 5), longest), stop.signal);
      }
    })();
    return () => stop.abort();
  }, [token, admin, client]);
}

/** Longest pause between two tries of the stream while the connection is lost. */
export const LOST_RETRY_MAX_MS = 5_000;

/**
 * Waits `ms` before the stream's next try, or less: while the connection is lost, until anything
 * else reaches the server (the current user's query keeps asking), so the stream comes back with it.
 */
function pauseBeforeRetry(ms: number, stop: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const over = new AbortController();
    const end = () => over.abort();
    const timer = setTimeout(end, ms);
    stop.addEventListener("abort", end);
    over.signal.addEventListener("abort", () => {
      clearTimeout(timer);
      stop.removeEventListener("abort", end);
      resolve();
    });
    if (connectionLost()) void whenReached(over.signal).then(end);
  });
}
