import { test } from "bun:test";
/**
 * Chromium for the browser tests: Debian's /usr/bin/chromium driven by playwright-core
 * (`npx playwright install` cannot download here). Helpers shared by the e2e test files.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Locator, type Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
export const SCREENSHOTS = join(import.meta.dir, "screenshots");

/** Widths of the screenshots and the mobile checks. */
export const MOBILE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 900 };

/**
 * Why the browser tests cannot run here, or null. They skip only on a machine without
 * Chromium outside CI; under CI (env CI set) they always run, and a missing browser fails.
 */
export function skipReason(): string | null {
  if (existsSync(CHROMIUM) || process.env.CI) return null;
  return `${CHROMIUM} is missing (install it with \`apt-get update && apt-get install -y chromium\`); set CI=1 to make its absence a failure`;
}

export function announceSkip(file: string, reason: string | null) {
  if (reason) console.warn(`\n[e2e] skipping ${file}: ${reason}\n`);
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
    ],
  });
}

export interface Session {
  context: BrowserContext;
  page: Page;
  /** Uncaught exceptions thrown in the page, and console errors. */
  errors: string[];
}

/** A fresh browser profile (its own localStorage, so its own signed-in user) with one page. */
export async function openSession(browser: Browser, baseURL: string, options: BrowserContextOptions = {}): Promise<Session> {
  const context = await browser.newContext({ baseURL, viewport: DESKTOP, reducedMotion: "reduce", ...options });
  context.setDefaultTimeout(15_000);
  context.setDefaultNavigationTimeout(20_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`uncaught: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    const text = message.text();
    // Failed API calls the test provokes on purpose are logged by Chromium as resource errors.
    if (/Failed to load resource: the server responded with a status of (401|4\d\d)/.test(text)) return;
    errors.push(`console: ${text}`);
  });
  return { context, page, errors };
}

/** Waits until `read` stops throwing (bun's expect inside), or throws its last error. */
export async function eventually<T>(read: () => Promise<T> | T, timeoutMs = 10_000, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await read();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await Bun.sleep(intervalMs);
    }
  }
}

/** Text as a reader sees it: any run of whitespace (no-break spaces too) as one space. */
export const readable = (text: string | null | undefined) => (text ?? "").replace(/\s+/g, " ").trim();

/** The figure in the dashboard header, e.g. "45.00 $". */
export const headerBalance = (page: Page): Locator => page.getByRole("banner").getByText(/^-?\d+\.\d{2}\s\$$/);

/** Waits until the header shows exactly `expected` ("x.xx $"). */
export async function expectHeaderBalance(page: Page, expected: string, timeoutMs = 10_000) {
  await eventually(async () => {
    const shown = readable(await headerBalance(page).textContent({ timeout: 1000 }));
    if (shown !== expected) throw new Error(`header balance: expected "${expected}", shows "${shown}"`);
  }, timeoutMs);
}

/** Waits for a toast (react-hot-toast) or any visible text. */
export async function expectText(page: Page | Locator, text: string | RegExp, timeoutMs = 10_000) {
  await page.getByText(text).first().waitFor({ state: "visible", timeout: timeoutMs });
}

/** A dashboard page is ready when its h1 is shown and no loading spinner is left. */
export async function waitForDashboardPage(page: Page, heading: string | RegExp) {
  await page.getByRole("heading", { level: 1, name: heading }).waitFor({ state: "visible" });
  await eventually(async () => {
    const loading = await page.getByText(/^Loading\b|Searching\.\.\.$/).count();
    if (loading > 0) throw new Error("the page is still loading");
  }, 10_000);
}

/**
 * Client-side navigation (what a click on a menu link does), without reloading the app:
 * react-router follows history changes announced by popstate.
 */
export async function navigateInApp(page: Page, path: string) {
  await page.evaluate((to) => {
    history.pushState({}, "", to);
    dispatchEvent(new PopStateEvent("popstate", { state: {} }));
  }, path);
}

export function screenshotPath(name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return join(SCREENSHOTS, `${name}.png`);
}

/**
 * The whole page. Chromium's full-page capture leaves fixed bars (the mobile tab bar) where
 * the first viewport ended, in the middle of the picture; so the viewport is stretched to
 * the page's height instead, which puts them where a reader scrolled to the end sees them.
 */
export async function screenshot(page: Page, name: string) {
  // The pointer stays where the last click was; its hover styles are not part of the page.
  await page.mouse.move(0, 0).catch(() => {});
  const viewport = page.viewportSize();
  const height = await page.evaluate(() => document.documentElement.scrollHeight).catch(() => 0);
  if (!viewport || height <= viewport.height) {
    await page.screenshot({ path: screenshotPath(name), animations: "disabled" });
    return;
  }
  await page.setViewportSize({ width: viewport.width, height: Math.min(height, 12_000) });
  try {
    await page.screenshot({ path: screenshotPath(name), animations: "disabled" });
  } finally {
    await page.setViewportSize(viewport);
  }
}

/** The path of the page's URL, for comparisons that ignore the host. */
export const pathOf = (page: Page) => new URL(page.url()).pathname;

/**
 * Steps of one browser story, run in order: a step runs only if every step before it passed, so a
 * failure is reported once; on a failure every open page is photographed as `failure-<prefix><who>`.
 */
export function stepper(sessions: Record<string, Session>, timeoutMs: number, prefix = "") {
  let failedStep: string | null = null;
  return function step(name: string, body: () => Promise<void>, timeout = timeoutMs) {
    test(
      name,
      async () => {
        if (failedStep) throw new Error(`not run: the earlier step "${failedStep}" failed`);
        try {
          await body();
        } catch (error) {
          failedStep = name;
          for (const [who, session] of Object.entries(sessions)) {
            await screenshot(session.page, `failure-${prefix}${who}`).catch(() => {});
            if (session.errors.length > 0) console.error(`[e2e] errors in ${who}'s page:\n  ${session.errors.join("\n  ")}`);
          }
          console.error(`[e2e] screenshots of every open page at the failure: e2e/screenshots/failure-${prefix}*.png`);
          throw error;
        }
      },
      timeout,
    );
  };
}

