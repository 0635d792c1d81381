import { serveFetch, useDom } from "../../testing/dom";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, test } from "bun:test";
import * as z from "zod/mini";
import { BUILD_HEADER } from "../../shared/constants";
import { MEMBER } from "../../shared/contract/member";
import { renderApp } from "../../testing/renderApp";
import { makeMe, wireMe } from "../../testing/renderClient";
import { NOT_CURRENT } from "../components/Figure";
import { NO_ANSWER } from "../lib/api";
import { meKey } from "../lib/me";
import { getToken } from "../lib/session";
import { APP_UPDATED, CONNECTION_LOST, RECONNECTED } from "./ConnectionBanner";

useDom();

/**
 * A server the dashboard talks to: the member, their earnings, the referrer, and the live stream
 * (open until the server goes down, as a process that stops cuts it). While down, every call
 * fails as the browser's fetch does when nothing answers.
 */
function fakeServer() {
  const server = { down: false, balance: 1_250n, earned: 500n, build: null as string | null };
  const streams = new Set<ReadableStreamDefaultController<Uint8Array>>();
  const seen = serveFetch((request) => {
    if (server.down) throw new TypeError("Failed to fetch");
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (server.build) headers[BUILD_HEADER] = server.build;
    const answer = (body: unknown) => new Response(JSON.stringify(body), { headers });
    const path = new URL(request.url).pathname;
    if (path === "/api/auth") return answer(wireMe(makeMe({ balance: server.balance })));
    if (path === "/api/user/earnings") {
      return answer(z.encode(MEMBER.earnings.response, { days: [], totalEarned: 0n, totalMissed: 0n, lifetimeEarned: server.earned, lifetimeMissed: 0n }));
    }
    if (path === "/api/user/events") {
      const body = new ReadableStream<Uint8Array>({
        start: (controller) => {
          streams.add(controller);
          controller.enqueue(new TextEncoder().encode("event: ready\nid: 1\ndata: {}\n\n"));
        },
      });
      return new Response(body, { headers: { ...headers, "content-type": "text/event-stream" } });
    }
    return answer({ name: "Root", myReferralId: "ROOT" });
  });
  return {
    server,
    seen,
    /** The process stops: open streams are cut, nothing answers. */
    stop() {
      server.down = true;
      for (const stream of streams) stream.error(new TypeError("network error"));
      streams.clear();
    },
  };
}

/** The header's balance, as shown. */
const headerBalance = () =>
  screen
    .getAllByRole("banner")
    .find((header) => header.textContent?.includes("Balance"))!
    .querySelector(".text-figure-green")!.textContent;
const banner = () => screen.queryByText(CONNECTION_LOST) !== null;
const markedFigures = () => document.querySelectorAll("[data-not-current]").length;

const happyDom = () => (window as unknown as { happyDOM: { settings: { handleDisabledFileLoadingAsSuccess: boolean } } }).happyDOM.settings;

afterEach(() => {
  for (const script of document.querySelectorAll("script[data-test-build]")) script.remove();
  happyDom().handleDisabledFileLoadingAsSuccess = false;
});

