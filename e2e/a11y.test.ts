/**
 * axe-core in a real browser on the main pages, at 390 and 1280 px, against the real server
 * with some data in it (a filled slot, search results, pending requests). A page fails on any
 * violation of impact serious or critical; each one is printed with its rule, the elements
 * and axe's explanation. The pages keep their Content-Security-Policy: axe's source is
 * evaluated through the DevTools protocol, which the page's CSP does not govern.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { request, type APIRequestContext, type Browser, type Page } from "playwright-core";
import {
  announceSkip,
  DESKTOP,
  expectText,
  launchBrowser,
  MOBILE,
  openSession,
  skipReason,
  waitForDashboardPage,
  type Session,
} from "./browser";
import { E2E_SENDER, randomTxId } from "./actions";
import { startServer, type TestServer } from "./server";

const skip = skipReason();
announceSkip("e2e/a11y.test.ts", skip);

const AXE_SOURCE = readFileSync(join(import.meta.dir, "../node_modules/axe-core/axe.min.js"), "utf8");
const FAILING_IMPACTS = new Set(["serious", "critical"]);
const PAGE_MS = 40_000;

interface AxeNode {
  target: unknown[];
  html: string;
  failureSummary?: string;
}
interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: AxeNode[];
}

let server: TestServer;
let browser: Browser;
let api: APIRequestContext;
let visitor: Session;
let user: Session;
let admin: Session;

/** Runs axe on the page as it is now; returns every violation. */
async function axeAll(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, options: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((n) => ({ target: n.target, html: n.html.slice(0, 200), failureSummary: n.failureSummary })),
    }));
  });
  return violations;
}

/** Lesser findings (moderate, minor) do not fail a page; they are listed once, as notes. */
const notes = new Map<string, Set<string>>();

/** The serious and critical violations on the page as it is now. */
async function axe(page: Page, where: string): Promise<AxeViolation[]> {
  const all = await axeAll(page);
  for (const v of all.filter((v) => !FAILING_IMPACTS.has(v.impact ?? ""))) {
    const key = `[${v.impact}] ${v.id}: ${v.help}`;
    notes.set(key, (notes.get(key) ?? new Set()).add(where));
  }
  return all.filter((v) => FAILING_IMPACTS.has(v.impact ?? ""));
}

function describeViolations(where: string, violations: AxeViolation[]): string {
  const lines = [`${violations.length} serious/critical accessibility violation(s) on ${where}:`];
  for (const v of violations) {
    lines.push(`  [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})`);
    for (const node of v.nodes.slice(0, 8)) {
      lines.push(`      at ${node.target.join(" ")}`);
      lines.push(`         ${node.html}`);
      if (node.failureSummary) lines.push(`         ${node.failureSummary.replace(/\n/g, "\n         ")}`);
    }
    if (v.nodes.length > 8) lines.push(`      ... and ${v.nodes.length - 8} more`);
  }
  return lines.join("\n");
}

/**
 * Opens a page at both widths, lets `ready` bring it to the state to check, runs axe, and
 * fails with every serious/critical violation found at either width.
 */
async function checkPage(session: Session, name: string, path: string, ready: (page: Page) => Promise<void>) {
  const report: string[] = [];
  for (const size of [MOBILE, DESKTOP]) {
    await session.page.setViewportSize(size);
    await session.page.goto(path);
    await ready(session.page);
    const where = `${name} at ${size.width} px (${path})`;
    const violations = await axe(session.page, where);
    if (violations.length > 0) report.push(describeViolations(where, violations));
  }
  if (report.length > 0) console.error(`\n${report.join("\n\n")}\n`);
  expect(report).toEqual([]);
}

async function ok<T>(response: Promise<import("playwright-core").APIResponse>): Promise<T> {
  const res = await response;
  const body = await res.json().catch(() => undefined);
  if (!res.ok()) throw new Error(`${res.url()} answered ${res.status()}: ${JSON.stringify(body)}`);
  return body as T;
}

const headers = (token: string) => ({ "x-auth-token": token });

