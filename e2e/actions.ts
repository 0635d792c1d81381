/** What a user does in the journey, through the UI only: labels, roles and visible texts. */
import { expect } from "bun:test";
import type { Page } from "playwright-core";
import { MSG } from "../src/shared/messages";
import { eventually, expectText, waitForDashboardPage } from "./browser";

export const byPath = (path: string) => (url: URL) => url.pathname.toLowerCase() === path.toLowerCase();
export const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
export const sidebarLink = (page: Page, label: string) =>
  page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: label, exact: true });

export interface Person {
  name: string;
  email: string;
  password: string;
}

export async function register(page: Page, who: Person) {
  await field(page, "Name").fill(who.name);
  await field(page, "Email").fill(who.email);
  await field(page, "Password").fill(who.password);
  await field(page, "Confirm password").fill(who.password);
  await page.getByRole("button", { name: "Register", exact: true }).click();
  await expectText(page, "Registration successful! Please log in.");
  await page.waitForURL(byPath("/login"));
}

export async function logIn(page: Page, email: string, password: string) {
  if (!byPath("/login")(new URL(page.url()))) await page.goto("/login");
  await page.getByRole("heading", { name: "Welcome back" }).waitFor();
  await field(page, "Email").fill(email);
  await field(page, "Password").fill(password);
  await page.getByRole("button", { name: "Login", exact: true }).click();
  await expectText(page, "Login successful! Welcome back.");
  await page.waitForURL(byPath("/userDashboard"));
  await waitForDashboardPage(page, "Profile");
}

/** Opens a dashboard page through the desktop sidebar, as a user would. */
export async function openFromMenu(page: Page, label: string, heading: string | RegExp = label) {
  await sidebarLink(page, label).click();
  await waitForDashboardPage(page, heading);
}

/** A valid TRON address (base58check): the wallet every deposit of the browser tests comes from. */
export const E2E_SENDER = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";

/** A transaction ID as TRON writes them: 64 hex characters, random. */
export function randomTxId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Submits a TRC20 deposit through the form; `transactionId` must be a TRC20 one (64 hex). */
export async function requestDeposit(page: Page, amount: string, transactionId: string) {
  await openFromMenu(page, "Deposit");
  await expectText(page, "Send USDT to this address");
  await field(page, "Your wallet address").fill(E2E_SENDER);
  await field(page, "Transaction ID").fill(transactionId);
  await field(page, "Amount (USDT)").fill(amount);
  await page.getByRole("button", { name: "Submit deposit" }).click();
  await expectText(page, MSG.depositSubmitted);
  // The form resets after a successful submit.
  await eventually(async () => expect(await field(page, "Amount (USDT)").inputValue()).toBe(""));
}

/** Reloads the page (a user coming back later) so the header shows the server's balance now. */
export async function reloadDashboard(page: Page, heading: string | RegExp) {
  await page.reload();
  await waitForDashboardPage(page, heading);
}

export async function buyLevel1Of3P(page: Page) {
  await openFromMenu(page, "Packages");
  await expect(await page.getByRole("tab", { name: "3P" }).getAttribute("aria-selected")).toBe("true");
  await page.getByRole("button", { name: "Buy Lvl 1", exact: true }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByText("Buy Level 1?").waitFor();
  await dialog.getByText("Level 1 of 3P costs 5.00 $, paid from your balance.").waitFor();
  await dialog.getByRole("button", { name: "Yes, buy it!" }).click();
  await expectText(page, "Level purchased successfully!");
  await page.getByRole("heading", { name: "Level 1 slots" }).waitFor();
}

export async function acceptOnAdminDashboard(page: Page, kind: "deposit" | "withdrawal", userName: string) {
  const accept = page.getByRole("button", { name: `Accept ${kind} of ${userName}`, exact: true });
  await accept.click();
  // The confirmation names the member and the amount.
  const confirm = page.getByRole("dialog", { name: `Accept this ${kind}?` });
  await confirm.getByText(userName, { exact: false }).waitFor();
  // On a loaded machine a click during the dialog's opening animation can land beside the button
  // (the dialog then stays open): clicked again until the dialog goes. It goes with the first
  // click that lands, so the request is sent once.
  for (let tries = 1; ; tries++) {
    await confirm.getByRole("button", { name: "Yes, accept" }).click();
    try {
      await confirm.waitFor({ state: "hidden", timeout: 3_000 });
      break;
    } catch (error) {
      if (tries === 3) throw error;
    }
  }
  await expectText(page, "Request successfully accepted.");
  await accept.waitFor({ state: "detached" });
}
