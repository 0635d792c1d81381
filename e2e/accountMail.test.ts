/**
 * Account recovery by mail in a real browser, against the real server sending through a real
 * SMTP server on 127.0.0.1 (npm smtp-server, each message parsed with mailparser): a member
 * forgets the password, asks for a link from the login page, opens the mailed link, sets a new
 * password and signs in with it; then changes the email address on the profile page, opens the
 * link mailed to the new address, and signs in with that one, while the old address gets a
 * notice (docs/rules.md#account-recovery-and-mail).
 */
import { afterAll, beforeAll, describe, expect } from "bun:test";
import type { Browser } from "playwright-core";
import { MSG } from "../src/shared/messages";
import { startSmtpServer, type SmtpServer } from "../src/testing/smtp";
import { byPath, field, logIn, register } from "./actions";
import { announceSkip, eventually, expectText, launchBrowser, openSession, screenshot, skipReason, stepper, type Session } from "./browser";
import { startServer, type TestServer } from "./server";

const skip = skipReason();
announceSkip("e2e/accountMail.test.ts", skip);

const run = Date.now().toString(36);
const carla = { name: "Carla Mendes", email: `carla-${run}@e2e.test`, password: "carla-secret-1" };
const NEW_PASSWORD = "carla-secret-2";
const NEW_EMAIL = `carla.new-${run}@e2e.test`;

let smtp: SmtpServer;
let server: TestServer;
let browser: Browser;
let c: Session;
let publicUrl = "";
const sessions: Record<string, Session> = {};
const step = stepper(sessions, 45_000, "mail-");

/** A port free now, for the server: its links (PUBLIC_URL) must name it before it starts. */
function freePort(): number {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const { port } = probe;
  probe.stop(true);
  return port;
}

/** The last mail to `address` whose subject starts with `subject`, once it has arrived. */
const mailTo = (address: string, subject: string) =>
  eventually(() => {
    const mail = smtp.to(address).filter((m) => m.subject.startsWith(subject)).at(-1);
    if (!mail) throw new Error(`no mail "${subject}" to ${address} yet (${smtp.received.length} in all)`);
    return mail;
  }, 20_000);

describe.skipIf(skip !== null)("account recovery and email change by mail, in a real browser", () => {
  beforeAll(async () => {
    smtp = await startSmtpServer();
    const port = freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    [server, browser] = await Promise.all([
      startServer({ env: { PORT: String(port), PUBLIC_URL: publicUrl, SMTP_URL: smtp.url, MAIL_FROM: "Matrix E2E <no-reply@e2e.test>" } }),
      launchBrowser(),
    ]);
    c = sessions.carla = await openSession(browser, server.url);
  }, 90_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
    await smtp?.stop();
  }, 30_000);

  step("a member registers; the confirmation link is mailed", async () => {
    await c.page.goto("/register");
    await register(c.page, carla);
    const mail = await mailTo(carla.email, "Confirm your email address");
    expect(mail.link).toStartWith(`${publicUrl}/confirm-email?token=`);
    expect(mail.from).toContain("Matrix E2E");
    expect(mail.from).toContain("<no-reply@e2e.test>");
  });

  step("forgot password: the login page's link, the email, the one answer", async () => {
    await c.page.goto("/login");
    await c.page.getByRole("link", { name: "Forgot your password?" }).click();
    await c.page.waitForURL(byPath("/forgot-password"));
    // The login page has an Email field too: fill the forgot page's, once it is drawn.
    await c.page.getByRole("heading", { name: "Forgot your password?" }).waitFor();
    await field(c.page, "Email").fill(carla.email);
    await c.page.getByRole("button", { name: "Send me a link" }).click();
    await expectText(c.page, MSG.resetMailSent);
  });

  step("the mailed link opens the reset page; a new password, then signing in with it", async () => {
    const mail = await mailTo(carla.email, "Reset your password");
    expect(mail.link).toStartWith(`${publicUrl}/reset-password?token=`);
    expect(mail.html).toContain(mail.link!);
    await c.page.goto(mail.link!);
    await c.page.getByRole("heading", { name: "Choose a new password" }).waitFor();
    await field(c.page, "New password").fill(NEW_PASSWORD);
    await field(c.page, "Confirm new password").fill("something-else");
    await c.page.getByRole("button", { name: "Set the new password" }).click();
    await expectText(c.page, "Passwords do not match");
    await field(c.page, "Confirm new password").fill(NEW_PASSWORD);
    await c.page.getByRole("button", { name: "Set the new password" }).click();
    await c.page.waitForURL(byPath("/login"));
    await expectText(c.page, MSG.passwordReset);
    await screenshot(c.page, "mail-after-reset");
    // The old password no longer works; the new one does.
    await field(c.page, "Email").fill(carla.email);
    await field(c.page, "Password").fill(carla.password);
    await c.page.getByRole("button", { name: "Login", exact: true }).click();
    await expectText(c.page, MSG.invalidCredentials);
    await logIn(c.page, carla.email, NEW_PASSWORD);
    await mailTo(carla.email, "Your password was reset");
    // The same link again: refused, saying what to do.
    await c.page.goto(mail.link!);
    await field(c.page, "New password").fill("carla-secret-3");
    await field(c.page, "Confirm new password").fill("carla-secret-3");
    await c.page.getByRole("button", { name: "Set the new password" }).click();
    await expectText(c.page, MSG.tokenInvalid);
  });

  step("the email change: a link to the new address, opened; the old address gets a notice; the new one signs in", async () => {
    await logIn(c.page, carla.email, NEW_PASSWORD);
    const form = c.page.getByRole("form", { name: "Change email" });
    await form.getByLabel("New email", { exact: true }).fill(NEW_EMAIL);
    await form.getByLabel("Current password", { exact: true }).fill("not-my-password");
    await form.getByRole("button", { name: "Change email" }).click();
    await expectText(form, MSG.wrongPassword);
    await form.getByLabel("Current password", { exact: true }).fill(NEW_PASSWORD);
    await form.getByRole("button", { name: "Change email" }).click();
    await expectText(form, MSG.emailChangeSent(NEW_EMAIL));
    await screenshot(c.page, "mail-email-change-sent");

    const mail = await mailTo(NEW_EMAIL, "Confirm your new email address");
    expect(mail.link).toStartWith(`${publicUrl}/confirm-email?token=`);
    await c.page.goto(mail.link!);
    await c.page.getByRole("button", { name: "Confirm my address" }).click();
    await expectText(c.page, MSG.emailChanged(NEW_EMAIL));
    const notice = await mailTo(carla.email, "Your email address was changed");
    expect(notice.text).toContain(NEW_EMAIL);

    await c.page.goto("/login");
    await c.page.evaluate(() => localStorage.clear());
    await logIn(c.page, NEW_EMAIL, NEW_PASSWORD);
    await expectText(c.page, NEW_EMAIL);
    // The address was proven by its link: no banner asks to confirm it.
    expect(await c.page.getByText("Please confirm your email address").count()).toBe(0);
    expect(c.errors).toEqual([]);
    expect(server.failures()).toEqual([]);
  });
});
