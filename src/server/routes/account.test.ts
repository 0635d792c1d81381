import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { accountTokens, mailOutbox, users } from "../../db/schema";
import { rowsOf } from "../../db/client";
import { tokenKey } from "../../core/accountTokens";
import { MSG } from "../../shared/messages";
import { createHarness, type Harness, withHarness } from "../../testing/harness";
import { type SmtpServer, startSmtpServer } from "../../testing/smtp";

/**
 * Account recovery and mail (docs/rules.md#account-recovery-and-mail), through the API, against
 * a real SMTP server on 127.0.0.1 (npm smtp-server; each message parsed with mailparser) that the
 * app's mailer sends to as it would in production: each mail arrives once, with the right link;
 * links are single-use and expire; an unknown email is answered the same and mailed nothing; a
 * reset signs every session out; mail written while the server is down arrives once it is back.
 */

const PUBLIC_URL = "https://matrix.test";
const FROM = '"Matrix Test" <no-reply@matrix.test>';

let smtp: SmtpServer;
let h: Harness;

beforeAll(async () => {
  smtp = await startSmtpServer();
  h = await createHarness({
    config: { mail: { smtpUrl: smtp.url, from: FROM, publicUrl: PUBLIC_URL } },
    // A failed mail is due again at once here, so the tests need not wait out the backoff.
    mailer: { retryAfter: () => 0, pollMs: 60_000 },
  });
});
afterAll(async () => {
  await h.close();
  await smtp.stop();
});
afterEach(async () => {
  expect(h.logged).toEqual([]);
  await h.checkLedger();
});

/** Every mail queued so far has been handed to the SMTP server (or failed this pass). */
const settled = async () => {
  await h.mailer!.runOnce();
};

/** The mails to `address` since the count `from`, once every queued mail went out. */
async function mailsTo(address: string) {
  await settled();
  return smtp.to(address);
}

/** The last mail to `address` with `subject` (the first words of it). */
async function lastMailTo(address: string, subject: string) {
  const mail = (await mailsTo(address)).filter((m) => m.subject.startsWith(subject)).at(-1);
  if (!mail) throw new Error(`no mail "${subject}" to ${address}`);
  return mail;
}
const RESET = "Reset your password";

let n = 0;
/** A member, signed up and signed in, whose address is unique to the test. */
const member = (password = "first-password") => h.signUp({ email: `acct${++n}-${Date.now()}@test.local`, password });

const forgot = (email: string, headers: Record<string, string> = {}) => h.call("POST", "/api/auth/password/forgot", { body: { email }, headers });
const reset = (body: Record<string, unknown>) => h.call("POST", "/api/auth/password/reset", { body });

