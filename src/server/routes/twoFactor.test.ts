import { describe, expect, test } from "bun:test";
import { desc, eq, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { loginTickets, recoveryCodes } from "../../db/schema";
import { ADMIN } from "../../testing/db";
import { withHarness, type Harness } from "../../testing/harness";
import { useMoneyHarness } from "../../testing/useHarness";

/**
 * Two-factor authentication (TOTP and recovery codes): set-up, login with a ticket, no replay,
 * single use, tickets that expire and are spent, turning it off, and ADMIN_REQUIRE_2FA.
 * The codes are computed here with otpauth, as an authenticator app would.
 */

let h: Harness;
useMoneyHarness((made) => (h = made));

/** The code `secret` makes `steps` time steps (30 s each) from now. */
const codeAt = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate({ timestamp: Date.now() + steps * 30_000 });

const login = (email: string, password: string, headers: Record<string, string> = {}) =>
  h.call("POST", "/api/auth/login", { body: { email, password }, headers });
const second = (ticket: string, code: string, headers: Record<string, string> = {}) =>
  h.call("POST", "/api/auth/login/2fa", { body: { ticket, code }, headers });

/** A member with 2FA on: the secret, and the recovery codes. The code of the step before now was used to turn it on. */
async function memberWith2fa(own: Harness = h) {
  const user = await own.signUp();
  const setup = await own.call("POST", "/api/auth/2fa/setup", { token: user.token, body: { currentPassword: user.password } });
  expect(setup.status).toBe(200);
  const { secret } = setup.body as { secret: string };
  const enabled = await own.call("POST", "/api/auth/2fa/enable", { token: user.token, body: { code: codeAt(secret, -1), currentPassword: user.password } });
  expect(enabled.status).toBe(200);
  // Turning 2FA on ended every session of before; this one goes on with the new token.
  return { ...user, token: enabled.body.token as string, secret, recoveryCodes: enabled.body.recoveryCodes as string[] };
}

async function ticketOf(email: string, password: string, own: Harness = h) {
  const res = await own.call("POST", "/api/auth/login", { body: { email, password } });
  expect(res.status).toBe(200);
  expect(Object.keys(res.body).sort()).toEqual(["ticket", "twoFactorRequired"]);
  expect(res.body.twoFactorRequired).toBe(true);
  return res.body.ticket as string;
}

describe("setting two-factor up", () => {
  test("an account without 2FA logs in exactly as before: the answer is {token} and nothing else", async () => {
    const user = await h.signUp();
    const res = await login(user.email, user.password);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["token"]);
  });

  test("setup answers a secret and its otpauth URL; enable with a code of the app answers ten recovery codes, stored hashed", async () => {
    const user = await h.signUp();
    expect(await h.call("GET", "/api/auth/2fa", { token: user.token })).toMatchObject({ status: 200, body: { enabled: false, required: false, recoveryCodesLeft: 0 } });
    const setup = await h.call("POST", "/api/auth/2fa/setup", { token: user.token, body: { currentPassword: user.password } });
    expect(setup.status).toBe(200);
    const { secret, otpauthUrl } = setup.body;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl).toStartWith("otpauth://totp/");
    expect(otpauthUrl).toContain(`secret=${secret}`);
    expect(decodeURIComponent(otpauthUrl)).toContain(user.email);

    // Not on until a code proves the app has the secret.
    expect(await h.call("POST", "/api/auth/2fa/enable", { token: user.token, body: { code: "123456" === codeAt(secret) ? "654321" : "123456", currentPassword: user.password } })).toMatchObject({
      status: 400,
      body: { code: "two_factor_invalid", msg: "Invalid authentication code." },
    });
    expect((await login(user.email, user.password)).body.token).toBeString();

    const enabled = await h.call("POST", "/api/auth/2fa/enable", { token: user.token, body: { code: codeAt(secret), currentPassword: user.password } });
    expect(enabled.status).toBe(200);
    const token: string = enabled.body.token;
    const codes: string[] = enabled.body.recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
    const stored = await h.db.select({ hash: recoveryCodes.codeHash }).from(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    expect(stored).toHaveLength(10);
    for (const { hash } of stored) for (const code of codes) expect(hash).not.toContain(code.replaceAll("-", ""));
    expect(await h.call("GET", "/api/auth/2fa", { token })).toMatchObject({ body: { enabled: true, recoveryCodesLeft: 10 } });

    // Once on: no second set-up, no second enable.
    expect(await h.call("POST", "/api/auth/2fa/setup", { token, body: { currentPassword: user.password } })).toMatchObject({ status: 409, body: { code: "two_factor_already_enabled" } });
    expect(await h.call("POST", "/api/auth/2fa/enable", { token, body: { code: codeAt(secret, 1), currentPassword: user.password } })).toMatchObject({
      status: 409,
      body: { code: "two_factor_already_enabled" },
    });
  });

  test("enable before setup is refused; setup, enable and disable need a signed-in user; a missing code is a validation error", async () => {
    const user = await h.signUp();
    const currentPassword = user.password;
    expect(await h.call("POST", "/api/auth/2fa/enable", { token: user.token, body: { code: "123456", currentPassword } })).toMatchObject({ status: 409, body: { code: "two_factor_not_set_up" } });
    expect(await h.call("POST", "/api/auth/2fa/disable", { token: user.token, body: { code: "123456", currentPassword } })).toMatchObject({ status: 409, body: { code: "two_factor_not_enabled" } });
    for (const path of ["/api/auth/2fa/setup", "/api/auth/2fa/enable", "/api/auth/2fa/disable"]) {
      expect(await h.call("POST", path, { body: { code: "123456", currentPassword } })).toMatchObject({ status: 401, body: { code: "no_token" } });
    }
    expect((await h.call("GET", "/api/auth/2fa")).status).toBe(401);
    expect(await h.call("POST", "/api/auth/2fa/enable", { token: user.token, body: { currentPassword } })).toMatchObject({ status: 400, body: { msg: "Code is required.", code: "validation" } });
  });

  test("wrong codes typed while signed in are limited: the sixth within 15 minutes is throttled", async () => {
    const user = await h.signUp();
    const currentPassword = user.password;
    const { secret } = (await h.call("POST", "/api/auth/2fa/setup", { token: user.token, body: { currentPassword } })).body;
    const wrong = codeAt(secret, 5);
    for (let i = 0; i < 5; i++) expect((await h.call("POST", "/api/auth/2fa/enable", { token: user.token, body: { code: wrong, currentPassword } })).status).toBe(400);
    const refused = await h.call("POST", "/api/auth/2fa/enable", { token: user.token, body: { code: codeAt(secret), currentPassword } });
    expect(refused).toMatchObject({ status: 429, body: { code: "throttled", msg: "Too many wrong authentication codes. Please try again in 15 minutes." } });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(890);
    // Ten minutes later the wait is what is left until the oldest wrong code leaves the window.
    await h.db.execute(sql`UPDATE throttle_hits SET created_at = created_at - interval '10 minutes' WHERE key = ${user.id}`);
    const later = await h.call("POST", "/api/auth/2fa/enable", { token: user.token, body: { code: codeAt(secret), currentPassword } });
    expect(later).toMatchObject({ status: 429, body: { msg: "Too many wrong authentication codes. Please try again in 5 minutes." } });
    expect(Number(later.headers.get("retry-after"))).toBeLessThanOrEqual(300);
    expect(Number(later.headers.get("retry-after"))).toBeGreaterThan(290);
  });

  test("wrong codes sent at once are limited as well: of 40 in parallel, 5 are checked, to turn 2FA on or off", async () => {
    const wrongOf = (secret: string) => {
      const good = new Set([-1, 0, 1].map((step) => codeAt(secret, step)));
      return Array.from({ length: 40 }, (_, i) => String((123_456 + i * 7919) % 1_000_000).padStart(6, "0")).filter((code) => !good.has(code));
    };
    const checkedOf = (answers: { status: number; body: { code?: string } }[]) => [
      answers.filter((a) => a.status === 400 && a.body.code === "two_factor_invalid").length,
      answers.filter((a) => a.status === 429 && a.body.code === "throttled").length,
    ];
    const turningOn = await h.signUp();
    const { secret } = (await h.call("POST", "/api/auth/2fa/setup", { token: turningOn.token, body: { currentPassword: turningOn.password } })).body as { secret: string };
    const on = await Promise.all(
      wrongOf(secret).map((code) => h.call("POST", "/api/auth/2fa/enable", { token: turningOn.token, body: { code, currentPassword: turningOn.password } })),
    );
    expect(checkedOf(on)).toEqual([5, on.length - 5]);

    const turningOff = await memberWith2fa();
    const off = await Promise.all(
      wrongOf(turningOff.secret).map((code) => h.call("POST", "/api/auth/2fa/disable", { token: turningOff.token, body: { code, currentPassword: turningOff.password } })),
    );
    expect(checkedOf(off)).toEqual([5, off.length - 5]);
    expect((await h.call("GET", "/api/auth/2fa", { token: turningOff.token })).body).toMatchObject({ enabled: true });
  });
});

