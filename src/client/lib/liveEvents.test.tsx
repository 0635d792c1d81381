import { serveFetch, useDom } from "../../testing/dom";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderHook, waitFor } from "@testing-library/react";
import { expect, test } from "bun:test";
import type { ReactNode } from "react";
import { useLiveEvents } from "./liveEvents";

useDom();

/** The live stream as the server writes it: the events, then the stream stays open. */
function stream(events: string) {
  const body = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new TextEncoder().encode(events)) });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

/** useLiveEvents on a stream sending `events`: the query keys it refreshed. */
async function refreshedBy(events: string, expected: unknown[]) {
  serveFetch(() => stream(events));
  const client = new QueryClient();
  const refreshed: unknown[] = [];
  const invalidate = client.invalidateQueries.bind(client);
  client.invalidateQueries = ((filters) => {
    refreshed.push(filters?.queryKey);
    return invalidate(filters);
  }) as typeof client.invalidateQueries;
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  const hook = renderHook(() => useLiveEvents("test-token", false), { wrapper });
  await waitFor(() => expect(refreshed).toEqual(expect.arrayContaining(expected)));
  hook.unmount();
  return refreshed;
}

test("a notification (a missed earning moves no money, so no balance event comes) refreshes the earnings too", async () => {
  await refreshedBy('event: ready\nid: 1\ndata: {}\n\nevent: notification\nid: 2\ndata: {"text":"You missed 5.00 USDT"}\n\n', [["auth", "me"], ["notifications"], ["earnings"]]);
});

test("a balance event refreshes the member, the statement and the earnings", async () => {
  await refreshedBy("event: balance\ndata: {}\n\n", [["auth", "me"], ["transactions"], ["earnings"]]);
});

test("a reset (more was missed than the server replays) refreshes every query, and the next reconnect resumes from its id", async () => {
  const all = await refreshedBy("event: ready\nid: 1\ndata: {}\n\nid: 900\nevent: reset\ndata: {}\n\n", [undefined]);
  // No key: every query.
  expect(all).toEqual([undefined]);
  const seen = serveFetch(() => new Response("retry: 10\nevent: ready\nid: 1\ndata: {}\n\nid: 900\nevent: reset\ndata: {}\n\n", { headers: { "content-type": "text/event-stream" } }));
  const client = new QueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  const hook = renderHook(() => useLiveEvents("test-token", false), { wrapper });
  await waitFor(() => expect(seen.map((r) => r.headers.get("Last-Event-ID")).slice(0, 2)).toEqual([null, "900"]));
  hook.unmount();
});

test("a stream the server ended as it stopped comes back after the `retry:` hint, with Last-Event-ID", async () => {
  const seen = serveFetch((request) =>
    request.headers.get("Last-Event-ID") === "7"
      ? stream("event: notification\nid: 8\ndata: {}\n\n")
      : new Response("retry: 50\nevent: ready\nid: 7\ndata: {}\n\nretry: 60\n\n", { headers: { "content-type": "text/event-stream" } }),
  );
  const client = new QueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  const started = Date.now();
  const hook = renderHook(() => useLiveEvents("test-token", false), { wrapper });
  await waitFor(() => expect(seen.map((r) => r.headers.get("Last-Event-ID"))).toEqual([null, "7"]));
  // The hint's pause, not the 2 s of a dropped stream's first wait.
  expect(Date.now() - started).toBeLessThan(1500);
  hook.unmount();
});
