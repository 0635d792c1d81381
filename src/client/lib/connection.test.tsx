import { json, serveFetch, useDom } from "../../testing/dom";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, renderHook, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { Provider } from "jotai";
import type { ReactNode } from "react";
import toast from "react-hot-toast";
import { Figure, NOT_CURRENT } from "../components/Figure";
import { PAGE_FAILURE, PageErrorBoundary } from "../components/PageErrorBoundary";
import { api, ApiError, NO_ANSWER } from "./api";
import { appUpdatedAtom, connectionLost, reportReached, reportUnreachable, resetConnection } from "./connection";
import { loadWhenReachable } from "./lazyPage";
import { useLiveEvents } from "./liveEvents";
import { getToken, setToken, store } from "./session";

useDom();

/** The error toasts the API client showed during a test. */
let toasted: string[] = [];
const realError = toast.error;
beforeEach(() => {
  resetConnection();
  toasted = [];
  toast.error = ((message: string) => {
    toasted.push(message);
    return "";
  }) as typeof toast.error;
});
afterEach(() => {
  toast.error = realError;
  resetConnection();
});

const failure = (call: Promise<unknown>) => call.then(() => null, (error: unknown) => error as ApiError);

describe("the API client tells whether the server was reached", () => {
  test("no answer at all: lost, said plainly, not toasted, and the session kept", async () => {
    setToken("kept-token");
    serveFetch(() => {
      throw new TypeError("Failed to fetch");
    });
    const error = await failure(api("GET", "/user/earnings"));
    expect(error).toBeInstanceOf(ApiError);
    expect({ status: error!.status, message: error!.message }).toEqual({ status: 0, message: NO_ANSWER });
    expect(connectionLost()).toBe(true);
    expect(toasted).toEqual([]);
    expect(getToken()).toBe("kept-token");
  });

  for (const status of [502, 503, 504]) {
    test(`a gateway's ${status} (the server behind it is away): lost, not toasted, the session kept`, async () => {
      setToken("kept-token");
      serveFetch(() => new Response("<html>Bad Gateway</html>", { status, headers: { "content-type": "text/html" } }));
      expect((await failure(api("GET", "/user/earnings")))?.status).toBe(status);
      expect(connectionLost()).toBe(true);
      expect(toasted).toEqual([]);
      expect(getToken()).toBe("kept-token");
    });
  }

  test("a refusal is an answer: reached, and toasted as before (a blockchain node's 503 too)", async () => {
    reportUnreachable();
    serveFetch((request) =>
      new URL(request.url).pathname.endsWith("/address")
        ? json({ msg: "The network's node is not answering right now.", code: "chain_unavailable" }, 503)
        : json({ msg: "Insufficient balance." }, 400),
    );
    await failure(api("POST", "/user/withdraw", { body: {} }));
    expect(connectionLost()).toBe(false);
    reportUnreachable();
    await failure(api("GET", "/user/deposit/address"));
    expect(connectionLost()).toBe(false);
    expect(toasted).toEqual(["Insufficient balance.", "The network's node is not answering right now."]);
  });

  test("a call its caller gave up says nothing either way; the next answer ends the outage", async () => {
    reportUnreachable();
    globalThis.fetch = (() => Promise.reject(new DOMException("The operation was aborted.", "AbortError"))) as unknown as typeof fetch;
    const gaveUp = new AbortController();
    gaveUp.abort();
    expect((await failure(api("GET", "/user/earnings", { signal: gaveUp.signal })))?.status).toBe(0);
    expect(connectionLost()).toBe(true);
    reportReached();
    await failure(api("GET", "/user/earnings", { signal: gaveUp.signal }));
    expect(connectionLost()).toBe(false);
    serveFetch(() => json({ ok: true }));
    reportUnreachable();
    await api("GET", "/user/earnings");
    expect(connectionLost()).toBe(false);
    expect(toasted).toEqual([]);
  });
});