async function signUp(name: string, email: string, referralId: string): Promise<string> {
  const password = "a11y-secret-1";
  await ok(api.post("/api/auth/register", { data: { name, email, password, referralId } }));
  return (await ok<{ token: string }>(api.post("/api/auth/login", { data: { email, password } }))).token;
}

/** Some data, through the API: the pages are checked with content, not empty. */
async function seedData() {
  const adminToken = (await ok<{ token: string }>(api.post("/api/auth/login", { data: server.admin }))).token;
  const { referralId: adminId } = await ok<{ referralId: string }>(api.get("/api/auth/admin-referral-id"));
  const ada = await signUp("Ada Lovelace", "ada@a11y.test", adminId);
  const adaMe = await ok<{ myReferralId: string }>(api.get("/api/auth", { headers: headers(ada) }));
  const grace = await signUp("Grace Hopper", "grace@a11y.test", adaMe.myReferralId);

  const fund = async (token: string, amount: number, tx: string) => {
    await ok(api.post("/api/user/deposit", { headers: headers(token), data: { address: E2E_SENDER, transactionId: tx, amount } }));
    const pending = await ok<{ _id: string; transactionId: string }[]>(api.get("/api/admin/deposits?status=pending", { headers: headers(adminToken) }));
    const id = pending.find((d) => d.transactionId === tx)!._id;
    await ok(api.put(`/api/admin/deposits/${id}`, { headers: headers(adminToken), data: { status: "accepted" } }));
  };
  await fund(ada, 100, randomTxId());
  await fund(grace, 20, randomTxId());
  await ok(api.post("/api/user/packages/purchase/3p/1", { headers: headers(ada) }));
  await ok(api.post("/api/user/packages/purchase/3p/1", { headers: headers(grace) }));
  // Left pending, for the admin dashboard.
  await ok(api.post("/api/user/deposit", { headers: headers(ada), data: { address: E2E_SENDER, transactionId: randomTxId(), amount: 5 } }));
  await ok(api.post("/api/user/withdraw", { headers: headers(ada), data: { accountType: "USDT TRC20", accountNumber: "TALSWqjhNCaXi5YWPh9DvZgvtYRSfqVUwq", amount: 10 } }));
  return { ada, adminToken };
}

/** A browser profile that is already signed in (the token where the app keeps it). */
async function signedIn(token: string): Promise<Session> {
  const session = await openSession(browser, server.url);
  await session.context.addInitScript((t) => localStorage.setItem("token", t), token);
  return session;
}

