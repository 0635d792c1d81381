/**
 * The operator's record of a member in a real browser against the real server, at 1280 and 390
 * px: an admin opens All Users, clicks a member, reads the overview and goes through every tab.
 * Each view is checked with axe (no serious or critical violation) and for sideways scrolling.
 *
 * Ada (under the admin) deposits 100, buys 3P level 1 (5, to the platform), and Grace (under Ada)
 * buys it too, paying Ada's slot 1 (5); the admin gifts Ada 2 from system funds and Ada asks to
 * withdraw 10: balance 102.00, 10.00 held.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { request, type APIRequestContext, type Browser, type Page } from "playwright-core";
import { E2E_SENDER, randomTxId } from "./actions";
import { describeViolations, seriousViolations } from "./axe";
import { announceSkip, DESKTOP, launchBrowser, MOBILE, openSession, readable, screenshot, skipReason, waitForDashboardPage, type Session } from "./browser";
import { startServer, type TestServer } from "./server";

const skip = skipReason();
announceSkip("e2e/memberRecord.test.ts", skip);

const VIEW_MS = 150_000;

let server: TestServer;
let browser: Browser;
let api: APIRequestContext;
let admin: Session;
let adaId: string;

async function ok<T>(response: Promise<import("playwright-core").APIResponse>): Promise<T> {
  const res = await response;
  const body = await res.json().catch(() => undefined);
  if (!res.ok()) throw new Error(`${res.url()} answered ${res.status()}: ${JSON.stringify(body)}`);
  return body as T;
}

const headers = (token: string) => ({ "x-auth-token": token });

async function signUp(name: string, email: string, referralId: string): Promise<string> {
  const password = "record-secret-1";
  await ok(api.post("/api/auth/register", { data: { name, email, password, referralId } }));
  return (await ok<{ token: string }>(api.post("/api/auth/login", { data: { email, password } }))).token;
}

/** The scenario of the file's comment, through the API; answers the admin's token. */
async function seed(): Promise<string> {
  const adminToken = (await ok<{ token: string }>(api.post("/api/auth/login", { data: server.admin }))).token;
  const { referralId } = await ok<{ referralId: string }>(api.get("/api/auth/admin-referral-id"));
  const ada = await signUp("Ada Lovelace", "ada@record.test", referralId);
  const adaMe = await ok<{ _id: string; myReferralId: string }>(api.get("/api/auth", { headers: headers(ada) }));
  adaId = adaMe._id;
  const grace = await signUp("Grace Hopper", "grace@record.test", adaMe.myReferralId);
  const fund = async (token: string, amount: number) => {
    const tx = randomTxId();
    await ok(api.post("/api/user/deposit", { headers: headers(token), data: { address: E2E_SENDER, transactionId: tx, amount } }));
    const pending = await ok<{ _id: string; transactionId: string }[]>(api.get("/api/admin/deposits?status=pending", { headers: headers(adminToken) }));
    await ok(api.put(`/api/admin/deposits/${pending.find((d) => d.transactionId === tx)!._id}`, { headers: headers(adminToken), data: { status: "accepted" } }));
  };
  await fund(ada, 100);
  await fund(grace, 20);
  await ok(api.post("/api/user/packages/purchase/3p/1", { headers: headers(ada) }));
  await ok(api.post("/api/user/packages/purchase/3p/1", { headers: headers(grace) }));
  await ok(api.post(`/api/admin/users/${adaId}/gift`, { headers: { ...headers(adminToken), "Idempotency-Key": crypto.randomUUID() }, data: { amount: 2 } }));
  await ok(api.post("/api/user/withdraw", { headers: headers(ada), data: { accountType: "USDT TRC20", accountNumber: "TALSWqjhNCaXi5YWPh9DvZgvtYRSfqVUwq", amount: 10 } }));
  return adminToken;
}

/** Axe and the page's width, for the view as it is now; the problems found, as text. */
async function problemsOf(page: Page, where: string): Promise<string[]> {
  const problems: string[] = [];
  const violations = await seriousViolations(page);
  if (violations.length > 0) problems.push(describeViolations(where, violations));
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  if (scroll > width) problems.push(`${where}: the page scrolls sideways (${scroll} px wide in a ${width} px window)`);
  return problems;
}