describe("forgotten passwords", () => {
  test("a known email gets one mail with a reset link to PUBLIC_URL, text and HTML, under 30 KB; an unknown one the same answer and no mail", async () => {
    const user = await member();
    const before = smtp.received.length;
    const known = await forgot(user.email.toUpperCase());
    const unknown = await forgot(`nobody-${n}@test.local`);
    expect(known).toMatchObject({ status: 200, body: { msg: MSG.resetMailSent } });
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    const mails = (await mailsTo(user.email)).filter((m) => m.subject === "Reset your password");
    expect(mails).toHaveLength(1);
    expect(smtp.received.slice(before).filter((m) => m.subject === "Reset your password")).toHaveLength(1);
    const [mail] = mails;
    expect(mail!.from).toBe(FROM);
    expect(mail!.link).toStartWith(`${PUBLIC_URL}/reset-password?token=`);
    expect(mail!.html).toContain(mail!.link!);
    expect(mail!.html).toContain("#0f172a");
    expect(mail!.text).toContain(`Hello ${user.name},`);
    expect(mail!.size).toBeLessThan(30 * 1024);
    // Only the token's hash is kept; the outbox forgot the link once the mail was sent.
    const [row] = await h.db.select().from(accountTokens).where(eq(accountTokens.id, tokenKey(mail!.token!)));
    expect(row).toMatchObject({ userId: user.id, purpose: "reset_password" });
    const text = (rows: unknown[]) => JSON.stringify(rows, (_k, v) => (typeof v === "bigint" ? v.toString() : v));
    expect(text(await h.db.select().from(accountTokens))).not.toContain(mail!.token!);
    expect(text(await h.db.select().from(mailOutbox))).not.toContain(mail!.token!);
  });

  test("a reset sets the password, works once, signs every session out, and mails a notice", async () => {
    const user = await member();
    const other = await h.login(user.email, user.password);
    await forgot(user.email);
    const { token } = await lastMailTo(user.email, RESET);
    expect(await reset({ token, password: "x" })).toMatchObject({ status: 400, body: { code: "validation", msg: "Password must be at least 6 characters." } });
    expect(await reset({ token, password: "second-password" })).toMatchObject({ status: 200, body: { msg: MSG.passwordReset } });
    // Used: refused, with what to do.
    expect(await reset({ token, password: "third-password" })).toMatchObject({ status: 400, body: { code: "token_invalid", msg: MSG.tokenInvalid } });
    for (const session of [user.token, other]) expect((await h.call("GET", "/api/auth", { token: session })).status).toBe(401);
    expect((await h.call("POST", "/api/auth/login", { body: { email: user.email, password: user.password } })).status).toBe(400);
    expect((await h.call("POST", "/api/auth/login", { body: { email: user.email, password: "second-password" } })).status).toBe(200);
    const notice = await lastMailTo(user.email, "Your password was reset");
    expect(notice.text).toContain("every session was signed out");
    // The link reached the address: it counts as confirmed.
    expect((await h.me(await h.login(user.email, "second-password"))).emailVerified).toBe(true);
  });

  test("an expired, unknown or malformed token is refused with token_invalid; a new link spends none of the old ones, a reset spends them all", async () => {
    const user = await member();
    await forgot(user.email);
    await forgot(user.email);
    const [first, second] = (await mailsTo(user.email)).filter((m) => m.subject === "Reset your password").map((m) => m.token!);
    await h.db.update(accountTokens).set({ expiresAt: sql`now() - interval '1 second'` as unknown as Date }).where(eq(accountTokens.id, tokenKey(first!)));
    for (const token of [first, "no-such-token", "", "x".repeat(500)]) {
      expect(await reset({ token, password: "second-password" })).toMatchObject({ status: 400, body: { code: "token_invalid" } });
    }
    await forgot(user.email);
    const third = (await lastMailTo(user.email, RESET)).token!;
    expect((await reset({ token: second, password: "second-password" })).status).toBe(200);
    expect(await reset({ token: third, password: "third-password" })).toMatchObject({ status: 400, body: { code: "token_invalid" } });
  });

  test("with two-factor on, the reset also needs a code from the app or a recovery code", async () => {
    const user = await member();
    const { secret, token: session } = await turnOn2fa(user);
    await forgot(user.email);
    const { token } = await lastMailTo(user.email, RESET);
    expect(await reset({ token, password: "second-password" })).toMatchObject({ status: 400, body: { code: "two_factor_code_required" } });
    expect(await reset({ token, password: "second-password", code: "000000" === codeAt(secret) ? "111111" : "000000" })).toMatchObject({
      status: 400,
      body: { code: "two_factor_invalid" },
    });
    expect((await reset({ token, password: "second-password", code: codeAt(secret, 1) })).status).toBe(200);
    expect((await h.call("GET", "/api/auth", { token: session })).status).toBe(401);
  });

  test("reset mails are limited per email (and per source address behind TRUST_PROXY): then 429 throttled, for unknown emails alike", async () => {
    for (const email of [`limited-${n}@test.local`, (await member()).email]) {
      for (let i = 0; i < 5; i++) expect((await forgot(email)).status).toBe(200);
      const refused = await forgot(email);
      expect(refused).toMatchObject({ status: 429, body: { code: "throttled", msg: "Too many password reset requests. Please try again in 60 minutes." } });
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3500);
    }
    await withHarness(
      async (own) => {
        const from = { "x-forwarded-for": "198.51.100.7" };
        for (let i = 0; i < 20; i++) expect((await own.call("POST", "/api/auth/password/forgot", { body: { email: `s${i}@test.local` }, headers: from })).status).toBe(200);
        expect((await own.call("POST", "/api/auth/password/forgot", { body: { email: "s99@test.local" }, headers: from })).status).toBe(429);
        expect((await own.call("POST", "/api/auth/password/forgot", { body: { email: "s99@test.local" }, headers: { "x-forwarded-for": "198.51.100.8" } })).status).toBe(200);
      },
      { config: { trustProxy: 1 } },
    );
  });
});

