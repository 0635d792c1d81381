/**
 * Where a member's money went, in a real browser against the real server, at 1280 and 390 px:
 * the slots of two cycles of a 3P level and what each slot did with its price, the level frozen
 * after its second cycle with what it missed and what unfreezing costs, a declined deposit with
 * the admin's reason, the earnings totals and chart, and the statement filtered to earnings.
 * Screenshots of every state go to e2e/screenshots/money-trail-*.png.
 *
 * The scene is set through the HTTP API (fast and exact); only M's visit is in the browser.
 * Money (docs/rules.md#slots, #cycles-and-freezing, #missed-earnings; the admin owns no levels,
 * so whatever passes above M goes to the platform):
 *   M: deposit 5 (accepted), buys 3P L1 (5, to the platform)                -> M 0.00
 *   P1, P2 (partners of M) buy 3P L1: slots 1, 2 of M's cycle 1, paid to M    -> M 10.00
 *   P3: slot 3, completes cycle 1, passed up to the platform
 *   P4, P5: slots 1, 2 of cycle 2, paid to M                                  -> M 20.00
 *   P6: slot 3, completes cycle 2, passed up to the platform; M's level 1 freezes
 *   P7: M is frozen, so the 5.00 passes M by to the platform: M misses 5.00 (reason frozen)
 *   M asks for a 25 USDT deposit the admin declines: "No such transaction on TRON."
 * So M has 20.00 $ earned and 5.00 $ missed, and level 1 costs 2.50 $ to unfreeze.
 *
 * The steps share one server and one browser profile and run in order; once a step fails, the
 * later ones say so instead of failing for a confusing second reason.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Locator, Page } from "playwright-core";
import { bunWebGlobals } from "../src/testing/bunGlobals";
import { field, logIn, openFromMenu } from "./actions";
import {
  announceSkip,
  DESKTOP,
  eventually,
  expectHeaderBalance,
  launchBrowser,
  MOBILE,
  openSession,
  readable,
  screenshot,
  skipReason,
  waitForDashboardPage,
  type Session,
  stepper,
} from "./browser";
import { callApi, startServer, type TestServer } from "./server";

const skip = skipReason();
announceSkip("e2e/moneyTrail.test.ts", skip);

const STEP_MS = 45_000;
const run = Date.now().toString(36);
/** A valid TRON base58 address: the sender of every deposit. */
const SENDER = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const DECLINE_REASON = "No such transaction on TRON.";

const member = { name: "Mara Quinn", email: `mara-${run}@e2e.test`, password: "mara-secret-1" };
/** P1..P7, in the order they buy. */
const partnerNames = ["Paula Adams", "Peter Brown", "Priya Chen", "Pablo Diaz", "Petra Evans", "Pavel Fox", "Pia Grant"];
const partners = partnerNames.map((name, i) => ({ name, email: `p${i + 1}-${run}@e2e.test`, password: `p${i + 1}-secret-1` }));

// Bun's own fetch: a DOM another test file registers in the same run may have replaced the global one.
const fetch = bunWebGlobals.fetch;

let server: TestServer;
let browser: Browser;
let m: Session;
const sessions: Record<string, Session> = {};

const step = stepper(sessions, STEP_MS, "money-trail-");

// ---------------------------------------------------------------------------------------------
// The scene, through the HTTP API

/** One API call; throws with the answer when it is not a success. */
const call = <T = unknown>(method: string, path: string, options: { token?: string; body?: unknown } = {}) => callApi<T>(server.url, method, path, options);