describe.skipIf(skip !== null)("accessibility (axe-core: no serious or critical violation)", () => {
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    api = await request.newContext({ baseURL: server.url });
    const { ada, adminToken } = await seedData();
    [visitor, user, admin] = await Promise.all([openSession(browser, server.url), signedIn(ada), signedIn(adminToken)]);
  }, 90_000);

  afterAll(async () => {
    if (notes.size > 0) {
      const lines = [...notes].map(([rule, where]) => `  ${rule}\n      on ${[...where].join("; ")}`);
      console.info(`\n[a11y] lesser findings (not failing):\n${lines.join("\n")}\n`);
    }
    await api?.dispose().catch(() => {});
    await browser?.close().catch(() => {});
    await server?.stop();
  }, 30_000);

  test("axe runs under the pages' CSP and reports a planted violation (so a pass means something)", async () => {
    await visitor.page.setViewportSize(DESKTOP);
    await visitor.page.goto("/login");
    await visitor.page.getByRole("heading", { name: "Welcome back" }).waitFor();
    await visitor.page.evaluate(() => {
      const planted = document.createElement("button");
      planted.id = "planted-nameless-button";
      document.querySelector("main")!.append(planted);
    });
    const found = await axeAll(visitor.page);
    expect(found.find((v) => v.id === "button-name")?.nodes.map((n) => n.target.join(" "))).toEqual(["#planted-nameless-button"]);
  }, PAGE_MS);

  test(
    "the landing page",
    () => checkPage(visitor, "the landing page", "/", (p) => p.getByRole("heading", { level: 1 }).first().waitFor()),
    PAGE_MS,
  );

  test(
    "the how it works page",
    () => checkPage(visitor, "the how it works page", "/how-it-works", (p) => p.getByRole("heading", { level: 1, name: "How it works" }).waitFor()),
    PAGE_MS,
  );

  test(
    "the login page",
    () => checkPage(visitor, "the login page", "/login", (p) => p.getByRole("heading", { name: "Welcome back" }).waitFor()),
    PAGE_MS,
  );

  test(
    "the register page, with its validation messages shown",
    () =>
      checkPage(visitor, "the register page", "/register", async (p) => {
        await p.getByText(/^Joining under the platform's first account/).waitFor();
        await p.getByRole("button", { name: "Register", exact: true }).click();
        await p.getByText("Passwords do not match").or(p.getByText("Please confirm your password.")).first().waitFor();
      }),
    PAGE_MS,
  );

  test(
    "the profile page",
    () =>
      checkPage(user, "the profile page", "/userDashboard", async (p) => {
        await waitForDashboardPage(p, "Profile");
        await expectText(p, "3P Level 1");
      }),
    PAGE_MS,
  );

  test(
    "the package page, with a filled slot",
    () =>
      checkPage(user, "the package page", "/userDashboard/package", async (p) => {
        await waitForDashboardPage(p, "Packages");
        await p.getByText("Grace Hopper", { exact: true }).waitFor();
      }),
    PAGE_MS,
  );

  test(
    "the deposit page",
    () =>
      checkPage(user, "the deposit page", "/userDashboard/deposit", async (p) => {
        await waitForDashboardPage(p, "Deposit");
        await p.getByRole("button", { name: "Copy address" }).waitFor();
      }),
    PAGE_MS,
  );

  test(
    "the withdraw page, with an amount typed and a refusal shown",
    () =>
      checkPage(user, "the withdraw page", "/userDashboard/withdraw", async (p) => {
        await waitForDashboardPage(p, "Withdraw");
        await p.getByLabel("Wallet address", { exact: true }).fill("TALSWqjhNCaXi5YWPh9DvZgvtYRSfqVUwq");
        await p.getByLabel("Amount (USDT)", { exact: true }).fill("5000");
        await p.getByRole("button", { name: "Review withdrawal" }).click();
        await expectText(p, "Withdrawal amount cannot exceed your available balance.");
      }),
    PAGE_MS,
  );

  test(
    "the send-gifts page, with search results and then the gift modal open",
    async () => {
      await checkPage(user, "the send-gifts page (results)", "/userDashboard/send-gifts", async (p) => {
        await waitForDashboardPage(p, "Send Gift");
        await p.getByLabel("Find a user", { exact: true }).fill("Grace");
        await p.getByRole("button", { name: "Send gift to Grace Hopper" }).waitFor();
      });
      await checkPage(user, "the send-gifts page (gift modal)", "/userDashboard/send-gifts", async (p) => {
        await waitForDashboardPage(p, "Send Gift");
        await p.getByLabel("Find a user", { exact: true }).fill("Grace");
        await p.getByRole("button", { name: "Send gift to Grace Hopper" }).click();
        await p.getByRole("dialog", { name: "Send a gift to Grace Hopper" }).waitFor();
      });
    },
    PAGE_MS * 2,
  );

  test(
    "the admin dashboard, with pending requests",
    () =>
      checkPage(admin, "the admin dashboard", "/userDashboard/admin-dashboard", async (p) => {
        await waitForDashboardPage(p, "Admin Dashboard");
        await p.getByRole("button", { name: "Accept deposit of Ada Lovelace" }).waitFor();
        await p.getByRole("button", { name: "Accept withdrawal of Ada Lovelace" }).waitFor();
      }),
    PAGE_MS,
  );

  test("the admin's mobile drawer", async () => {
    await admin.page.setViewportSize(MOBILE);
    await admin.page.goto("/userDashboard");
    await waitForDashboardPage(admin.page, "Profile");
    await admin.page.getByRole("button", { name: "Open menu" }).click();
    await admin.page.getByRole("dialog", { name: "Menu" }).waitFor();
    const violations = await axe(admin.page, "the admin drawer at 390 px");
    if (violations.length > 0) console.error(`\n${describeViolations("the admin drawer at 390 px", violations)}\n`);
    expect(violations.map((v) => v.id)).toEqual([]);
  }, PAGE_MS);
});
