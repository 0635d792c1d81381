import { GlobalRegistrator } from "@happy-dom/global-registrator";
import { cleanup, configure, screen, within } from "@testing-library/react";
import { afterAll, afterEach, beforeAll } from "bun:test";
import { bunWebGlobals } from "./bunGlobals";

/**
 * A browser-like DOM for the component tests of one file. Call `useDom()` once at the top of a
 * component test file:
 *
 *   import { serveFetch, useDom } from "../../testing/dom";
 *   import { render, screen } from "@testing-library/react";
 *   useDom();
 *
 * Why a call and not just an import: all test files of a run share one module registry, so
 * this module's body runs once per process and hooks declared in it attach to the first file
 * only. A call from each file's own body declares the hooks for that file. The DOM is removed
 * after the file: server code must not see `window` (PGlite's loader then takes the browser
 * path and never finishes).
 *
 * Bun loads Testing Library (CommonJS) before this module's body runs, so its `screen` was
 * built without a document; the bound queries are filled in once the DOM exists. react-dom
 * decides at its first load whether a DOM exists, so ./preload.ts loads it inside one.
 * happy-dom's registrator swaps in its own fetch/Request/Response/Headers. Hono's
 * app.request() and Bun's own code need the real ones, so they are put back at once.
 */
const bun = bunWebGlobals;
const bunSetImmediate = globalThis.setImmediate;

function restoreBunGlobals() {
  Object.assign(globalThis, bun);
}

function registerDom() {
  if (!GlobalRegistrator.isRegistered) GlobalRegistrator.register({ url: "http://localhost:3000/", width: 1280, height: 900 });
  restoreBunGlobals();
  Object.assign(screen, within(document.body));
  // Waits end when the element appears; the ceiling only matters on a loaded machine (1 s was too short there).
  configure({ asyncUtilTimeout: 5000 });
  // Tells React that tests wrap updates in act(), which Testing Library does for us.
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
}

export function useDom() {
  beforeAll(registerDom);
  afterEach(() => {
    cleanup();
    globalThis.fetch = bun.fetch;
    localStorage.clear();
    window.history.replaceState(null, "", "/");
  });
  afterAll(async () => {
    // React may still have a scheduled callback (on Bun's timers) that reads `window`.
    await new Promise((resolve) => bunSetImmediate(resolve));
    if (GlobalRegistrator.isRegistered) await GlobalRegistrator.unregister();
    restoreBunGlobals();
  });
}

type Handler = (request: Request) => Response | Promise<Response>;

/**
 * Answers the page's fetch calls with `handler` until the end of the current test. Relative
 * URLs are resolved against the page, so `serveFetch(app.request)`-style handlers see
 * "/api/...". Pass a Hono app's `fetch` to run component tests against the real server.
 */
export function serveFetch(handler: Handler): Request[] {
  const seen: Request[] = [];
  const fake = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : new URL(String(input), window.location.href).toString();
    const request = new bun.Request(url, input instanceof Request ? input : init);
    seen.push(request.clone());
    return handler(request);
  };
  globalThis.fetch = Object.assign(fake, { preconnect: bun.fetch.preconnect }) as typeof fetch;
  return seen;
}

/** A JSON answer for `serveFetch` handlers. */
export const json = (body: unknown, status = 200) =>
  new bun.Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