describe("logging in with two-factor on", () => {
  test("the password answers a ticket and no token; the ticket and a code of the app answer the token", async () => {
    const user = await memberWith2fa();
    const ticket = await ticketOf(user.email, user.password);
    const res = await second(ticket, codeAt(user.secret));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["token"]);
    expect((await h.me(res.body.token)).email).toBe(user.email);
    // Only the second step, the login done, trusts the browser (src/server/deviceTrust.ts).
    expect((await login(user.email, user.password)).headers.get("set-cookie")).toBeNull();
    expect(res.headers.get("set-cookie")).toStartWith("trusted_device=");
    // A wrong password still answers as it always did.
    expect(await login(user.email, "not-the-password")).toMatchObject({ status: 400, body: { code: "invalid_credentials" } });
  });

  test("a code is good once: replayed with the same ticket or another, it is refused; the next step's code works", async () => {
    const user = await memberWith2fa();
    const code = codeAt(user.secret);
    expect((await second(await ticketOf(user.email, user.password), code)).status).toBe(200);
    const ticket = await ticketOf(user.email, user.password);
    expect(await second(ticket, code)).toMatchObject({ status: 400, body: { code: "two_factor_invalid" } });
    // The code of the step before is older still: refused as well.
    expect(await second(ticket, codeAt(user.secret, -1))).toMatchObject({ status: 400, body: { code: "two_factor_invalid" } });
    expect((await second(ticket, codeAt(user.secret, 1))).status).toBe(200);
  });

  test("a recovery code works once, typed in any case and with or without its dashes", async () => {
    const user = await memberWith2fa();
    const [first, other] = user.recoveryCodes;
    expect((await second(await ticketOf(user.email, user.password), ` ${first!.toUpperCase().replaceAll("-", "")} `)).status).toBe(200);
    expect(await second(await ticketOf(user.email, user.password), first!)).toMatchObject({ status: 400, body: { code: "two_factor_invalid" } });
    expect((await second(await ticketOf(user.email, user.password), other!)).status).toBe(200);
    const status = await h.call("GET", "/api/auth/2fa", { token: user.token });
    expect(status.body).toMatchObject({ enabled: true, recoveryCodesLeft: 8 });
  });

  test("a ticket is used once, expires after 5 minutes, and three wrong codes spend it", async () => {
    const user = await memberWith2fa();
    // Used.
    const used = await ticketOf(user.email, user.password);
    expect((await second(used, codeAt(user.secret))).status).toBe(200);
    expect(await second(used, codeAt(user.secret, 1))).toMatchObject({ status: 400, body: { code: "login_ticket_invalid", msg: "This sign-in has expired. Please log in again." } });
    // Expired.
    const expired = await ticketOf(user.email, user.password);
    const [row] = await h.db
      .select({ left: sql<number>`round(extract(epoch from ${loginTickets.expiresAt} - now()))`.mapWith(Number) })
      .from(loginTickets)
      .orderBy(desc(loginTickets.expiresAt))
      .limit(1);
    expect(row!.left).toBe(300);
    await h.db.execute(sql`UPDATE login_tickets SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`);
    expect(await second(expired, codeAt(user.secret, 1))).toMatchObject({ status: 400, body: { code: "login_ticket_invalid" } });
    // Spent by wrong codes.
    const spent = await ticketOf(user.email, user.password);
    const wrong = user.recoveryCodes[0]!.replace(/^./, (c) => (c === "a" ? "b" : "a"));
    for (let i = 0; i < 3; i++) expect(await second(spent, wrong)).toMatchObject({ status: 400, body: { code: "two_factor_invalid" } });
    expect(await second(spent, codeAt(user.secret, 1))).toMatchObject({ status: 400, body: { code: "login_ticket_invalid" } });
    // Unknown.
    expect(await second("no-such-ticket", codeAt(user.secret, 1))).toMatchObject({ status: 400, body: { code: "login_ticket_invalid" } });
  });

  test("wrong codes count as failed logins of the pair and meet its delays, before the code is looked at: tickets taken in advance buy no guesses", async () => {
    await withHarness(
      async (own) => {
        const user = await memberWith2fa(own);
        const from = { "x-forwarded-for": "203.0.113.70" };
        // Three tickets first: a right password is no failure, so they cost no delay.
        const tickets: string[] = [];
        for (let i = 0; i < 3; i++) {
          const res = await own.call("POST", "/api/auth/login", { body: { email: user.email, password: user.password }, headers: from });
          expect(res.status).toBe(200);
          tickets.push(res.body.ticket as string);
        }
        const wrong = "abcd-abcd-abcd-abcd";
        const code = (ticket: string, typed: string, headers = from) => own.call("POST", "/api/auth/login/2fa", { body: { ticket, code: typed }, headers });
        // The pair's five free failures: three spend the first ticket, two more on the second.
        for (let i = 0; i < 3; i++) expect((await code(tickets[0]!, wrong)).status).toBe(400);
        for (let i = 0; i < 2; i++) expect((await code(tickets[1]!, wrong)).status).toBe(400);
        // The sixth waits, on any ticket, the right code too (which is not used up by it).
        expect(await code(tickets[1]!, wrong)).toMatchObject({ status: 429, body: { code: "throttled" } });
        expect(await code(tickets[2]!, codeAt(user.secret))).toMatchObject({ status: 429, body: { code: "throttled" } });
        const slowed = await own.call("POST", "/api/auth/login", { body: { email: user.email, password: user.password }, headers: from });
        expect(slowed).toMatchObject({ status: 429, body: { code: "throttled" } });
        // The owner elsewhere is not held up, with the password and then the code.
        const elsewhere = { "x-forwarded-for": "198.51.100.70" };
        const ticket = await own.call("POST", "/api/auth/login", { body: { email: user.email, password: user.password }, headers: elsewhere });
        expect(ticket.status).toBe(200);
        expect((await code(ticket.body.ticket as string, codeAt(user.secret), elsewhere)).status).toBe(200);
      },
      { config: { trustProxy: 1 } },
    );
  });

  test("a deleted member's ticket is refused", async () => {
    const user = await memberWith2fa();
    const ticket = await ticketOf(user.email, user.password);
    expect((await h.call("DELETE", `/api/admin/users/${user.id}`, { token: h.adminToken })).status).toBe(200);
    expect(await second(ticket, codeAt(user.secret))).toMatchObject({ status: 400, body: { code: "login_ticket_invalid" } });
  });
});

