/**
 * A withdrawal asked for and taken back, in a real browser against the real server: a funded
 * member (50.00 from the platform) asks for 20 USDT through the review step, sees it pending in
 * the list of their withdrawal requests with its address, network, fee and net, cancels it there,
 * and gets the 20.00 back as available with the request marked cancelled. The server's
 * answer agrees, and the ledger invariants hold in the database afterwards
 * (docs/rules.md#withdrawals, #ledger-invariants).
 *
 * Money: 50.00 held 20.00 (available 30.00, balance still 50.00); cancelled -> available 50.00,
 * nothing held, no transfer made (the fee is kept only when an admin pays it out).
 */
import { afterAll, beforeAll, describe, expect } from "bun:test";
import type { Browser, Locator } from "playwright-core";
import { sql } from "drizzle-orm";
import { getAddress } from "viem";
import { MEMBER_CANCELLED } from "../src/core/wallet";
import { openDatabase, rowsOf } from "../src/db/client";
import { MSG } from "../src/shared/messages";
import { bunWebGlobals } from "../src/testing/bunGlobals";
import { randomBep20Address } from "../src/testing/chainIds";
import { expectLedgerInvariants } from "../src/testing/invariants";
import { field, logIn, openFromMenu } from "./actions";
import { announceSkip, expectHeaderBalance, expectText, launchBrowser, openSession, readable, screenshot, skipReason, stepper, type Session } from "./browser";
import { callApi, startServer, type TestServer } from "./server";

const skip = skipReason();
announceSkip("e2e/withdrawalCancel.test.ts", skip);

const STEP_MS = 30_000;
const run = Date.now().toString(36);
const member = { name: "Wanda Withdraw", email: `wanda-${run}@e2e.test`, password: "wanda-secret-1" };
/** A BEP20 address typed in lower case; the review and the list write it as the network does (EIP-55). */
const typed = randomBep20Address();
const address = getAddress(typed);
const fetch = bunWebGlobals.fetch;

let server: TestServer;
let browser: Browser;
let w: Session;
let memberToken = "";
const sessions: Record<string, Session> = {};
const step = stepper(sessions, STEP_MS, "withdrawal-cancel-");

const call = <T = any>(method: string, path: string, options: { token?: string; body?: unknown } = {}) => callApi<T>(server.url, method, path, options);

/** The member's withdrawal requests as the page lists them, and the one row there is. */
const requests = () => w.page.getByRole("table", { name: "Your withdrawal requests, newest first" });
const theRequest = (): Locator => requests().getByRole("row").filter({ hasText: "20.00 $" });

