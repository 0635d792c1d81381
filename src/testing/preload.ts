import { GlobalRegistrator } from "@happy-dom/global-registrator";
import { afterAll, setDefaultTimeout } from "bun:test";
import { dropTemplate } from "./db";

// A fresh embedded database takes a second or two; the first one in a process more. Bun applies
// setDefaultTimeout to the current file only, so this reaches the first test file of a run: every
// other file with slow tests or hooks (databases) calls setDefaultTimeout(60_000) itself, or it
// gets 5 s.
setDefaultTimeout(60_000);
// After the whole run: the Postgres template database, when TEST_DATABASE_URL made one.
afterAll(dropTemplate);

/*
 * For component tests (./dom.ts): react-dom/client decides once per process, when first
 * loaded, whether a DOM exists and whether text inputs fire `input` events. Test files share
 * one module registry and Bun evaluates a file's CommonJS imports before any module body, so
 * it would be loaded before any test could register a DOM, and onChange would never fire.
 * It is loaded here, inside a short-lived DOM, and the DOM is removed again.
 * React's scheduler and react-dom keep the timer functions they find at load: they must be
 * Bun's, which outlive this DOM (happy-dom's stop when it is unregistered).
 */
const keep = {
  fetch: globalThis.fetch,
  Request: globalThis.Request,
  Response: globalThis.Response,
  Headers: globalThis.Headers,
  FormData: globalThis.FormData,
  AbortController: globalThis.AbortController,
  AbortSignal: globalThis.AbortSignal,
  setTimeout: globalThis.setTimeout,
  clearTimeout: globalThis.clearTimeout,
  setInterval: globalThis.setInterval,
  clearInterval: globalThis.clearInterval,
  setImmediate: globalThis.setImmediate,
  clearImmediate: globalThis.clearImmediate,
  queueMicrotask: globalThis.queueMicrotask,
  MessageChannel: globalThis.MessageChannel,
};
GlobalRegistrator.register();
Object.assign(globalThis, keep);
await import("react-dom/client");
await GlobalRegistrator.unregister();
Object.assign(globalThis, keep);