/** What each tab shows once it has loaded, for this scenario. */
const TABS: { name: string; tab: string; ready: (page: Page) => Promise<void> }[] = [
  { name: "Transactions", tab: "transactions", ready: (p) => p.getByText("4 transactions", { exact: true }).waitFor() },
  { name: "Missed", tab: "missed", ready: (p) => p.getByText("Nothing has passed this member by yet.").waitFor() },
  { name: "Requests", tab: "requests", ready: (p) => p.getByText("2 requests", { exact: true }).waitFor() },
  { name: "Partners", tab: "partners", ready: (p) => p.getByRole("link", { name: "Grace Hopper", exact: true }).waitFor() },
  { name: "Audit", tab: "audit", ready: (p) => p.getByText("2 actions", { exact: true }).waitFor() },
  {
    name: "Matrix",
    tab: "matrix",
    ready: async (p) => {
      await p.getByText("Grace Hopper", { exact: true }).waitFor();
      await p.getByText("Paid to Ada Lovelace").waitFor();
    },
  },
];

describe.skipIf(skip !== null)("a member's record, as the operator opens it", () => {
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    api = await request.newContext({ baseURL: server.url });
    const adminToken = await seed();
    admin = await openSession(browser, server.url);
    await admin.context.addInitScript((t) => localStorage.setItem("token", t), adminToken);
  }, 90_000);

  afterAll(async () => {
    await api?.dispose().catch(() => {});
    await browser?.close().catch(() => {});
    await server?.stop();
  }, 30_000);

  test("the check finds a violation planted in the record (so a pass means something)", async () => {
    const { page } = admin;
    await page.setViewportSize(DESKTOP);
    await page.goto(`/userDashboard/all-users/${adaId}`);
    await waitForDashboardPage(page, "Ada Lovelace");
    await page.evaluate(() => {
      const planted = document.createElement("button");
      planted.id = "planted-nameless-button";
      document.querySelector("main")!.append(planted);
    });
    const found = await seriousViolations(page);
    expect(found.find((v) => v.id === "button-name")?.nodes.map((n) => n.target.join(" "))).toEqual(["#planted-nameless-button"]);
  }, VIEW_MS);

  for (const size of [DESKTOP, MOBILE]) {
    test(
      `at ${size.width} px: from All Users to the member's overview and through every tab, axe clean`,
      async () => {
        const { page } = admin;
        await page.setViewportSize(size);
        await page.goto("/userDashboard/all-users");
        await waitForDashboardPage(page, "All Users");
        await page.getByRole("link", { name: "Ada Lovelace", exact: true }).click();
        await page.waitForURL((url) => url.pathname === `/userDashboard/all-users/${adaId}` && url.search === "");
        await waitForDashboardPage(page, "Ada Lovelace");

        const balance = page.getByRole("region", { name: "Balance" });
        expect(readable(await balance.locator("p").first().textContent())).toBe("102.00 $");
        expect(readable(await balance.getByText("Held by pending withdrawals").locator("xpath=following-sibling::dd").textContent())).toBe("10.00 $");
        const threeP = page.getByRole("table", { name: "3P levels of Ada Lovelace" });
        await threeP.getByText("Cycle 1, 1 of 3 slots filled").waitFor();
        const profile = readable(await page.getByRole("region", { name: "Profile" }).textContent());
        expect(profile).toContain("ada@record.test");
        expect(profile).toContain("Not confirmed");
        await screenshot(page, `member-record-overview-${size.width}`);
        const problems = await problemsOf(page, `the overview at ${size.width} px`);

        for (const { name, tab, ready } of TABS) {
          await page.getByRole("tab", { name, exact: true }).click();
          await page.waitForURL((url) => url.searchParams.get("tab") === tab);
          await page.getByRole("tab", { name, exact: true, selected: true }).waitFor();
          await ready(page);
          await waitForDashboardPage(page, "Ada Lovelace");
          problems.push(...(await problemsOf(page, `the ${name} tab at ${size.width} px`)));
        }
        await screenshot(page, `member-record-matrix-${size.width}`);
        if (problems.length > 0) console.error(`\n${problems.join("\n\n")}\n`);
        expect(problems).toEqual([]);
        expect(admin.errors).toEqual([]);
      },
      VIEW_MS,
    );
  }
});
