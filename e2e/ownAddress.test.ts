/**
 * A member's own deposit address in a real browser, against the real server and a real EVM node
 * (anvil, a test token standing in for USDT on BNB Smart Chain): the member opens the deposit
 * page on BEP20 and sees an address of their own with its QR code and no form; a dev wallet sends
 * to it; the list shows the transfer confirming; a block later the server's watcher credits it and
 * the header's balance rises without a reload (the live stream). The admin then sees the address
 * on the "To Sweep" page and marks it swept.
 */
import { afterAll, beforeAll, describe, expect } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { mnemonicToAccount } from "viem/accounts";
import { bunWebGlobals } from "../src/testing/bunGlobals";
import { announceAnvilSkip, type Anvil, anvilSkipReason, deployToken, devAccounts, startAnvil, type Token } from "../src/testing/evm/anvil";
import { logIn, openFromMenu } from "./actions";
import {
  announceSkip,
  eventually,
  expectHeaderBalance,
  expectText,
  launchBrowser,
  openSession,
  readable,
  screenshot,
  skipReason,
  stepper,
  type Session,
} from "./browser";
import { startServer, type TestServer } from "./server";

const skip = skipReason() ?? anvilSkipReason();
announceSkip("e2e/ownAddress.test.ts", skipReason());
announceAnvilSkip("e2e/ownAddress.test.ts", anvilSkipReason());

/** The account-level key (m/44'/60'/0') of anvil's test mnemonic: the operator's wallet holds the phrase, the server only this. */
const MNEMONIC = "test test test test test test test test test test test junk";
const BEP20_XPUB = "xpub6Ce9NcJvTk36xtLSrJLZqE7wtgA5deCeYs7rSQtreh4cj6ByPtrg9sD7V2FNFLPnf8heNP3FGkeV9qwfzvZNSd54JoNXVsXFYSYwHsnJxqP";
const CONFIRMATIONS = 2;
const STEP_MS = 60_000;

const fetch = bunWebGlobals.fetch;
const run = Date.now().toString(36);
const member = { name: "Olga Own", email: `olga-${run}@e2e.test`, password: "olga-secret-1" };
const sender = devAccounts[1]!;
/** Dollars as the 18-decimal test token's units. */
const units = (dollars: number) => BigInt(Math.round(dollars * 100)) * 10n ** 16n;

let anvil: Anvil;
let usdt: Token;
let server: TestServer;
let browser: Browser;
const sessions: Record<string, Session> = {};
let olga: Session;
let address: `0x${string}`;

const AXE_SOURCE = readFileSync(join(import.meta.dir, "../node_modules/axe-core/axe.min.js"), "utf8");

/** axe-core's serious and critical findings on the page as it is now (e2e/a11y.test.ts checks the other pages). */
async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, options: object) => Promise<{ violations: { id: string; impact?: string; nodes: { target: string[] }[] }[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ["violations"] })).violations;
  });
  return found.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

