/**
 * The whole product in a real browser against the real server (issue 4): two users register
 * (the second through the first one's invitation link), fund their balances through deposit
 * requests an admin accepts, buy 3P level 1 so that one fills the other's slot, send a gift,
 * withdraw, and log out. Balances in the header are checked after every money step.
 *
 * Money (cents are exact; see docs/rules.md#slots):
 *   A deposits 50 -> 50.00; A buys 3P L1 (5, to system: the admin owns no levels) -> 45.00
 *   B deposits 50 -> 50.00; B buys 3P L1 (5, to A: slot 1 of A's level 1) -> B 45.00, A 50.00
 *   B gifts A 10 -> B 35.00, A 60.00
 *   B withdraws 20 -> held (available 15.00, balance still 35.00); accepted -> B 15.00
 *
 * The steps share one server and one set of browser profiles and run in order; once a step
 * fails, the later ones report that instead of failing for a confusing second reason.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { MSG } from "../src/shared/messages";
import { randomBep20Address } from "../src/testing/chainIds";
import {
  acceptOnAdminDashboard,
  buyLevel1Of3P,
  byPath,
  field,
  logIn,
  openFromMenu,
  register,
  reloadDashboard,
  randomTxId,
  requestDeposit,
  sidebarLink,
} from "./actions";
import {
  announceSkip,
  DESKTOP,
  eventually,
  expectHeaderBalance,
  expectText,
  launchBrowser,
  MOBILE,
  openSession,
  pathOf,
  readable,
  screenshot,
  skipReason,
  waitForDashboardPage,
  type Session,
  stepper,
} from "./browser";
import { startServer, type TestServer } from "./server";
import { photographEveryPage } from "./tour";

const skip = skipReason();
announceSkip("e2e/journey.test.ts", skip);

const STEP_MS = 45_000;
const run = Date.now().toString(36);
const alice = { name: "Alice Walker", email: `alice-${run}@e2e.test`, password: "alice-secret-1" };
const bruno = { name: "Bruno Diaz", email: `bruno-${run}@e2e.test`, password: "bruno-secret-1" };

let server: TestServer;
let browser: Browser;
let a: Session; // Alice, registered under the admin
let b: Session; // Bruno, registered under Alice
let admin: Session;
let aliceReferralId = "";
const sessions: Record<string, Session> = {};

const step = stepper(sessions, STEP_MS);

describe.skipIf(skip !== null)("the user journey in a real browser", () => {
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  }, 90_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
  }, 30_000);

  test(
    "an anonymous visit to /userDashboard lands on /logIn with the toast 'You must be logged in to access this page!'",
    async () => {
      const stranger = await openSession(browser, server.url);
      try {
        await stranger.page.goto("/userDashboard");
        await expectText(stranger.page, "You must be logged in to access this page!");
        await stranger.page.waitForURL(byPath("/logIn"));
        expect(pathOf(stranger.page).toLowerCase()).toBe("/login");
        await stranger.page.getByRole("heading", { name: "Welcome back" }).waitFor();
        await stranger.page.goto("/userDashboard/deposit");
        await stranger.page.waitForURL(byPath("/logIn"));
      } finally {
        await stranger.context.close();
      }
    },
    STEP_MS,
  );

  test(
    "the login page, when its code cannot be downloaded (a release replaced it), shows an error with a reload instead of a blank screen",
    async () => {
      const visitor = await openSession(browser, server.url);
      try {
        await visitor.page.goto("/register");
        await visitor.page.getByRole("heading", { name: "Create your account" }).waitFor();
        // From now on the chunks not loaded yet are gone, as after a new build on the server.
        await visitor.page.route(/\/build\/chunk-[^/]*\.js$/, (route) => route.fulfill({ status: 404, body: "Not found" }));
        await visitor.page.getByRole("link", { name: "Log In" }).click();
        await visitor.page.getByRole("alert").getByText("This page could not be loaded").waitFor();
        await visitor.page.unroute(/\/build\/chunk-[^/]*\.js$/);
        await visitor.page.getByRole("button", { name: "Try again" }).click();
        await visitor.page.getByRole("heading", { name: "Welcome back" }).waitFor();
      } finally {
        await visitor.context.close();
      }
    },
    STEP_MS,
  );

  test(
    "a dashboard page whose code cannot be downloaded (a release replaced it) shows an error with a reload, not an empty screen",
    async () => {
      const reader = await openSession(browser, server.url);
      try {
        const login = await reader.page.request.post("/api/auth/login", { data: server.admin });
        const { token } = (await login.json()) as { token: string };
        await reader.context.addInitScript((t) => localStorage.setItem("token", t), token);
        await reader.page.goto("/userDashboard");
        await waitForDashboardPage(reader.page, "Profile");
        // From now on the page chunks are gone, as after a new build on the server.
        await reader.page.route(/\/build\/chunk-[^/]*\.js$/, (route) => route.fulfill({ status: 404, body: "Not found" }));
        await sidebarLink(reader.page, "Partners").click();
        await reader.page.getByRole("alert").getByText("This page could not be loaded").waitFor();
        // The frame still works: header, balance, menu.
        await expectHeaderBalance(reader.page, "0.00 $");
        await reader.page.unroute(/\/build\/chunk-[^/]*\.js$/);
        await reader.page.getByRole("button", { name: "Try again" }).click();
        await waitForDashboardPage(reader.page, "Partners");
      } finally {
        await reader.context.close();
      }
    },
    STEP_MS,
  );

  step("A registers through /register under the admin's referral ID, which the page fills in", async () => {
    a = sessions.alice = await openSession(browser, server.url);
    const { referralId: adminId } = (await (await a.page.request.get("/api/auth/admin-referral-id")).json()) as { referralId: string };
    expect(adminId).toBeTruthy();
    await a.page.goto("/register");
    await a.page.getByRole("heading", { name: "Create your account" }).waitFor();
    await eventually(async () => expect(await field(a.page, "Referral ID").inputValue()).toBe(adminId));
    await expectText(a.page, `Joining under the platform's first account (${adminId}): no invitation link was used.`);
    await register(a.page, alice);
  });

  step("A logs in, lands on the profile with 0.00 $ and the admin as referrer, and finds the referral ID", async () => {
    await logIn(a.page, alice.email, alice.password);
    await expectHeaderBalance(a.page, "0.00 $");
    await expect(await a.page.getByRole("banner").getByText(alice.name).count()).toBeGreaterThan(0);
    await expectText(a.page, /^Admin \(/);
    aliceReferralId = (await field(a.page, "Referral ID").inputValue()).trim();
    expect(aliceReferralId).toMatch(/\S{4,}/);
    expect(await field(a.page, "Referral link").inputValue()).toBe(`${server.url}/register?ref=${encodeURIComponent(aliceReferralId)}`);
  });

  step("B registers through A's link /register?ref=<A's referral ID>, with the field pre-filled", async () => {
    b = sessions.bruno = await openSession(browser, server.url);
    await b.page.goto(`/register?ref=${encodeURIComponent(aliceReferralId)}`);
    await b.page.getByRole("heading", { name: "Create your account" }).waitFor();
    expect(await field(b.page, "Referral ID").inputValue()).toBe(aliceReferralId);
    // The link names whose team B joins.
    await expectText(b.page, `Joining under ${alice.name} (${aliceReferralId})`);
    expect(await b.page.getByText(/platform's first account/).count()).toBe(0);
    await register(b.page, bruno);
  });

  step("B logs in and sees A as the referrer", async () => {
    await logIn(b.page, bruno.email, bruno.password);
    await expectHeaderBalance(b.page, "0.00 $");
    await expectText(b.page, `${alice.name} (${aliceReferralId})`);
  });

  step("A and B each ask for a 50 USDT deposit through the deposit form, which credits nothing yet", async () => {
    await requestDeposit(a.page, "50", randomTxId());
    await requestDeposit(b.page, "50", randomTxId());
    await expectHeaderBalance(a.page, "0.00 $");
    await expectHeaderBalance(b.page, "0.00 $");
  });

  step("the admin logs in in another browser and accepts both deposits on admin-dashboard", async () => {
    admin = sessions.admin = await openSession(browser, server.url);
    await logIn(admin.page, server.admin.email, server.admin.password);
    await openFromMenu(admin.page, "Admin Dashboard");
    const deposits = admin.page.getByRole("table", { name: "Pending deposits" });
    for (const who of [alice, bruno]) {
      const row = deposits.getByRole("row").filter({ hasText: who.email });
      await row.waitFor();
      await row.getByText("50.00 $", { exact: true }).waitFor();
    }
    // The dashboard with rows in it, for the screenshot review (the later tour finds it empty).
    await screenshot(admin.page, "admin-admin-dashboard-pending-1280");
    await admin.page.setViewportSize(MOBILE);
    await screenshot(admin.page, "admin-admin-dashboard-pending-390");
    await admin.page.setViewportSize(DESKTOP);
    await acceptOnAdminDashboard(admin.page, "deposit", alice.name);
    await acceptOnAdminDashboard(admin.page, "deposit", bruno.name);
    await eventually(async () => expect(await admin.page.getByText("No pending requests.").count()).toBe(2));
    // Deposits come from outside: the admin's own balance does not move.
    await expectHeaderBalance(admin.page, "0.00 $");
  });

  step("A sees 50.00 $, is told to buy level 1 before level 3, then buys 3P level 1 after confirming and has 45.00 $", async () => {
    await reloadDashboard(a.page, "Deposit");
    await expectHeaderBalance(a.page, "50.00 $");
    await openFromMenu(a.page, "Packages");
    await a.page.getByRole("button", { name: "Buy Lvl 3", exact: true }).click();
    await expectText(a.page, "Please purchase previous levels first.");
    await buyLevel1Of3P(a.page);
    await expectHeaderBalance(a.page, "45.00 $");
    const slots = a.page.getByRole("listitem").filter({ hasText: /^Slot \d/ });
    await eventually(async () => expect(await slots.filter({ hasText: "Empty" }).count()).toBe(3));
  });

  step("B sees 50.00 $ and buys 3P level 1 after confirming: 45.00 $ left", async () => {
    await reloadDashboard(b.page, "Deposit");
    await expectHeaderBalance(b.page, "50.00 $");
    await buyLevel1Of3P(b.page);
    await expectHeaderBalance(b.page, "45.00 $");
  });

  step("A sees slot 1 of 3P level 1 Filled by B on the package page, and the 5.00 $ it paid: 50.00 $", async () => {
    await reloadDashboard(a.page, "Packages");
    await expectHeaderBalance(a.page, "50.00 $");
    await a.page.getByRole("button", { name: /^Level 1\b/ }).click();
    await a.page.getByRole("heading", { name: "Level 1 slots" }).waitFor();
    const slot = (n: number) => a.page.getByRole("listitem").filter({ hasText: new RegExp(`^Slot ${n}`) });
    await slot(1).getByText("Filled", { exact: true }).waitFor();
    await slot(1).getByText(bruno.name, { exact: true }).waitFor();
    await slot(2).getByText("Empty", { exact: true }).waitFor();
    await slot(3).getByText("Empty", { exact: true }).waitFor();
    await expectText(a.page, "1/3 filled");
    await expectText(a.page.getByRole("region", { name: "Level 1 slots" }), "5.00 $");
  });

  step("B finds A with the debounced search (3+ characters, one request) and sends a 10 USDT gift in the modal", async () => {
    await openFromMenu(b.page, "Send Gift");
    const searches: string[] = [];
    b.page.on("request", (r) => {
      if (r.url().includes("/api/user/search")) searches.push(new URL(r.url()).searchParams.get("search") ?? "");
    });
    const box = field(b.page, "Find a user");
    await box.pressSequentially("Al", { delay: 40 });
    await expectText(b.page, "Type at least 3 characters to search for a user.");
    await Bun.sleep(700);
    expect(searches).toEqual([]);
    await box.pressSequentially("ice Wal", { delay: 60 });
    const send = b.page.getByRole("button", { name: `Send gift to ${alice.name}` });
    await send.waitFor();
    // Debounced: no request while under 3 characters, the whole text asked for last, and not one
    // request per key (a loaded machine may pause the typing once, hence at most two).
    await eventually(() => expect(searches.at(-1)).toBe("Alice Wal"));
    expect(searches.length).toBeLessThanOrEqual(2);
    expect(searches.every((text) => text.length >= 3)).toBe(true);
    await send.click();
    const dialog = b.page.getByRole("dialog", { name: `Send a gift to ${alice.name}` });
    await dialog.waitFor();
    await dialog.getByText("45.00 $", { exact: true }).waitFor(); // available
    await dialog.getByLabel("Gift amount (USDT)").fill("10");
    await dialog.getByRole("button", { name: "Send gift", exact: true }).click();
    await expectText(b.page, "Gift sent successfully!");
    await dialog.waitFor({ state: "detached" });
    await expectHeaderBalance(b.page, "35.00 $");
    await reloadDashboard(a.page, "Packages");
    await expectHeaderBalance(a.page, "60.00 $");
  });

  step("B asks to withdraw 20 USDT through the form: more than available is refused, the 8% fee is shown, 20.00 $ is held", async () => {
    await openFromMenu(b.page, "Withdraw");
    await expectText(b.page, /^Available balance: 35\.00 \$$/);
    await field(b.page, "Withdrawal method").selectOption("USDT BEP20");
    await field(b.page, "Wallet address").fill(randomBep20Address());
    await field(b.page, "Amount (USDT)").fill("40");
    await b.page.getByRole("button", { name: "Review withdrawal" }).click();
    await expectText(b.page, "Withdrawal amount cannot exceed your available balance.");
    await field(b.page, "Amount (USDT)").fill("20");
    await expectText(b.page, "You will receive about 18.40 $ after the 8% fee (1.60 $); the full amount of 20.00 $ is deducted from your balance.");
    await b.page.getByRole("button", { name: "Review withdrawal" }).click();
    // The review reads back what will leave before anything is sent.
    const review = b.page.getByRole("region", { name: "Check your withdrawal" });
    await review.getByText("18.40 $", { exact: true }).waitFor();
    await review.getByText("USDT BEP20 · BEP20 (BNB Smart Chain)", { exact: true }).waitFor();
    await review.getByRole("button", { name: "Send withdrawal" }).click();
    await expectText(b.page, MSG.withdrawalSubmitted);
    await expectText(b.page, /^Available balance: 15\.00 \$$/);
    // Held, not paid: the balance stays until an admin accepts.
    await expectHeaderBalance(b.page, "35.00 $");
  });

  step("the admin accepts the withdrawal (18.40 $ to send); B then has 15.00 $ and nothing pending", async () => {
    await reloadDashboard(admin.page, "Admin Dashboard");
    const row = admin.page.getByRole("table", { name: "Pending withdrawals" }).getByRole("row").filter({ hasText: bruno.email });
    await row.getByText("20.00 $", { exact: true }).waitFor();
    await row.getByText("18.40 $", { exact: true }).waitFor();
    await row.getByText("USDT BEP20", { exact: true }).waitFor();
    await acceptOnAdminDashboard(admin.page, "withdrawal", bruno.name);
    await eventually(async () => expect(await admin.page.getByText("No pending requests.").count()).toBe(2));
    await b.page.goto("/userDashboard");
    await waitForDashboardPage(b.page, "Profile");
    await expectHeaderBalance(b.page, "15.00 $");
    const balance = b.page.getByRole("region", { name: "Balance" });
    await balance.getByText("15.00 $", { exact: true }).first().waitFor();
    const pending = balance.getByRole("definition").nth(0);
    const available = balance.getByRole("definition").nth(1);
    expect(readable(await pending.textContent())).toBe("0.00 $");
    expect(readable(await available.textContent())).toBe("15.00 $");
  });

  step("at 390 px a normal user gets the bottom tab bar (the spec's five entries, More for the rest), and no drawer", async () => {
    const page = a.page;
    await page.setViewportSize(MOBILE);
    try {
      await page.goto("/userDashboard");
      await waitForDashboardPage(page, "Profile");
      const tabs = page.getByRole("navigation", { name: "Dashboard" });
      expect(await tabs.count()).toBe(1); // the desktop sidebar is hidden
      const box = await tabs.boundingBox();
      expect(box).not.toBeNull();
      expect(Math.round(box!.y + box!.height)).toBe(MOBILE.height); // pinned to the bottom
      for (const label of ["Profile", "Packages", "Send Gift", "Deposit", "Withdraw"]) {
        await tabs.getByRole("link", { name: label, exact: true }).waitFor();
      }
      expect(await page.getByRole("button", { name: "Open menu" }).count()).toBe(0);
      // Pages beyond the spec's five sit behind "More".
      await tabs.getByRole("button", { name: "More" }).click();
      for (const label of ["Transactions", "Partners"]) await tabs.getByRole("link", { name: label, exact: true }).waitFor();
      expect(await tabs.getByRole("link", { name: /^(All Users|Admin )/ }).count()).toBe(0);
      await tabs.getByRole("link", { name: "Partners", exact: true }).click();
      await waitForDashboardPage(page, "Partners");
      expect(pathOf(page)).toBe("/userDashboard/partners");
      await tabs.getByRole("link", { name: "Withdraw", exact: true }).click();
      await waitForDashboardPage(page, "Withdraw");
      expect(pathOf(page)).toBe("/userDashboard/withdraw");
      await expectHeaderBalance(page, "60.00 $");
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });

  step("at 390 px an admin opens the slide-in drawer and sees the admin entries", async () => {
    const page = admin.page;
    await page.setViewportSize(MOBILE);
    try {
      await page.goto("/userDashboard");
      await waitForDashboardPage(page, "Profile");
      expect(await page.getByRole("navigation", { name: "Dashboard" }).count()).toBe(0); // no tab bar, sidebar hidden
      await page.getByRole("button", { name: "Open menu" }).click();
      const drawer = page.getByRole("dialog", { name: "Menu" });
      await drawer.waitFor();
      // It slides in from the left edge (a 200 ms animation) and stops there.
      await eventually(async () => {
        const box = await drawer.boundingBox();
        expect(box?.x).toBe(0);
        expect(box!.width).toBeLessThanOrEqual(MOBILE.width);
      }, 3000);
      for (const label of ["Profile", "All Users", "Admin Dashboard", "Admin Withdraw", "Admin Deposit", "Admin 3P", "Admin 6P"]) {
        await drawer.getByRole("link", { name: label, exact: true }).waitFor();
      }
      await drawer.getByRole("link", { name: "Admin Deposit", exact: true }).click();
      await drawer.waitFor({ state: "detached" });
      await waitForDashboardPage(page, "Deposit History");
      await page.getByRole("table", { name: "Deposit history" }).getByRole("row").filter({ hasText: alice.email }).getByText("Accepted").waitFor();
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });

  step(
    "every page is photographed at 390 and 1280 px into e2e/screenshots",
    async () => {
      const visitor = (sessions.visitor = await openSession(browser, server.url));
      await photographEveryPage({ visitor, user: a, admin });
    },
    120_000,
  );

  step("no page threw, and the server logged no failed request", async () => {
    const thrown = Object.entries(sessions).flatMap(([who, s]) => s.errors.map((e) => `${who}: ${e}`));
    expect(thrown).toEqual([]);
    expect(server.failures()).toEqual([]);
  });

  step("B logs out through the dialog ('Are you sure?' -> 'Yes, logout!' -> 'Logged Out!') and lands on /login", async () => {
    await b.page.getByRole("button", { name: "Sign Out" }).click();
    const confirm = b.page.getByRole("dialog");
    await confirm.getByText("Are you sure?", { exact: true }).waitFor();
    await confirm.getByText("Do you want to log out?", { exact: true }).waitFor();
    await confirm.getByRole("button", { name: "Yes, logout!" }).click();
    await b.page.getByText("Logged Out!", { exact: true }).waitFor();
    await b.page.getByText("You have successfully logged out.", { exact: true }).waitFor();
    await b.page.waitForURL(byPath("/login"));
    expect(pathOf(b.page)).toBe("/login");
    await b.page.getByRole("heading", { name: "Welcome back" }).waitFor();
    expect(await b.page.evaluate(() => localStorage.getItem("token"))).toBeNull();
    // The success dialog closes by itself after 2 seconds.
    await b.page.getByText("Logged Out!", { exact: true }).waitFor({ state: "detached", timeout: 5000 });
    // Signed out for real: the dashboard sends B back to the login page.
    await b.page.goto("/userDashboard");
    await b.page.waitForURL(byPath("/logIn"));
  });
});