describe("the live stream tells it too", () => {
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>;

  test("a stream that gets no answer is a lost connection; once anything reaches the server it comes back at once, not after its pause", async () => {
    let down = true;
    const tries: number[] = [];
    serveFetch(() => {
      tries.push(Date.now());
      if (down) throw new TypeError("Failed to fetch");
      return new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode("event: ready\nid: 1\ndata: {}\n\n")) }), {
        headers: { "content-type": "text/event-stream" },
      });
    });
    const hook = renderHook(() => useLiveEvents("test-token", false), { wrapper });
    await waitFor(() => expect(connectionLost()).toBe(true));
    expect(tries).toHaveLength(1);
    down = false;
    const back = Date.now();
    // What another call would report on an answer: the stream's 2 s pause ends there.
    reportReached();
    await waitFor(() => expect(tries).toHaveLength(2));
    expect(tries[1]! - back).toBeLessThan(500);
    expect(connectionLost()).toBe(false);
    hook.unmount();
  });

  test("a refused stream (too many open, say) is no lost connection", async () => {
    serveFetch(() => json({ msg: "Too many streams.", code: "throttled" }, 429));
    const hook = renderHook(() => useLiveEvents("test-token", false), { wrapper });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(connectionLost()).toBe(false);
    hook.unmount();
  });
});

describe("a dashboard page whose code could not be downloaded", () => {
  test("while the server is away it waits, and loads once the server is back", async () => {
    let tries = 0;
    const page = { default: "the page" };
    const loading = loadWhenReachable(
      async () => {
        if (++tries === 1) throw new TypeError("Failed to fetch dynamically imported module");
        return page;
      },
      async () => {
        reportUnreachable();
        return true;
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(tries).toBe(1);
    reportReached();
    expect(await loading).toBe(page);
    expect(tries).toBe(2);
  });

  test("while the server answers, the failure is the page's at once", async () => {
    const missing = new TypeError("Failed to fetch dynamically imported module");
    const loading = loadWhenReachable(
      () => Promise.reject(missing),
      async () => false,
    );
    expect(await loading.catch((error: unknown) => error)).toBe(missing);
  });

  function Broken(): ReactNode {
    throw new Error("chunk missing");
  }
  const shown = () => {
    const silence = console.error;
    console.error = () => {};
    try {
      const view = render(
        <Provider store={store}>
          <PageErrorBoundary>
            <Broken />
          </PageErrorBoundary>
        </Provider>,
      );
      const text = screen.getByRole("alert").textContent;
      view.unmount();
      return text;
    } finally {
      console.error = silence;
    }
  };

  test("while the server answers, with the build this page runs: neither an update nor the connection", () => {
    const text = shown();
    expect(text).toContain(PAGE_FAILURE.other);
    expect(text).not.toContain("updated");
  });

  test("while the server cannot be reached: the connection, not an update", () => {
    reportUnreachable();
    expect(shown()).toContain(PAGE_FAILURE.lost);
  });

  test("once an answer named another build: the update", () => {
    store.set(appUpdatedAtom, true);
    expect(shown()).toContain(PAGE_FAILURE.updated);
  });
});

describe("a figure from the server", () => {
  test("is shown as it is while connected, and dimmed and said not current while the connection is lost", async () => {
    const view = render(
      <Provider store={store}>
        <p data-testid="figure">
          <Figure>12.50 $</Figure>
        </p>
      </Provider>,
    );
    const figure = () => screen.getByTestId("figure");
    expect(figure().innerHTML).toBe("12.50 $");
    reportUnreachable();
    await waitFor(() => expect(figure().textContent).toBe("12.50 $ (not current)"));
    expect(screen.getByTitle(NOT_CURRENT).className).toContain("opacity-");
    reportReached();
    await waitFor(() => expect(figure().innerHTML).toBe("12.50 $"));
    view.unmount();
  });
});