async function call<T = any>(method: string, path: string, { token, body }: { token?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(`${server.url}/api${path}`, {
    method,
    headers: { ...(token ? { "x-auth-token": token } : {}), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} /api${path} answered ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

describe.skipIf(skip !== null)("a member's own deposit address in the browser (anvil)", () => {
  const step = stepper(sessions, STEP_MS, "own-address-");

  beforeAll(async () => {
    anvil = await startAnvil();
    usdt = await deployToken(anvil, "USDT", 18);
    await usdt.mint(sender.address, units(1_000));
    server = await startServer({
      env: {
        BEP20_RPC_URL: anvil.url,
        BEP20_USDT_CONTRACT: usdt.address,
        BEP20_XPUB,
        BEP20_CONFIRMATIONS: String(CONFIRMATIONS),
        CHAIN_POLL_SECONDS: "1",
      },
    });
    browser = await launchBrowser();
    const referralId = (await call<{ referralId: string }>("GET", "/auth/admin-referral-id")).referralId;
    await call("POST", "/auth/register", { body: { ...member, referralId } });
  }, 90_000);

  afterAll(async () => {
    for (const s of Object.values(sessions)) await s.context.close().catch(() => {});
    await browser?.close();
    await server?.stop();
    await anvil?.stop();
  });

  step("the site says BEP20 members get addresses of their own", async () => {
    const config = await call<{ networks: { network: string; ownAddresses: boolean; confirmations: number }[] }>("GET", "/config");
    expect(config.networks.find((n) => n.network === "BEP20")).toMatchObject({ ownAddresses: true, confirmations: CONFIRMATIONS });
    expect(config.networks.find((n) => n.network === "TRC20")).toMatchObject({ ownAddresses: false });
  });

  step("the member opens the deposit page on BEP20: their own address, its QR code, the rule, and no form", async () => {
    olga = sessions.olga = await openSession(browser, server.url);
    const { page } = olga;
    await logIn(page, member.email, member.password);
    await expectHeaderBalance(page, "0.00 $");
    await openFromMenu(page, "Deposit");
    // TRC20 first: the shared address and the claim form.
    await page.getByRole("button", { name: "Submit deposit" }).waitFor();
    await page.getByText("BEP20 (BNB Smart Chain)", { exact: true }).click();
    const qr = page.getByRole("img", { name: "QR code of your BEP20 (BNB Smart Chain) deposit address" });
    await qr.waitFor();
    expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const shown = readable(await page.locator("code").first().textContent());
    expect(shown).toMatch(/^0x[0-9a-fA-F]{40}$/);
    address = shown as `0x${string}`;
    await expectText(page, "This address is yours alone: whatever arrives there is credited to you.");
    await expectText(page, `credited to your balance automatically after ${CONFIRMATIONS} confirmations on BNB Smart Chain: no form needed`);
    await expectText(page, "The minimum deposit is 1 USDT");
    await expectText(page, "Send only USDT on BEP20 (BNB Smart Chain) to this address.");
    expect(await page.getByRole("button", { name: "Submit deposit" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Copy address" }).count()).toBe(1);

    // The server's answer, and the operator's wallet, name the same address.
    const own = await page.evaluate(async () => {
      const res = await fetch("/api/user/deposit/address?network=BEP20", { headers: { "x-auth-token": localStorage.getItem("token")! } });
      return (await res.json()) as { address: string; index: number };
    });
    expect(own.address).toBe(address);
    expect(mnemonicToAccount(MNEMONIC, { path: `m/44'/60'/0'/0/${own.index}` }).address).toBe(address);
    await screenshot(page, "own-address-deposit");
    expect(await seriousViolations(page)).toEqual([]);
  });

  step("a wallet sends 25 USDT to it: the list shows it confirming, and nothing is credited yet", async () => {
    const { page } = olga;
    await usdt.transfer(sender, address, units(25));
    // The page looks for new arrivals now and then while the address shows (no event until the credit).
    await expectText(page, `Confirming 1 of ${CONFIRMATIONS}`, 25_000);
    await expectText(page, "to your address");
    await expectHeaderBalance(page, "0.00 $");
    await screenshot(page, "own-address-confirming");
  });

  step("a block later the watcher credits it: the balance rises live, without a reload", async () => {
    const { page } = olga;
    const before = await page.evaluate(() => performance.timeOrigin);
    await anvil.mine(CONFIRMATIONS);
    await expectHeaderBalance(page, "25.00 $", 15_000);
    await expectText(page, "Your deposit of 25 USDT was accepted and added to your balance.", 5_000);
    const table = page.getByRole("table", { name: /Your deposit requests/ });
    await eventually(async () => {
      const rows = table.getByRole("row");
      expect(await rows.count()).toBe(2);
      const text = readable(await rows.nth(1).textContent());
      expect(text).toContain("Accepted");
      expect(text).not.toContain("Confirming");
    }, 10_000);
    // Still the same document: nothing reloaded it.
    expect(await page.evaluate(() => performance.timeOrigin)).toBe(before);
    expect(olga.errors).toEqual([]);
  });

  step("the admin sees the deposit to the member's address and the address on 'To Sweep', and marks it swept", async () => {
    const admin = (sessions.admin = await openSession(browser, server.url));
    const { page } = admin;
    await logIn(page, server.admin.email, server.admin.password);
    await openFromMenu(page, "Admin Deposit", "Deposit History");
    await expectText(page, "To the member's address");

    await openFromMenu(page, "To Sweep");
    await expectText(page, "read-only help");
    const row = page.getByRole("row").filter({ hasText: member.name });
    await row.waitFor();
    expect(readable(await row.textContent())).toContain("25.00 $");
    await screenshot(page, "own-address-sweep");
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: `Mark swept ${address}` }).click();
    const dialog = page.getByRole("dialog", { name: "Mark this address swept?" });
    await dialog.getByText(member.name, { exact: false }).waitFor();
    await dialog.getByRole("button", { name: "Yes, mark swept" }).click();
    await expectText(page, "Marked swept: 25 USDT cleared from the list.");
    await expectText(page, "Nothing to sweep");
    expect(admin.errors).toEqual([]);
  });
});
