import { GlobalRegistrator } from "@happy-dom/global-registrator";
import { plugin } from "bun";
import { afterAll } from "bun:test";
import { bunWebGlobals } from "./bunGlobals";
import { dropTemplate } from "./db";

/**
 * The default timeout of every test and hook, in one place. A fresh embedded database takes a
 * second or two, the first one in a process more, and Bun's default is 5 s. Bun 1.4 has no
 * bunfig setting for it (`[test] timeout` is ignored), and setDefaultTimeout applies to the
 * file whose body calls it: called here, or in a module that test files import (its body runs
 * once per process), it reaches the first test file of a run only. So every test file is made
 * to call it from its own body: the line below is put in front of each file's first line as
 * Bun loads it (same line, so line numbers in failures are unchanged). A test or hook that
 * passes its own timeout keeps it.
 */
export const TEST_TIMEOUT_MS = 60_000;
plugin({
  name: "default test timeout",
  setup(build) {
    build.onLoad({ filter: /\.test\.tsx?$/ }, async ({ path }) => ({
      contents: `import { setDefaultTimeout as __setDefaultTimeout } from "bun:test"; __setDefaultTimeout(${TEST_TIMEOUT_MS}); ${await Bun.file(path).text()}`,
      loader: path.endsWith(".tsx") ? "tsx" : "ts",
    }));
  },
});

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
  ...bunWebGlobals,
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
