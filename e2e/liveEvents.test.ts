/**
 * Live events in a real browser against the real server: the recipient's dashboard is open in one
 * window; a gift sent from the sender's window appears there at once, as a toast, with the new
 * balance in the header and the bell's count, without a reload (the balance query polls every
 * 30 s: the test waits at most 5 s, so only the live stream can bring it).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { bunWebGlobals } from "../src/testing/bunGlobals";
import { logIn } from "./actions";
import { announceSkip, expectHeaderBalance, expectText, launchBrowser, openSession, skipReason, type Session } from "./browser";
import { startServer, type TestServer } from "./server";

const skip = skipReason();
announceSkip("e2e/liveEvents.test.ts", skip);

const fetch = bunWebGlobals.fetch;
const run = Date.now().toString(36);
const sender = { name: "Sam Sender", email: `sam-${run}@e2e.test`, password: "sam-secret-1" };
const recipient = { name: "Rita Receiver", email: `rita-${run}@e2e.test`, password: "rita-secret-1" };

let server: TestServer;
let browser: Browser;
const sessions: Session[] = [];

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

describe.skipIf(skip !== null)("live events in the browser", () => {
  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const admin = (await call<{ token: string }>("POST", "/auth/login", { body: server.admin })).token;
    const referralId = (await call<{ referralId: string }>("GET", "/auth/admin-referral-id")).referralId;
    for (const who of [sender, recipient]) await call("POST", "/auth/register", { body: { ...who, referralId } });
    const senderToken = (await call<{ token: string }>("POST", "/auth/login", { body: sender })).token;
    const senderId = (await call<{ _id: string }>("GET", "/auth", { token: senderToken }))._id;
    await call("POST", `/admin/users/${senderId}/gift`, { token: admin, body: { amount: 40 } });
  }, 60_000);

  afterAll(async () => {
    for (const s of sessions) await s.context.close().catch(() => {});
    await browser?.close();
    await server?.stop();
  });

  test("a gift sent in one window appears live, with the new balance, in the recipient's window", async () => {
    const rita = await openSession(browser, server.url);
    const sam = await openSession(browser, server.url);
    sessions.push(rita, sam);
    await logIn(rita.page, recipient.email, recipient.password);
    await expectHeaderBalance(rita.page, "0.00 $");
    await logIn(sam.page, sender.email, sender.password);
    // The recipient's stream is open once the dashboard is; give it a moment to connect.
    await rita.page.waitForTimeout(500);
    // Sent from the sender's window, with the sender's session (its own token).
    await sam.page.evaluate(
      async ({ email }) => {
        const res = await fetch("/api/user/gift", {
          method: "POST",
          headers: { "content-type": "application/json", "x-auth-token": localStorage.getItem("token")! },
          body: JSON.stringify({ amount: "12.50", recipientEmail: email }),
        });
        if (!res.ok) throw new Error(`gift answered ${res.status}`);
      },
      { email: recipient.email },
    );
    await expectText(rita.page, "Sam Sender sent you a gift of 12.50 USDT.", 5_000);
    await expectHeaderBalance(rita.page, "12.50 $", 5_000);
    await expectText(rita.page.getByRole("banner"), "1", 5_000);
    expect(await rita.page.getByRole("link", { name: "Notifications, 1 unread" }).count()).toBe(1);
    // The bell opens the notifications page.
    await rita.page.getByRole("link", { name: "Notifications, 1 unread" }).click();
    await expectText(rita.page, "Sam Sender sent you a gift of 12.50 USDT.");
    expect(rita.errors).toEqual([]);
  }, 60_000);
});