describe("the dashboard when the server goes away", () => {
  test("the banner says the connection is lost and nothing is lost, the figures are marked not current, the member stays signed in", async () => {
    const { server, stop } = fakeServer();
    const app = renderApp("/userDashboard", { token: "stored-token" });
    await screen.findByRole("heading", { name: "Profile" });
    await screen.findByText("5.00 $");
    expect(headerBalance()).toBe("12.50 $");
    expect(banner()).toBe(false);
    expect(markedFigures()).toBe(0);

    stop();
    const shown = await screen.findByText(CONNECTION_LOST);
    // Said politely, in the region that is there before and after (so both are announced).
    expect(shown.closest("[role=status]")?.getAttribute("aria-live")).toBe("polite");
    // The balance in the header and on the card, the card's rows and the earnings: dimmed and said.
    await waitFor(() => expect(markedFigures()).toBeGreaterThanOrEqual(5));
    expect(screen.getAllByTitle(NOT_CURRENT).length).toBe(markedFigures());
    expect(headerBalance()).toBe("12.50 $ (not current)");
    expect(getToken()).toBe("stored-token");
    expect(app.location()).toBe("/userDashboard");
    expect(screen.getByRole("heading", { name: "Profile" })).toBeTruthy();
    // One banner, no toast per failed try.
    expect(screen.queryByText(NO_ANSWER)).toBeNull();
    expect(server.down).toBe(true);
  });

  test("once the server is back the banner goes by itself, 'Connection is back.' is said, and every figure is read again", async () => {
    const { server, stop } = fakeServer();
    const app = renderApp("/userDashboard", { token: "stored-token" });
    await screen.findByText("5.00 $");
    stop();
    await screen.findByText(CONNECTION_LOST);
    // What changed while the page could not know: a credit, earnings.
    server.balance = 9_900n;
    server.earned = 777n;
    server.down = false;
    // The current user's query tries again 2 s after its first failure; the stream follows it at once.
    await waitFor(() => expect(banner()).toBe(false), { timeout: 8000 });
    expect(screen.getByText(RECONNECTED)).toBeTruthy();
    await waitFor(() => expect(headerBalance()).toBe("99.00 $"));
    // Earnings are not the current user's query: only reading everything again brings them.
    expect(await screen.findByText("7.77 $")).toBeTruthy();
    expect(markedFigures()).toBe(0);
    expect(getToken()).toBe("stored-token");
    expect(app.location()).toBe("/userDashboard");
  }, 15_000);

  test("a refusal is an answer: the server was reached, so no banner", async () => {
    const seen = serveFetch((request) => {
      const path = new URL(request.url).pathname;
      if (path === "/api/auth") return new Response(JSON.stringify(wireMe(makeMe())), { headers: { "content-type": "application/json" } });
      return new Response(JSON.stringify({ msg: "Not found.", code: "not_found" }), { status: 404, headers: { "content-type": "application/json" } });
    });
    renderApp("/userDashboard", { token: "stored-token" });
    await screen.findByRole("heading", { name: "Profile" });
    await waitFor(() => expect(seen.some((r) => new URL(r.url).pathname === "/api/user/earnings")).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(banner()).toBe(false);
    expect(markedFigures()).toBe(0);
  });
});

describe("the 'app updated' notice", () => {
  /** The dashboard entry the page was loaded with, as the server's shell writes it. */
  function loadedWith(src: string) {
    // The test DOM loads no script files: the element is there for the page to read, like the shell's.
    happyDom().handleDisabledFileLoadingAsSuccess = true;
    const script = document.createElement("script");
    script.setAttribute("type", "module");
    script.setAttribute("src", src);
    script.setAttribute("data-test-build", "");
    document.head.append(script);
  }

  test("not after a reconnection to the same build; shown, with Reload, once an answer names another", async () => {
    loadedWith("/build/main-aaa.js");
    const { server, stop } = fakeServer();
    server.build = "/build/main-aaa.js";
    const app = renderApp("/userDashboard", { token: "stored-token" });
    await screen.findByText("5.00 $");
    stop();
    await screen.findByText(CONNECTION_LOST);
    server.down = false;
    await waitFor(() => expect(banner()).toBe(false), { timeout: 8000 });
    await screen.findByText("5.00 $");
    expect(screen.queryByText(APP_UPDATED)).toBeNull();

    server.build = "/build/main-bbb.js";
    await app.client.refetchQueries({ queryKey: meKey });
    const notice = await screen.findByText(APP_UPDATED);
    const reload = screen.getByRole("button", { name: "Reload" });
    expect(notice.closest("[role=status]")?.contains(reload)).toBe(true);
    let reloaded = false;
    const realReload = window.location.reload;
    Object.defineProperty(window.location, "reload", { configurable: true, value: () => (reloaded = true) });
    try {
      fireEvent.click(reload);
    } finally {
      Object.defineProperty(window.location, "reload", { configurable: true, value: realReload });
    }
    expect(reloaded).toBe(true);
  }, 15_000);

  test("an answer without a build, or a page that names none, never says it", async () => {
    const { server } = fakeServer();
    server.build = "/build/main-ccc.js";
    const app = renderApp("/userDashboard", { token: "stored-token" });
    await screen.findByText("5.00 $");
    await app.client.refetchQueries({ queryKey: meKey });
    expect(screen.queryByText(APP_UPDATED)).toBeNull();
  });
});