/** The code `secret` makes `steps` time steps from now. */
const codeAt = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate({ timestamp: Date.now() + steps * 30_000 });

/** Turns 2FA on for `user` (with the code of the step before now); answers the secret and the session token that goes on. */
async function turnOn2fa(user: { token: string; password: string }) {
  const setup = await h.call("POST", "/api/auth/2fa/setup", { token: user.token, body: { currentPassword: user.password } });
  expect(setup.status).toBe(200);
  const enabled = await h.call("POST", "/api/auth/2fa/enable", { token: user.token, body: { code: codeAt(setup.body.secret, -1), currentPassword: user.password } });
  expect(enabled.status).toBe(200);
  return { secret: setup.body.secret as string, token: enabled.body.token as string };
}

describe("proof of the password for what locks the account", () => {
  test("a stolen session alone cannot turn 2FA on or off: setup, enable and disable need the current password", async () => {
    const user = await member();
    const stolen = user.token;
    expect(await h.call("POST", "/api/auth/2fa/setup", { token: stolen })).toMatchObject({ status: 400, body: { code: "validation", msg: "Please type your current password." } });
    expect(await h.call("POST", "/api/auth/2fa/setup", { token: stolen, body: { currentPassword: "guess" } })).toMatchObject({ status: 400, body: { code: "wrong_password" } });
    const { secret } = (await h.call("POST", "/api/auth/2fa/setup", { token: stolen, body: { currentPassword: user.password } })).body;
    expect(await h.call("POST", "/api/auth/2fa/enable", { token: stolen, body: { code: codeAt(secret) } })).toMatchObject({ status: 400, body: { code: "validation" } });
    expect(await h.call("POST", "/api/auth/2fa/enable", { token: stolen, body: { code: codeAt(secret), currentPassword: "guess" } })).toMatchObject({
      status: 400,
      body: { code: "wrong_password" },
    });
    expect((await h.call("GET", "/api/auth/2fa", { token: stolen })).body.enabled).toBe(false);
  });

  test("turning 2FA on signs the other sessions out, the caller's goes on with a new token, and a mail says so; turning it off is mailed too", async () => {
    const user = await member();
    const other = await h.login(user.email, user.password);
    const { secret, token } = await turnOn2fa(user);
    expect((await h.call("GET", "/api/auth", { token: other })).status).toBe(401);
    expect((await h.call("GET", "/api/auth", { token: user.token })).status).toBe(401);
    expect((await h.call("GET", "/api/auth", { token })).status).toBe(200);
    expect((await lastMailTo(user.email, "Two-factor authentication is on")).text).toContain("every other session was signed out");
    expect(await h.call("POST", "/api/auth/2fa/disable", { token, body: { code: codeAt(secret, 1) } })).toMatchObject({ status: 400, body: { code: "validation" } });
    expect((await h.call("POST", "/api/auth/2fa/disable", { token, body: { code: codeAt(secret, 1), currentPassword: user.password } })).status).toBe(200);
    expect((await lastMailTo(user.email, "Two-factor authentication is off")).to).toEqual([user.email]);
  });

  test("wrong current passwords count as failed logins: the sixth from one address is throttled like a login", async () => {
    const user = await member();
    const change = () => h.call("POST", "/api/auth/password", { token: user.token, body: { currentPassword: "wrong", newPassword: "second-password" } });
    for (let i = 0; i < 5; i++) expect((await change()).body.code).toBe("wrong_password");
    // Failures of an unknown source count per email: the email's own delays begin at 20.
    await h.db.execute(sql`UPDATE login_failures SET created_at = now() - interval '1 minute' WHERE email = ${user.email.toLowerCase()}`);
    for (let i = 0; i < 15; i++) await change();
    expect((await change()).status).toBe(429);
  });

  test("POST /api/auth/password changes the password, signs the other sessions out, keeps the caller's with a new token, and mails a notice", async () => {
    const user = await member();
    const other = await h.login(user.email, user.password);
    expect(await h.call("POST", "/api/auth/password", { token: user.token, body: { currentPassword: user.password, newPassword: "abc" } })).toMatchObject({
      status: 400,
      body: { code: "validation", msg: "New password must be at least 6 characters." },
    });
    const changed = await h.call("POST", "/api/auth/password", { token: user.token, body: { currentPassword: user.password, newPassword: "second-password" } });
    expect(changed).toMatchObject({ status: 200, body: { msg: MSG.passwordChanged } });
    expect((await h.call("GET", "/api/auth", { token: other })).status).toBe(401);
    expect((await h.call("GET", "/api/auth", { token: changed.body.token })).status).toBe(200);
    expect((await h.call("POST", "/api/auth/login", { body: { email: user.email, password: "second-password" } })).status).toBe(200);
    expect((await lastMailTo(user.email, "Your password was changed")).text).toContain("Every other session was signed out.");
  });
});