/** A transaction ID as TRON writes them: 64 hex characters. */
function txid(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function signUp(who: { name: string; email: string; password: string }, referralId: string): Promise<string> {
  await call("POST", "/auth/register", { body: { name: who.name, email: who.email, password: who.password, referralId } });
  return (await call<{ token: string }>("POST", "/auth/login", { body: { email: who.email, password: who.password } })).token;
}

interface DepositRow {
  _id: string;
  transactionId: string;
  status: string;
}

/** The admin's pending deposit with this transaction ID (the list is an array, or a page of items). */
async function pendingDeposit(adminToken: string, transactionId: string): Promise<DepositRow> {
  const answer = await call<DepositRow[] | { items?: DepositRow[]; deposits?: DepositRow[] }>(
    "GET",
    `/admin/deposits?status=pending&search=${encodeURIComponent(transactionId)}`,
    { token: adminToken },
  );
  const rows = Array.isArray(answer) ? answer : (answer.items ?? answer.deposits ?? []);
  const found = rows.find((d) => d.transactionId.toLowerCase() === transactionId.toLowerCase());
  if (!found) throw new Error(`no pending deposit ${transactionId} in ${JSON.stringify(answer)}`);
  return found;
}

/** A deposit request of `amount` USDT, decided by the admin. */
async function deposit(token: string, adminToken: string, amount: number, decision: { status: "accepted" } | { status: "declined"; reason: string }) {
  const transactionId = txid();
  await call("POST", "/user/deposit", { token, body: { address: SENDER, transactionId, amount } });
  const { _id } = await pendingDeposit(adminToken, transactionId);
  await call("PUT", `/admin/deposits/${_id}`, { token: adminToken, body: decision });
}

const buy3pLevel1 = (token: string) => call("POST", "/user/packages/purchase/3p/1", { token });

interface MatrixAnswer {
  status: string;
  cycle: number;
  cyclesCompleted: number;
  earned: number;
  missed: number;
  unfreezeCost: number;
  slots: { slot: number; user: { name: string } | null; outcome: string | null; to: { name: string } | null }[];
}

async function setTheScene() {
  const adminToken = (await call<{ token: string }>("POST", "/auth/login", { body: server.admin })).token;
  const { referralId: adminId } = await call<{ referralId: string }>("GET", "/auth/admin-referral-id");

  const mToken = await signUp(member, adminId);
  const { myReferralId } = await call<{ myReferralId: string }>("GET", "/auth", { token: mToken });
  await deposit(mToken, adminToken, 5, { status: "accepted" });
  await buy3pLevel1(mToken);

  // Sign-ups take turns on the server anyway; funding may overlap. The purchases go in order.
  const tokens: string[] = [];
  for (const p of partners) tokens.push(await signUp(p, myReferralId));
  await Promise.all(tokens.map((t) => deposit(t, adminToken, 5, { status: "accepted" })));
  for (const t of tokens) await buy3pLevel1(t);

  await deposit(mToken, adminToken, 25, { status: "declined", reason: DECLINE_REASON });

  // What the browser is about to show, checked at the source first: a wrong scene fails here, not as a UI puzzle.
  const matrix = await call<MatrixAnswer>("GET", "/user/matrix/3p/1", { token: mToken });
  expect({ status: matrix.status, cycle: matrix.cycle, cyclesCompleted: matrix.cyclesCompleted, earned: matrix.earned, missed: matrix.missed, unfreezeCost: matrix.unfreezeCost }).toEqual({
    status: "frozen",
    cycle: 2,
    cyclesCompleted: 2,
    earned: 20,
    missed: 5,
    unfreezeCost: 2.5,
  });
  expect(matrix.slots.map((s) => [s.slot, s.user?.name, s.outcome, s.to?.name ?? null])).toEqual([
    [1, "Pablo Diaz", "paid", null],
    [2, "Petra Evans", "paid", null],
    [3, "Pavel Fox", "passed_up", "System"],
  ]);
}

// ---------------------------------------------------------------------------------------------
// What M sees

/** Opens a dashboard page as a member would at this width: the sidebar, or the bottom tabs (and "More"). */
async function openPage(page: Page, label: string, heading: string | RegExp = label) {
  if ((page.viewportSize()?.width ?? DESKTOP.width) >= DESKTOP.width) return openFromMenu(page, label, heading);
  const tabs = page.getByRole("navigation", { name: "Dashboard" });
  const link = tabs.getByRole("link", { name: label, exact: true });
  if ((await link.count()) === 0) await tabs.getByRole("button", { name: "More" }).click();
  await link.click();
  await waitForDashboardPage(page, heading);
}

/** The slot `n` of the cycle on screen. */
const slotCard = (list: Locator, n: number) => list.getByRole("listitem").filter({ hasText: new RegExp(`^Slot ${n}(?!\\d)`) });

/** Checks one filled slot: who took it, and where its 5.00 $ went. */
async function expectSlot(list: Locator, n: number, name: string, outcome: "Paid to you" | "Passed up to the platform") {
  const card = slotCard(list, n);
  await card.getByText(name, { exact: true }).waitFor();
  await card.getByText("Filled", { exact: true }).waitFor();
  await card.getByText(outcome, { exact: true }).waitFor();
  await card.getByText("5.00 $", { exact: true }).waitFor();
  expect(await card.getAttribute("data-outcome")).toBe(outcome === "Paid to you" ? "paid" : "passed_up");
}

async function expectPackages(page: Page, width: number) {
  await openPage(page, "Packages");
  expect(await page.getByRole("tab", { name: "3P" }).getAttribute("aria-selected")).toBe("true");
  // The level card: Level 1, frozen, with its unfreeze price.
  const levelButton = page.getByRole("button", { name: /^Level 1\b/ });
  await levelButton.getByText("Frozen", { exact: true }).waitFor();
  expect(await levelButton.getAttribute("aria-pressed")).toBe("true");
  const card = page.getByRole("article").filter({ has: levelButton });
  expect(readable(await card.innerText())).toContain("Unfreeze 2.50 $");
  await card.getByRole("button", { name: "Unfreeze Lvl 1", exact: true }).waitFor();

  const panel = page.getByRole("region", { name: "Level 1 slots" });
  await panel.waitFor();
  await panel.getByText("Frozen after 2 cycles", { exact: true }).waitFor();
  const panelText = readable(await panel.innerText());
  expect(panelText).toContain("Earned: 20.00 $ · Missed: 5.00 $");
  // The frozen note: what was missed, and what unfreezing costs.
  await panel.getByText("Level 1 is frozen.", { exact: true }).waitFor();
  expect(panelText).toContain("Missed so far: 5.00 $.");
  expect(panelText).toContain("Unfreezing costs 2.50 $: the level starts a new cycle and receives payments again.");
  await panel.getByRole("button", { name: "Unfreeze for 2.50 $" }).waitFor();

  // The last cycle, the one that froze the level.
  const cycles = panel.getByRole("navigation", { name: "Cycles of Level 1" });
  await cycles.getByText("Showing cycle 2 of 2 (completed, froze the level)", { exact: true }).waitFor();
  expect(await cycles.getByRole("button", { name: "Next cycle" }).getAttribute("aria-disabled")).toBe("true");
  const cycle2 = panel.getByRole("list", { name: "Slots of cycle 2" });
  await expectSlot(cycle2, 1, "Pablo Diaz", "Paid to you");
  await expectSlot(cycle2, 2, "Petra Evans", "Paid to you");
  await expectSlot(cycle2, 3, "Pavel Fox", "Passed up to the platform");
  await screenshot(page, `money-trail-packages-${width}`);

  // The cycle before it.
  await cycles.getByRole("button", { name: "Previous cycle" }).click();
  await cycles.getByText("Showing cycle 1 of 2 (completed)", { exact: true }).waitFor();
  const cycle1 = panel.getByRole("list", { name: "Slots of cycle 1" });
  await eventually(async () => expect(await cycle1.getAttribute("aria-busy")).toBe("false"));
  await expectSlot(cycle1, 1, "Paula Adams", "Paid to you");
  await expectSlot(cycle1, 2, "Peter Brown", "Paid to you");
  await expectSlot(cycle1, 3, "Priya Chen", "Passed up to the platform");
  expect(await cycles.getByRole("button", { name: "Previous cycle" }).getAttribute("aria-disabled")).toBe("true");
  // The frozen note stays: it is about the level, not the cycle shown.
  await panel.getByText("Level 1 is frozen.", { exact: true }).waitFor();
  await screenshot(page, `money-trail-packages-cycle-1-${width}`);
}

/** The row of a requests table that holds the declined deposit: badge, the admin's reason. */
async function expectDeclinedDeposit(table: Locator) {
  const row = table.getByRole("row").filter({ hasText: `Reason: ${DECLINE_REASON}` });
  await row.waitFor();
  await row.getByText("Declined", { exact: true }).waitFor();
  const text = readable(await row.innerText());
  expect(text).toContain("25.00 $");
  expect(text).toContain("Decided");
}

async function expectDepositPage(page: Page, width: number) {
  await openPage(page, "Deposit");
  const requests = page.getByRole("region", { name: "Your deposit requests" });
  const table = requests.getByRole("table", { name: "Your deposit requests, newest first" });
  await expectDeclinedDeposit(table);
  // And the accepted one that paid for level 1; newest first, so the declined one leads.
  const rows = table.locator("tbody").getByRole("row");
  await eventually(async () => expect(await rows.count()).toBe(2));
  expect(readable(await rows.nth(0).innerText())).toContain("Declined");
  const accepted = readable(await rows.nth(1).innerText());
  expect(accepted).toContain("Accepted");
  expect(accepted).toContain("5.00 $");
  expect(accepted).not.toContain("Reason:");
  await screenshot(page, `money-trail-deposit-${width}`);
}

async function expectEarningsPage(page: Page, width: number) {
  await openPage(page, "Earnings");
  expect(await page.getByRole("button", { name: "30 days" }).getAttribute("aria-pressed")).toBe("true");
  const total = async (label: string) => readable(await page.getByText(label, { exact: true }).locator("..").innerText());
  expect(await total("Earned, last 30 days")).toBe("Earned, last 30 days 20.00 $");
  expect(await total("Missed, last 30 days")).toBe("Missed, last 30 days 5.00 $ See each missed payment");
  expect(await total("Earned, all time")).toBe("Earned, all time 20.00 $");
  expect(await total("Missed, all time")).toBe("Missed, all time 5.00 $ See each missed payment");
  expect(await page.getByText(/^Nothing earned or missed/).count()).toBe(0);

  // uPlot draws into a canvas inside the chart's box, loaded on demand.
  const canvas = page.getByTestId("earnings-chart").locator("canvas").first();
  await canvas.waitFor();
  await eventually(async () => {
    const box = await canvas.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.width).toBeGreaterThan(100);
    expect(box!.height).toBeGreaterThan(100);
  });
  const chartBox = await page.getByTestId("earnings-chart").boundingBox();
  expect(chartBox!.width).toBeLessThanOrEqual(width);

  // The same figures for screen readers: one row a day, today's with both amounts.
  const table = page.getByRole("table", { name: "Earned and missed per day, last 30 days (UTC)" });
  expect(await table.locator("tbody").getByRole("row").count()).toBe(30);
  const today = await page.evaluate(() => new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" }).format(Date.now()));
  const row = table.getByRole("row", { name: today });
  expect(readable(await row.innerText())).toBe(`${readable(today)} 20.00 $ 5.00 $`);
  // Today is the last row; every day before it is zeros.
  const days = (await table.locator("tbody").getByRole("row").allInnerTexts()).map(readable);
  expect(days.at(-1)).toBe(`${readable(today)} 20.00 $ 5.00 $`);
  for (const day of days.slice(0, -1)) expect(day).toMatch(/ 0\.00 \$ 0\.00 \$$/);
  await screenshot(page, `money-trail-earnings-${width}`);
}

async function expectStatement(page: Page, width: number) {
  await openPage(page, "Transactions");
  const statement = page.getByRole("table", { name: "Your transactions, newest first" });
  const statementRows = statement.locator("tbody").getByRole("row");
  // Everything: the deposit, the purchase, four earnings.
  await eventually(async () => expect(await statementRows.count()).toBe(6));

  // Requests of both types under the statement, the declined deposit among them.
  const requests = page.getByRole("region", { name: "Your deposit and withdrawal requests" });
  await expectDeclinedDeposit(requests.getByRole("table", { name: "Your deposit and withdrawal requests, newest first" }));

  // Only earnings: four of them, 5.00 $ each.
  const kind = field(page, "Kind");
  const options = await kind.locator("option").allInnerTexts();
  expect(options).toContain("Earning");
  await kind.selectOption({ label: "Earning" });
  await page.waitForURL((url) => url.searchParams.get("kind") === "earning");
  await eventually(async () => {
    expect(await statementRows.count()).toBe(4);
    const texts = (await statementRows.allInnerTexts()).map(readable);
    for (const text of texts) {
      expect(text).toMatch(/\bEarning\b/);
      expect(text).not.toMatch(/Pass-up earning|Deposit|Level purchase/);
      expect(text).toContain("+5.00 $");
    }
    // Who paid: P5, P4, P2, P1, newest first.
    expect(texts.map((t) => partnerNames.find((n) => t.includes(n)))).toEqual(["Petra Evans", "Pablo Diaz", "Peter Brown", "Paula Adams"]);
  });
  await page.getByRole("button", { name: "Clear filters" }).waitFor();
  await screenshot(page, `money-trail-transactions-earning-${width}`);
  // Back to every kind, for the next visit.
  await page.getByRole("button", { name: "Clear filters" }).click();
  await eventually(async () => expect(await statementRows.count()).toBe(6));
}

describe.skipIf(skip !== null)("where a member's money went, in a real browser", () => {
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  }, 90_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
  }, 30_000);

  step("the scene is set through the API: M under the admin, P1..P7 under M buy 3P level 1 in turn; a deposit of M is declined", setTheScene, 60_000);

  step("M logs in through the login page and has 20.00 $ (5 deposited, 5 spent, 4 x 5 earned)", async () => {
    m = sessions.member = await openSession(browser, server.url);
    await logIn(m.page, member.email, member.password);
    await expectHeaderBalance(m.page, "20.00 $");
    // The welcome toast would sit over the header in the first screenshots.
    await m.page.getByText("Login successful! Welcome back.").waitFor({ state: "hidden", timeout: 10_000 });
  });

  for (const size of [DESKTOP, MOBILE]) {
    const at = `at ${size.width} px`;

    step(`${at}: Packages shows 3P level 1 frozen (missed 5.00 $, unfreeze 2.50 $), cycle 2 (P4, P5 paid, P6 passed up) and, one back, cycle 1`, async () => {
      await m.page.setViewportSize(size);
      await expectPackages(m.page, size.width);
    });

    step(`${at}: the deposit page lists the declined deposit with a Declined badge and the admin's reason`, async () => {
      await m.page.setViewportSize(size);
      await expectDepositPage(m.page, size.width);
    });

    step(`${at}: Earnings shows 20.00 $ earned and 5.00 $ missed in the last 30 days, the chart drawn, today's row in the table`, async () => {
      await m.page.setViewportSize(size);
      await expectEarningsPage(m.page, size.width);
    });

    step(`${at}: Transactions lists the declined deposit among the requests, and filtered to Earning only the four earnings`, async () => {
      await m.page.setViewportSize(size);
      await expectStatement(m.page, size.width);
    });
  }

  step("no page threw, and the server logged no failed request", async () => {
    const thrown = Object.entries(sessions).flatMap(([who, s]) => s.errors.map((e) => `${who}: ${e}`));
    expect(thrown).toEqual([]);
    expect(server.failures()).toEqual([]);
  });
});