describe.skipIf(skip !== null)("a withdrawal reviewed, sent and cancelled in the browser", () => {
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    const admin = await call<{ token: string }>("POST", "/auth/login", { body: server.admin });
    const { referralId } = await call<{ referralId: string }>("GET", "/auth/admin-referral-id");
    await call("POST", "/auth/register", { body: { ...member, referralId } });
    memberToken = (await call<{ token: string }>("POST", "/auth/login", { body: member })).token;
    const { _id } = await call<{ _id: string }>("GET", "/auth", { token: memberToken });
    await call("POST", `/admin/users/${_id}/gift`, { token: admin.token, body: { amount: 50 } });
    w = await openSession(browser, server.url);
    sessions.member = w;
  }, 90_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
  }, 30_000);

  step("the funded member asks for 20 USDT: the review reads back network, address, amount, fee and net before anything is sent", async () => {
    await logIn(w.page, member.email, member.password);
    await expectHeaderBalance(w.page, "50.00 $");
    await openFromMenu(w.page, "Withdraw");
    await expectText(w.page, /^Available balance: 50\.00 \$$/);
    await expectText(w.page, "You have not requested any withdrawals yet.");
    await field(w.page, "Withdrawal method").selectOption("USDT BEP20");
    await field(w.page, "Wallet address").fill(typed);
    await field(w.page, "Amount (USDT)").fill("20");
    await w.page.getByRole("button", { name: "Review withdrawal" }).click();
    const review = w.page.getByRole("region", { name: "Check your withdrawal" });
    const sent = review.getByRole("definition");
    expect((await sent.allTextContents()).map(readable)).toEqual(["USDT BEP20 · BEP20 (BNB Smart Chain)", address, "20.00 $", "1.60 $", "18.40 $"]);
    // Nothing is held yet: only the review's button sends it.
    const me = await call<{ balance: number; pendingWithdrawalsTotal: number }>("GET", "/auth", { token: memberToken });
    expect({ balance: me.balance, pending: me.pendingWithdrawalsTotal }).toEqual({ balance: 50, pending: 0 });
    await screenshot(w.page, "withdrawal-cancel-review");
    await review.getByRole("button", { name: "Send withdrawal" }).click();
    await expectText(w.page, MSG.withdrawalSubmitted);
    await review.waitFor({ state: "detached" });
  });

  step("it is pending in the requests list, with its address, network, fee and net; 20.00 $ is held", async () => {
    await expectText(w.page, /^Available balance: 30\.00 \$$/);
    // Held, not paid: the balance stays, what is available shows beside it.
    await expectHeaderBalance(w.page, "50.00 $");
    await expectText(w.page.getByRole("banner"), "· 30.00 $ available");
    const row = theRequest();
    await row.getByText("Pending").waitFor();
    expect(await requests().getByRole("row").count()).toBe(2); // the header row and this one
    const text = readable(await row.textContent());
    for (const part of ["USDT BEP20", "BEP20 (BNB Smart Chain)", "Fee 1.60 $", "To receive 18.40 $"]) expect(text).toContain(part);
    // The address in full for screen readers and on hover, and one click from the clipboard.
    expect(await row.getByTitle(address).count()).toBe(1);
    await row.getByRole("button", { name: "Copy withdrawal address" }).waitFor();
    await screenshot(w.page, "withdrawal-cancel-pending");
  });

  step("the member cancels it from the list: the amount is available again and the request shows as cancelled", async () => {
    const row = theRequest();
    await row.getByRole("button", { name: "Cancel withdrawal of 20.00 $" }).click();
    const dialog = w.page.getByRole("dialog", { name: "Cancel this withdrawal?" });
    await dialog.getByText(`20.00 $ to ${address} will not be paid`, { exact: false }).waitFor();
    await dialog.getByRole("button", { name: "Yes, cancel it" }).click();
    await expectText(w.page, MSG.withdrawalCancelled);
    await row.getByText("Cancelled by you").waitFor();
    expect(await row.getByRole("button", { name: /^Cancel withdrawal/ }).count()).toBe(0);
    expect(await row.getByText("Pending").count()).toBe(0);
    // Declined by the member's own hand: no fee kept, nothing paid out.
    expect(readable(await row.textContent())).not.toContain("Fee");
    await expectText(w.page, /^Available balance: 50\.00 \$$/);
    await expectHeaderBalance(w.page, "50.00 $");
    expect(await w.page.getByRole("banner").getByText(/available/).count()).toBe(0);
    const me = await call<{ balance: number; pendingWithdrawalsTotal: number }>("GET", "/auth", { token: memberToken });
    expect({ balance: me.balance, pending: me.pendingWithdrawalsTotal }).toEqual({ balance: 50, pending: 0 });
    await screenshot(w.page, "withdrawal-cancel-cancelled");
    expect(w.errors).toEqual([]);
  });

  step("in the database: the ledger invariants hold, the request is declined as cancelled, and no money moved for it", async () => {
    await server.halt();
    const database = await openDatabase({ dataDir: server.dataDir });
    try {
      await expectLedgerInvariants(database.db);
      const rows = rowsOf<{ status: string; decided_by: string | null; amount: string; fee: string | null; held: string }>(
        await database.db.execute(sql`
          SELECT w.status, w.decided_by, w.amount::text AS amount, w.fee::text AS fee, a.held::text AS held
          FROM withdrawals w JOIN users u ON u.id = w.user_id JOIN accounts a ON a.id = u.id
          WHERE u.email = ${member.email}`),
      );
      expect(rows).toEqual([{ status: "declined", decided_by: MEMBER_CANCELLED, amount: "2000", fee: null, held: "0" }]);
      const moved = rowsOf<{ n: string }>(await database.db.execute(sql`SELECT count(*)::text AS n FROM transfers WHERE kind IN ('withdrawal', 'fee')`));
      expect(moved).toEqual([{ n: "0" }]);
    } finally {
      await database.close();
    }
    expect(server.failures()).toEqual([]);
  });
});