describe("names that pretend to be staff", () => {
  test("refused at sign-up and at every name change, with the sentence saying why; ordinary names go through", async () => {
    const user = await member();
    for (const name of ["Admin!", "System1", "Admin2", "Admin™", "S\u04AFstem", "\u039BDMIN", "\u13AAdmin", "Ad Min"]) {
      expect([name, await h.call("PUT", "/api/user/profile", { token: user.token, body: { name } })]).toMatchObject([name, { status: 400, body: { code: "validation", msg: MSG.reservedName } }]);
      const signUp = await h.call("POST", "/api/auth/register", { body: { name, email: `staff${++n}@test.local`, password: "secret-password", referralId: h.adminReferralId } });
      expect([name, signUp]).toMatchObject([name, { status: 400, body: { msg: MSG.reservedName } }]);
    }
    expect(await h.call("PUT", "/api/user/profile", { token: user.token, body: { name: "  Ada\u200b  Lovelace " } })).toMatchObject({ status: 200, body: { name: "Ada Lovelace" } });
    expect((await h.me(user.token)).name).toBe("Ada Lovelace");
    expect(await h.call("PUT", "/api/user/profile", { token: user.token, body: { name: " " } })).toMatchObject({ status: 400, body: { msg: "Name is required." } });
  });
});