describe("turning two-factor off", () => {
  test("disable needs a good code (of the app or a recovery code); then the password alone answers a token again", async () => {
    const user = await memberWith2fa();
    expect(await h.call("POST", "/api/auth/2fa/disable", { token: user.token, body: { code: "zzzz-zzzz-zzzz-zzzz", currentPassword: user.password } })).toMatchObject({
      status: 400,
      body: { code: "two_factor_invalid" },
    });
    expect(await h.call("POST", "/api/auth/2fa/disable", { token: user.token, body: { code: user.recoveryCodes[3]!, currentPassword: user.password } })).toMatchObject({
      status: 200,
      body: { msg: "Two-factor authentication is now off." },
    });
    expect(Object.keys((await login(user.email, user.password)).body)).toEqual(["token"]);
    expect(await h.call("GET", "/api/auth/2fa", { token: user.token })).toMatchObject({ body: { enabled: false, recoveryCodesLeft: 0 } });
    expect(await h.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id))).toEqual([]);
  });
});

describe("ADMIN_REQUIRE_2FA=1", () => {
  test("an admin without 2FA reaches only who-am-I, logout and the 2FA set-up until it is on; members are not concerned", async () => {
    await withHarness(
      async (own) => {
        // The admin's token (the harness logged in with the password) is good for the set-up only.
        const denied = await own.call("GET", "/api/admin/users?page=1", { token: own.adminToken });
        expect(denied).toMatchObject({ status: 403, body: { code: "two_factor_required", msg: "Admins must use two-factor authentication. Please set it up on the Security page first." } });
        expect((await own.call("GET", "/api/user/partners", { token: own.adminToken })).status).toBe(403);
        expect((await own.call("PATCH", "/api/programs/3p/levels/1", { token: own.adminToken, body: { cost: 5, unfreezeCost: 2.5 } })).status).toBe(403);
        expect((await own.call("GET", "/api/auth", { token: own.adminToken })).body.role).toBe("admin");
        expect((await own.call("GET", "/api/auth/2fa", { token: own.adminToken })).body).toEqual({ enabled: false, required: true, recoveryCodesLeft: 0 });

        // Members are not asked for 2FA.
        const member = await own.signUp();
        expect((await own.call("GET", "/api/user/partners", { token: member.token })).status).toBe(200);
        expect((await own.call("GET", "/api/auth/2fa", { token: member.token })).body.required).toBe(false);

        // Set up with that token; from then on the session (its token renewed by the enable) reaches everything.
        const currentPassword = ADMIN.password;
        const { secret } = (await own.call("POST", "/api/auth/2fa/setup", { token: own.adminToken, body: { currentPassword } })).body;
        const enabled = await own.call("POST", "/api/auth/2fa/enable", { token: own.adminToken, body: { code: codeAt(secret), currentPassword } });
        expect(enabled.status).toBe(200);
        expect((await own.call("GET", "/api/admin/users?page=1", { token: enabled.body.token })).status).toBe(200);

        // And logging in takes the second step.
        const ticket = await ticketOf(ADMIN.email, ADMIN.password, own);
        const res = await own.call("POST", "/api/auth/login/2fa", { body: { ticket, code: codeAt(secret, 1) } });
        expect((await own.call("GET", "/api/admin/deposits", { token: res.body.token })).status).toBe(200);

        // Turned off again, the admin is held at the set-up again.
        expect((await own.call("POST", "/api/auth/2fa/disable", { token: res.body.token, body: { code: enabled.body.recoveryCodes[0], currentPassword } })).status).toBe(200);
        expect((await own.call("GET", "/api/admin/deposits", { token: res.body.token })).status).toBe(403);
      },
      { config: { adminRequire2fa: true } },
    );
  });
});