describe("changing the email", () => {
  test("the new address gets a link; opening it makes the change, the old address gets a notice, and the new one signs in", async () => {
    const user = await member();
    const newEmail = `moved${++n}@test.local`;
    expect(await h.call("POST", "/api/user/email", { token: user.token, body: { newEmail, password: "wrong" } })).toMatchObject({ status: 400, body: { code: "wrong_password" } });
    expect(await h.call("POST", "/api/user/email", { token: user.token, body: { newEmail: user.email.toUpperCase(), password: user.password } })).toMatchObject({
      status: 400,
      body: { code: "validation", msg: MSG.sameEmail },
    });
    expect(await h.call("POST", "/api/user/email", { token: user.token, body: { newEmail: "admin@test.local", password: user.password } })).toMatchObject({ status: 409, body: { code: "email_taken" } });
    expect(await h.call("POST", "/api/user/email", { token: user.token, body: { newEmail, password: user.password } })).toMatchObject({ status: 200, body: { msg: MSG.emailChangeSent(newEmail) } });
    // Nothing changes until the link is opened.
    expect((await h.me(user.token)).email).toBe(user.email);
    const mail = await lastMailTo(newEmail, "Confirm your new email address");
    expect(mail.link).toStartWith(`${PUBLIC_URL}/confirm-email?token=`);
    const confirmed = await h.call("POST", "/api/auth/email/confirm", { body: { token: mail.token } });
    expect(confirmed).toMatchObject({ status: 200, body: { email: newEmail, msg: MSG.emailChanged(newEmail) } });
    expect(await h.call("POST", "/api/auth/email/confirm", { body: { token: mail.token } })).toMatchObject({ status: 400, body: { code: "token_invalid" } });
    expect(await h.me(user.token)).toMatchObject({ email: newEmail, emailVerified: true });
    const notice = await lastMailTo(user.email, "Your email address was changed");
    expect(notice.text).toContain(newEmail);
    expect((await h.call("POST", "/api/auth/login", { body: { email: newEmail, password: user.password } })).status).toBe(200);
    expect((await h.call("POST", "/api/auth/login", { body: { email: user.email, password: user.password } })).status).toBe(400);
  });

  test("an address another account took meanwhile is refused at confirm too; links mailed to the old address stop working", async () => {
    const user = await member();
    const wanted = `wanted${++n}@test.local`;
    await forgot(user.email);
    const resetLink = (await lastMailTo(user.email, RESET)).token;
    expect((await h.call("POST", "/api/user/email", { token: user.token, body: { newEmail: wanted, password: user.password } })).status).toBe(200);
    const link = (await lastMailTo(wanted, "Confirm your new email address")).token;
    await h.signUp({ email: wanted.toUpperCase() });
    expect(await h.call("POST", "/api/auth/email/confirm", { body: { token: link } })).toMatchObject({ status: 409, body: { code: "email_taken" } });
    expect((await h.me(user.token)).email).toBe(user.email);

    const other = `other${++n}@test.local`;
    await h.call("POST", "/api/user/email", { token: user.token, body: { newEmail: other, password: user.password } });
    expect((await h.call("POST", "/api/auth/email/confirm", { body: { token: (await lastMailTo(other, "Confirm your new email address")).token } })).status).toBe(200);
    expect(await reset({ token: resetLink, password: "second-password" })).toMatchObject({ status: 400, body: { code: "token_invalid" } });
  });
});

describe("verified addresses", () => {
  test("sign-up mails a confirmation link; emailVerified says false, then true; send again is limited and needs a session", async () => {
    const user = await member();
    const mail = (await mailsTo(user.email)).find((m) => m.subject.startsWith("Confirm your email address"))!;
    expect(mail.link).toStartWith(`${PUBLIC_URL}/confirm-email?token=`);
    expect((await h.me(user.token)).emailVerified).toBe(false);
    expect((await h.call("POST", "/api/auth/email/verify/resend")).status).toBe(401);
    for (let i = 0; i < 3; i++) expect(await h.call("POST", "/api/auth/email/verify/resend", { token: user.token })).toMatchObject({ status: 200, body: { msg: MSG.verificationSent } });
    expect((await h.call("POST", "/api/auth/email/verify/resend", { token: user.token })).status).toBe(429);
    const links = (await mailsTo(user.email)).filter((m) => m.subject.startsWith("Confirm your email address"));
    expect(links).toHaveLength(4);
    expect(await h.call("POST", "/api/auth/email/confirm", { body: { token: links[2]!.token } })).toMatchObject({ status: 200, body: { msg: MSG.emailConfirmed } });
    expect((await h.me(user.token)).emailVerified).toBe(true);
    // One link confirms; the others are spent with it.
    expect((await h.call("POST", "/api/auth/email/confirm", { body: { token: links[0]!.token } })).status).toBe(400);
    expect(await h.call("POST", "/api/auth/email/verify/resend", { token: user.token })).toMatchObject({ status: 200, body: { msg: MSG.alreadyVerified } });
  });

  test("VERIFIED_EMAIL_TO_WITHDRAW=1 refuses withdrawals of unverified members (403 email_not_verified); off by default", async () => {
    await withHarness(
      async (own) => {
        const user = await own.signUp();
        await own.fund(user.token, 50);
        const body = { accountType: "USDT TRC20", accountNumber: "TA4Wt1DUCqz6YegbnsmqsWC5uUfbdBqPxm", amount: 10 };
        expect(await own.call("POST", "/api/user/withdraw", { token: user.token, body })).toMatchObject({ status: 403, body: { code: "email_not_verified", msg: MSG.emailNotVerified } });
        expect(await own.account(user.id)).toEqual({ balance: 5000n, held: 0n });
        await own.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, user.id));
        expect((await own.call("POST", "/api/user/withdraw", { token: user.token, body })).status).toBe(201);
      },
      { config: { verifiedEmailToWithdraw: true } },
    );
    const user = await member();
    await h.fund(user.token, 20);
    expect((await h.call("POST", "/api/user/withdraw", { token: user.token, body: { accountType: "USDT TRC20", accountNumber: "TA4Wt1DUCqz6YegbnsmqsWC5uUfbdBqPxm", amount: 10 } })).status).toBe(201);
  });
});

describe("security mail", () => {
  test("a sign-in from a browser not seen before is mailed; the browser's next sign-in is not", async () => {
    const user = await member();
    const count = async () => (await mailsTo(user.email)).filter((m) => m.subject.startsWith("New sign-in")).length;
    const before = await count();
    const first = await h.call("POST", "/api/auth/login", { body: { email: user.email, password: user.password }, headers: { "user-agent": "Firefox <b>test</b>" } });
    expect(await count()).toBe(before + 1);
    const mail = (await mailsTo(user.email)).filter((m) => m.subject.startsWith("New sign-in")).at(-1)!;
    expect(mail.text).toContain("Browser: Firefox <b>test</b>.");
    expect(mail.html).toContain("Firefox &lt;b&gt;test&lt;/b&gt;");
    const cookie = (first.headers.get("set-cookie") ?? "").split(";")[0]!;
    await h.call("POST", "/api/auth/login", { body: { email: user.email, password: user.password }, headers: { cookie } });
    expect(await count()).toBe(before + 1);
  });

  test("a withdrawal requested and decided is mailed; other notifications are mailed when the member asks", async () => {
    const user = await member();
    await h.fund(user.token, 30);
    const id = await h.withdraw(user.token, 20);
    expect((await lastMailTo(user.email, "Withdrawal requested")).subject).toBe("Withdrawal requested: 20 USDT");
    expect((await h.decide("withdrawals", id, "accepted")).status).toBe(200);
    const decided = await lastMailTo(user.email, "Your withdrawal was accepted");
    expect(decided.text).toContain("18.40 USDT is on its way");

    const sender = await member();
    await h.fund(sender.token, 5);
    const settings = await h.call("PUT", "/api/user/notifications/settings", { token: user.token, body: { muted: [], mailed: ["gift_received"] } });
    expect(settings.body.kinds.find((k: { kind: string }) => k.kind === "gift_received")).toMatchObject({ mailed: true, mailable: true });
    expect(settings.body.kinds.find((k: { kind: string }) => k.kind === "withdrawal_decided")).toMatchObject({ mailed: true, mailable: false });
    expect((await h.call("POST", "/api/user/gift", { token: sender.token, body: { amount: 1, recipientEmail: user.email } })).status).toBe(200);
    const gift = await lastMailTo(user.email, "Matrix USDT: You received a gift");
    expect(gift.text).toContain(`${sender.name} sent you a gift of 1 USDT.`);
    // Not asked for: not mailed (the partner's sign-up notifies the admin, mailed nothing).
    const mailsToAdmin = (await mailsTo("admin@test.local")).length;
    await member();
    expect((await mailsTo("admin@test.local")).length).toBe(mailsToAdmin);
  });
});

describe("the outbox", () => {
  test("mail written while the SMTP server is down arrives, once, after it comes back; no request waits for it", async () => {
    const user = await member();
    await settled();
    await smtp.stop();
    const started = performance.now();
    expect((await forgot(user.email)).status).toBe(200);
    expect(performance.now() - started).toBeLessThan(2_000);
    const down = await h.mailer!.runOnce();
    expect(down).toMatchObject({ sent: 0 });
    expect(down.failed).toBeGreaterThan(0);
    expect(h.takeLogged()).toHaveLength(1);
    const [row] = rowsOf<{ attempts: number; last_error: string }>(
      await h.db.execute(sql`SELECT attempts, last_error FROM mail_outbox WHERE sent_at IS NULL ORDER BY id DESC LIMIT 1`),
    );
    expect(row!.attempts).toBe(1);
    expect(row!.last_error).toBeString();
    await smtp.start();
    const resets = async () => (await mailsTo(user.email)).filter((m) => m.subject === "Reset your password");
    expect(await resets()).toHaveLength(1);
    await settled();
    expect(await resets()).toHaveLength(1);
  });

  test("a server that refuses (451) delays the mail and loses nothing", async () => {
    const user = await member();
    await settled();
    smtp.refuseAll(true);
    await forgot(user.email);
    expect((await h.mailer!.runOnce()).failed).toBe(1);
    smtp.refuseAll(false);
    expect((await mailsTo(user.email)).filter((m) => m.subject === "Reset your password")).toHaveLength(1);
  });

  test("mailers racing for the same rows (several processes on one Postgres) send each mail once", async () => {
    await settled();
    const before = smtp.received.length;
    const emails = Array.from({ length: 24 }, (_, i) => `race${i}-${++n}@test.local`);
    await h.db.execute(sql`
      INSERT INTO mail_outbox (cause_key, user_id, to_address, template, data)
      SELECT 'race:' || e, ${(await member()).id}, e, 'password_changed', '{"name":"Racer"}'::jsonb FROM unnest(string_to_array(${emails.join(",")}, ',')) e`);
    const { startMailer } = await import("../mailer");
    const mailers = Array.from({ length: 4 }, () => startMailer(h.deps, { poll: false, batch: 3 }));
    await Promise.all(mailers.map((m) => m.runOnce()));
    await Promise.all(mailers.map((m) => m.stop()));
    // The app's own mailer, kicked by the sign-up above, may have taken some too.
    await settled();
    expect(rowsOf(await h.db.execute(sql`SELECT 1 FROM mail_outbox WHERE cause_key LIKE 'race:%' AND sent_at IS NULL`))).toEqual([]);
    const arrived = smtp.received.slice(before).filter((m) => m.subject === "Your password was changed").flatMap((m) => m.to);
    expect(arrived.sort()).toEqual([...emails].sort());
  });

  test("without SMTP_URL each mail's subject and link are printed to the log", async () => {
    const { logTransport } = await import("../mailer");
    const lines: string[] = [];
    await withHarness(async (own) => {
      const { startMailer } = await import("../mailer");
      const mailer = startMailer(own.deps, { poll: false, transport: logTransport((line) => lines.push(line)) });
      const user = await own.signUp({ email: "logged@test.local" });
      await own.call("POST", "/api/auth/password/forgot", { body: { email: user.email } });
      await mailer.runOnce();
      await mailer.stop();
    });
    expect(lines.find((l) => l.includes("Reset your password"))).toMatch(/^Mail to logged@test\.local: Reset your password http:\/\/localhost:3000\/reset-password\?token=[\w-]{43} /);
    expect(lines.find((l) => l.includes("Confirm your email address"))).toContain("/confirm-email?token=");
  });
});
