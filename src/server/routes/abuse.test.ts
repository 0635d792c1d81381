import { describe, expect, test } from "bun:test";
import { count, eq, sql } from "drizzle-orm";
import { loginFailures } from "../../db/schema";
import { argon2Hasher, boundedHasher, emailDelaySeconds, pairDelaySeconds, type PasswordHasher, resetAdminPassword, sourceDelaySeconds } from "../../core/sessions";
import { LOGIN_EMAIL_MAX_DELAY_SECONDS, LOGIN_SOURCE_FREE_FAILURES, LOGIN_WINDOW_MINUTES } from "../../shared/constants";
import { ADMIN, testHasher } from "../../testing/db";
import { withHarness, type Harness } from "../../testing/harness";
import { useMoneyHarness } from "../../testing/useHarness";
import { loadConfig } from "../config";

/**
 * Abuse resistance of signing in and up: login failures slow down the pair (email, source
 * address) that made them, and all of an email's failures slow every attempt at it by a few
 * minutes at most; sign-ups are limited per source address; password hashing is bounded.
 *
 * These tests run behind a trusted proxy (TRUST_PROXY=1), so that each request can say where it
 * comes from in X-Forwarded-For.
 */

let h: Harness;
useMoneyHarness((made) => (h = made), { config: { trustProxy: 1 } });

const login = (email: string, password: string, from: string) =>
  h.call("POST", "/api/auth/login", { body: { email, password }, headers: { "x-forwarded-for": from } });

/** As if `seconds` went by for the failures of `email`: every one of them moves that far into the past. */
const elapse = (email: string, seconds: number) =>
  h.db.execute(sql`UPDATE login_failures SET created_at = created_at - make_interval(secs => ${seconds}) WHERE email = ${email.toLowerCase()}`);

const retryAfter = (res: { headers: Headers }) => Number(res.headers.get("retry-after"));

describe("login: failures slow down the pair (email, source), not the email for everyone", () => {
  test("ten wrong passwords from one source do not stop the right password from another source", async () => {
    const user = await h.signUp();
    const attacker = "203.0.113.1";
    for (let failures = 0; failures < 10; failures++) {
      // The attacker waits out each delay, so all ten passwords are really checked.
      await elapse(user.email, pairDelaySeconds(failures));
      expect(await login(user.email, `guess-${failures}`, attacker)).toMatchObject({ status: 400, body: { code: "invalid_credentials" } });
    }
    // The owner, from their own address, gets in at once.
    expect((await login(user.email, user.password, "198.51.100.7")).status).toBe(200);
    // The attacker's address now waits 32 s, even with the right password.
    const slowed = await login(user.email, user.password, attacker);
    expect(slowed).toMatchObject({ status: 429, body: { code: "throttled", msg: "Too many failed login attempts. Please try again in 1 minute." } });
    expect(retryAfter(slowed)).toBeGreaterThan(25);
    expect(retryAfter(slowed)).toBeLessThanOrEqual(32);
  });

  test("the pair's delays grow: free at first, then 1 s, 2 s, 4 s, 8 s after the last failure", async () => {
    const user = await h.signUp();
    const from = "203.0.113.2";
    for (let i = 0; i < 5; i++) expect((await login(user.email, `guess-${i}`, from)).status).toBe(400);
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      const refused = await login(user.email, "guess", from);
      expect(refused).toMatchObject({ status: 429, body: { code: "throttled" } });
      waits.push(retryAfter(refused));
      await elapse(user.email, retryAfter(refused));
      expect((await login(user.email, `guess-again-${i}`, from)).status).toBe(400);
    }
    expect(waits).toEqual([1, 2, 4, 8]);
    // The doubling stops at the window: a source is never made to wait longer than that.
    expect([0, 4, 5, 6, 10, 14, 15, 100].map(pairDelaySeconds)).toEqual([0, 0, 1, 2, 32, 512, LOGIN_WINDOW_MINUTES * 60, LOGIN_WINDOW_MINUTES * 60]);
  });

  test("the per-email cap delays distributed guessing, never by more than a few minutes", async () => {
    const user = await h.signUp();
    // Twenty addresses, one guess each: every one is checked.
    for (let i = 0; i < 20; i++) expect((await login(user.email, `guess-${i}`, `198.18.0.${i}`)).status).toBe(400);
    // From then on every attempt at the email waits, whatever its address: 1 s, doubling.
    const next = await login(user.email, "guess", "198.18.1.1");
    expect(next).toMatchObject({ status: 429, body: { code: "throttled" } });
    expect(retryAfter(next)).toBe(1);

    // A botnet keeps going for the rest of the window: 500 more failures from 500 addresses.
    await h.db.execute(sql`INSERT INTO login_failures (email, source) SELECT ${user.email}, '10.9.' || (n / 256) || '.' || (n % 256) FROM generate_series(1, 500) AS n`);
    const owner = await login(user.email, user.password, "192.0.2.10");
    expect(owner.status).toBe(429);
    expect(retryAfter(owner)).toBeLessThanOrEqual(LOGIN_EMAIL_MAX_DELAY_SECONDS);
    expect(owner.body.msg).toBe("Too many failed login attempts. Please try again in 5 minutes.");
    // After those few minutes the owner is in, from anywhere, though the failures are still counted.
    await elapse(user.email, LOGIN_EMAIL_MAX_DELAY_SECONDS);
    expect((await login(user.email, user.password, "192.0.2.10")).status).toBe(200);
    expect(LOGIN_EMAIL_MAX_DELAY_SECONDS).toBeLessThanOrEqual(5 * 60);
    expect([19, 20, 25, 28, 29, 10_000].map(emailDelaySeconds)).toEqual([0, 1, 32, 256, 300, 300]);
  });

  test("a browser that signed in to the account before gets in while failures from everywhere keep the email's delay going; nothing else does", async () => {
    const user = await h.signUp();
    const other = await h.signUp();
    const first = await login(user.email, user.password, "192.0.2.10");
    expect(first.status).toBe(200);
    const setCookie = first.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^trusted_device=[^;]+; Max-Age=7776000; Path=\/api\/auth; HttpOnly; SameSite=Strict$/);
    const cookie = setCookie.split(";")[0]!;
    const from = (address: string, cookieHeader?: string) => ({ "x-forwarded-for": address, ...(cookieHeader ? { cookie: cookieHeader } : {}) });
    const attempt = (who: { email: string; password: string }, headers: Record<string, string>) =>
      h.call("POST", "/api/auth/login", { body: { email: who.email, password: who.password }, headers });

    // Somebody keeps failing at both emails from ever new addresses, the last failure just now.
    for (const target of [user, other]) {
      await h.db.execute(sql`INSERT INTO login_failures (email, source) SELECT ${target.email}, '10.8.' || (n / 256) || '.' || (n % 256) FROM generate_series(1, 500) AS n`);
    }
    // A browser without the cookie waits, right password or not.
    expect(await attempt(user, from("192.0.2.11"))).toMatchObject({ status: 429, body: { code: "throttled" } });
    // The browser that signed in before gets in, from any address.
    expect((await attempt(user, from("192.0.2.99", cookie))).status).toBe(200);
    // The cookie names its account: at another it is no help.
    expect((await attempt(other, from("192.0.2.99", cookie))).status).toBe(429);
    // Nor is one made up: the other account's id with this cookie's signature, or no signature.
    const [value, signature] = [cookie.slice(cookie.indexOf("=") + 1, cookie.lastIndexOf(".")), cookie.slice(cookie.lastIndexOf(".") + 1)];
    const forged = encodeURIComponent(`${other.id}:${decodeURIComponent(value).split(":")[1]}`);
    expect((await attempt(other, from("192.0.2.99", `trusted_device=${forged}.${signature}`))).status).toBe(429);
    expect((await attempt(other, from("192.0.2.99", `trusted_device=${forged}`))).status).toBe(429);
    // Its own pair's delays still apply: five wrong passwords from the trusted browser, then it waits too.
    for (let i = 0; i < 5; i++) expect((await attempt({ email: user.email, password: `guess-${i}` }, from("192.0.2.99", cookie))).status).toBe(400);
    expect(await attempt(user, from("192.0.2.99", cookie))).toMatchObject({ status: 429, body: { code: "throttled" } });
  });

  test("an admin password reset un-trusts every browser of before; one that signs in after it is trusted anew", async () => {
    await withHarness(
      async (own) => {
        const attempt = (password: string, address: string, cookie?: string) =>
          own.call("POST", "/api/auth/login", { body: { email: ADMIN.email, password }, headers: { "x-forwarded-for": address, ...(cookie ? { cookie } : {}) } });
        const cookieOf = (res: { headers: Headers }) => (res.headers.get("set-cookie") ?? "").split(";")[0]!;
        const before = await attempt(ADMIN.password, "192.0.2.20");
        expect(before.status).toBe(200);
        await resetAdminPassword(own.db, testHasher, { password: "brand-new-admin-password" });
        const after = await attempt("brand-new-admin-password", "192.0.2.21");
        expect(after.status).toBe(200);
        // Failures from everywhere keep the email's delay going.
        await own.db.execute(sql`INSERT INTO login_failures (email, source) SELECT ${ADMIN.email}, '10.9.' || (n / 256) || '.' || (n % 256) FROM generate_series(1, 500) AS n`);
        expect(await attempt("brand-new-admin-password", "192.0.2.99", cookieOf(before))).toMatchObject({ status: 429, body: { code: "throttled" } });
        expect((await attempt("brand-new-admin-password", "192.0.2.99", cookieOf(after))).status).toBe(200);
      },
      { config: { trustProxy: 1 } },
    );
  });

  test("parallel guesses from one source count each other: 30 at once check 5 passwords", async () => {
    const user = await h.signUp();
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => login(user.email, `guess-${i}`, "203.0.113.3")));
    const counts = { checked: 0, throttled: 0, other: 0 };
    for (const a of answers) {
      if (a.status === 400 && a.body.code === "invalid_credentials") counts.checked++;
      else if (a.status === 429 && a.body.code === "throttled") counts.throttled++;
      else counts.other++;
    }
    expect(counts).toEqual({ checked: 5, throttled: 25, other: 0 });
    // Another source is not affected.
    expect((await login(user.email, user.password, "203.0.113.4")).status).toBe(200);
  });

  test("failures older than the window are forgotten", async () => {
    const user = await h.signUp();
    const failures = (from: string, minutesAgo: number) =>
      h.db.execute(sql`INSERT INTO login_failures (email, source, created_at) SELECT ${user.email}, ${from}, now() - make_interval(mins => ${minutesAgo}) FROM generate_series(1, 14)`);
    // Fourteen failures 5 minutes ago: the pair waits 512 s after them, 212 s more.
    await failures("203.0.113.5", 5);
    const waiting = await login(user.email, user.password, "203.0.113.5");
    expect(waiting.status).toBe(429);
    expect(retryAfter(waiting)).toBeGreaterThan(200);
    expect(retryAfter(waiting)).toBeLessThanOrEqual(212);
    // The same fourteen 16 minutes ago are forgotten: the password is checked at once.
    await failures("203.0.113.6", 16);
    expect((await login(user.email, "guess", "203.0.113.6")).status).toBe(400);
    expect((await login(user.email, user.password, "203.0.113.6")).status).toBe(200);
  });

  test("one password sprayed at many accounts from one address: free for LOGIN_SOURCE_FREE_FAILURES failures, then that address waits; other addresses and the owners' trusted browsers go on", async () => {
    await withHarness(
      async (own) => {
        const owner = await own.signUp();
        const trustedCookie = (await own.call("POST", "/api/auth/login", { body: { email: owner.email, password: owner.password }, headers: { "x-forwarded-for": "198.51.100.60" } })).headers
          .get("set-cookie")!
          .split(";")[0]!;
        const spray = (i: number) => own.call("POST", "/api/auth/login", { body: { email: `victim-${i}@test.local`, password: "Summer2026!" }, headers: { "x-forwarded-for": "203.0.113.60" } });
        for (let i = 0; i < LOGIN_SOURCE_FREE_FAILURES; i++) expect((await spray(i)).status).toBe(400);
        const slowed = await spray(LOGIN_SOURCE_FREE_FAILURES);
        expect(slowed).toMatchObject({ status: 429, body: { code: "throttled" } });
        expect(retryAfter(slowed)).toBe(1);
        // The address waits for every email, the owner's too...
        expect((await own.call("POST", "/api/auth/login", { body: { email: owner.email, password: owner.password }, headers: { "x-forwarded-for": "203.0.113.60" } })).status).toBe(429);
        // ...but not from the owner's browser that signed in before, behind that same address.
        const fromTrusted = await own.call("POST", "/api/auth/login", {
          body: { email: owner.email, password: owner.password },
          headers: { "x-forwarded-for": "203.0.113.60", cookie: trustedCookie },
        });
        expect(fromTrusted.status).toBe(200);
        expect((await own.call("POST", "/api/auth/login", { body: { email: owner.email, password: owner.password }, headers: { "x-forwarded-for": "198.51.100.61" } })).status).toBe(200);
        // The delays grow: after the wait, the next failure makes the address wait 2 s.
        await own.db.execute(sql`UPDATE login_failures SET created_at = created_at - interval '2 seconds' WHERE source = '203.0.113.60'`);
        expect((await spray(100)).status).toBe(400);
        expect(retryAfter(await spray(101))).toBe(2);
        expect([29, 30, 31, 34, 38, 100].map(sourceDelaySeconds)).toEqual([0, 1, 2, 16, 256, LOGIN_EMAIL_MAX_DELAY_SECONDS]);
      },
      { config: { trustProxy: 1 } },
    );
  });

  test("X-Forwarded-For is ignored without TRUST_PROXY: the guesses all count against the one source", async () => {
    await withHarness(async (own) => {
      const user = await own.signUp();
      const guess = (i: number) => own.call("POST", "/api/auth/login", { body: { email: user.email, password: `guess-${i}` }, headers: { "x-forwarded-for": `198.18.9.${i}` } });
      for (let i = 0; i < 5; i++) expect((await guess(i)).status).toBe(400);
      expect((await guess(5)).status).toBe(429);
      const sources = await own.db.selectDistinct({ source: loginFailures.source }).from(loginFailures).where(eq(loginFailures.email, user.email));
      expect(sources).toEqual([{ source: "unknown" }]);
    });
  });

  test("behind TRUST_PROXY proxies, the source is the hop the outermost one added: what the caller wrote before it counts for nothing", async () => {
    const sourcesOf = async (proxies: number, headers: string[]) =>
      withHarness(
        async (own) => {
          const user = await own.signUp();
          for (const header of headers) {
            const res = await own.call("POST", "/api/auth/login", { body: { email: user.email, password: "guess" }, headers: { "x-forwarded-for": header } });
            expect(res.status).toBe(400);
          }
          const rows = await own.db.select({ source: loginFailures.source }).from(loginFailures).where(eq(loginFailures.email, user.email));
          return rows.map((r) => r.source);
        },
        { config: { trustProxy: proxies } },
      );
    // One proxy appending the address it was reached from (nginx's $proxy_add_x_forwarded_for):
    // the caller's made-up first hops change nothing.
    expect(await sourcesOf(1, ["10.0.0.1, 203.0.113.7", "10.0.0.2, 203.0.113.7", "203.0.113.7", "2001:db8::1, 203.0.113.7"])).toEqual(Array(4).fill("203.0.113.7"));
    // A CDN, then nginx: the second hop from the end. A request that reached nginx directly has one hop, nginx's.
    expect(await sourcesOf(2, ["1.1.1.1, 203.0.113.8, 198.51.100.1", "203.0.113.8, 198.51.100.2", "203.0.113.9"])).toEqual(["203.0.113.8", "203.0.113.8", "203.0.113.9"]);
    // A hop that is no address: the socket's (here none: "unknown").
    expect(await sourcesOf(1, ["203.0.113.7, not-an-address"])).toEqual(["unknown"]);
    expect(loadConfig({ TRUST_PROXY: "1" }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: "true" }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: "2" }).trustProxy).toBe(2);
    expect(loadConfig({}).trustProxy).toBe(0);
    expect(() => loadConfig({ TRUST_PROXY: "yes please" })).toThrow("TRUST_PROXY");
  });

  test("the trusted_device cookie is Secure over HTTPS, also behind TRUST_PROXY proxies that end TLS (X-Forwarded-Proto); never from a caller's own header", async () => {
    const cookieOf = async (proxies: number, url: string, headers: Record<string, string>) =>
      withHarness(
        async (own) => {
          const user = await own.signUp();
          const res = await own.app.request(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ email: user.email, password: user.password }) });
          expect(res.status).toBe(200);
          return /; Secure/.test(res.headers.get("set-cookie") ?? "");
        },
        { config: { trustProxy: proxies } },
      );
    expect(await cookieOf(0, "https://example.com/api/auth/login", {})).toBe(true);
    expect(await cookieOf(0, "http://example.com/api/auth/login", {})).toBe(false);
    expect(await cookieOf(1, "http://example.com/api/auth/login", { "x-forwarded-proto": "https" })).toBe(true);
    expect(await cookieOf(0, "http://example.com/api/auth/login", { "x-forwarded-proto": "https" })).toBe(false);
  });

  test("served by Bun.serve, the source is the socket's address", async () => {
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: h.app.fetch });
    try {
      const user = await h.signUp();
      const res = await fetch(`http://127.0.0.1:${server.port}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: user.email, password: "wrong" }),
      });
      expect(res.status).toBe(400);
      const sources = await h.db.select({ source: loginFailures.source }).from(loginFailures).where(eq(loginFailures.email, user.email));
      expect(sources).toEqual([{ source: "127.0.0.1" }]);
    } finally {
      await server.stop(true);
    }
  });
});

describe("sign-ups are limited per source address", () => {
  const signUp = (own: Harness, from: string, overrides: Record<string, string> = {}) =>
    own.call("POST", "/api/auth/register", {
      body: { name: "Limit", email: `limit-${crypto.randomUUID().slice(0, 8)}@test.local`, password: "secret-password", referralId: own.adminReferralId, ...overrides },
      headers: { "x-forwarded-for": from },
    });

  test("SIGNUP_LIMIT sign-ups an hour from one address, then 429 with Retry-After; other addresses go on; refused sign-ups do not count", async () => {
    await withHarness(
      async (own) => {
        // Refused sign-ups (an unknown referral ID) made nothing, so they use up nothing.
        for (let i = 0; i < 5; i++) expect((await signUp(own, "203.0.113.20", { referralId: "NOSUCHREF" })).status).toBe(400);
        for (let i = 0; i < 3; i++) expect((await signUp(own, "203.0.113.20")).status).toBe(201);
        const refused = await signUp(own, "203.0.113.20");
        expect(refused).toMatchObject({ status: 429, body: { code: "throttled", msg: "Too many sign-ups from your address. Please try again in 60 minutes." } });
        expect(retryAfter(refused)).toBeGreaterThan(3500);
        expect(retryAfter(refused)).toBeLessThanOrEqual(3600);
        expect((await signUp(own, "203.0.113.21")).status).toBe(201);
        // An hour later the address may sign up again.
        await own.db.execute(sql`UPDATE throttle_hits SET created_at = created_at - interval '61 minutes' WHERE bucket = 'signup'`);
        expect((await signUp(own, "203.0.113.20")).status).toBe(201);
      },
      { config: { trustProxy: 1, signupLimit: 3 } },
    );
  });

  test("SIGNUP_LIMIT=0 turns the limit off (load tests, test suites); the default is 20", async () => {
    expect(loadConfig({}).signupLimit).toBe(20);
    expect(loadConfig({ SIGNUP_LIMIT: "0" }).signupLimit).toBe(0);
    expect(loadConfig({ SIGNUP_LIMIT: "5" }).signupLimit).toBe(5);
    expect(() => loadConfig({ SIGNUP_LIMIT: "lots" })).toThrow("SIGNUP_LIMIT");
    for (let i = 0; i < 25; i++) expect((await signUp(h, "203.0.113.30")).status).toBe(201);
  });

  test("with the default limit, the 21st sign-up of an hour from one address is refused", async () => {
    await withHarness(
      async (own) => {
        for (let i = 0; i < 20; i++) expect((await signUp(own, "203.0.113.40")).status).toBe(201);
        expect((await signUp(own, "203.0.113.40")).status).toBe(429);
      },
      { config: { trustProxy: 1, signupLimit: loadConfig({}).signupLimit } },
    );
  });
});

describe("password hashing runs with bounded concurrency", () => {
  /** testHasher, held at a gate while `hold` is true. */
  function gatedHasher() {
    let open: () => void = () => {};
    let gate: Promise<void> | null = null;
    let waiting = 0;
    const wait = async () => {
      if (!gate) return;
      waiting++;
      await gate;
    };
    const hasher: PasswordHasher = {
      hash: async (password) => {
        await wait();
        return testHasher.hash(password);
      },
      verify: async (password, hash) => {
        await wait();
        return testHasher.verify(password, hash);
      },
    };
    return {
      hasher,
      /** Until `n` calls wait at the gate: a fixed sleep was too short on a loaded machine. */
      reached: async (n: number) => {
        while (waiting < n) await Bun.sleep(5);
      },
      hold: () => (gate = new Promise<void>((resolve) => (open = resolve))),
      release: () => {
        gate = null;
        open();
      },
    };
  }

  test("when its queue is full the answer is 429 'busy' at once, not a long wait; the refused attempt is no failure", async () => {
    const gated = gatedHasher();
    await withHarness(
      async (own) => {
        gated.hold();
        const from = (i: number) => ({ body: { email: ADMIN.email, password: ADMIN.password }, headers: { "x-forwarded-for": `203.0.113.${50 + i}` } });
        const pending = [0, 1, 2].map((i) => own.call("POST", "/api/auth/login", from(i)));
        // One is hashing, one waits its turn, the third is refused without waiting.
        const first = await Promise.race(pending);
        expect(first).toMatchObject({ status: 429, body: { code: "busy", msg: "The server is busy. Please try again in a moment." } });
        expect(first.headers.get("retry-after")).toBe("1");
        const signUp = await own.call("POST", "/api/auth/register", {
          body: { name: "Busy", email: "busy@test.local", password: "secret-password", referralId: own.adminReferralId },
        });
        expect(signUp).toMatchObject({ status: 429, body: { code: "busy" } });
        gated.release();
        expect((await Promise.all(pending)).map((r) => r.status).sort()).toEqual([200, 200, 429]);
        expect(await own.db.select({ n: count() }).from(loginFailures)).toEqual([{ n: 0 }]);
        // The refused sign-up can be sent again.
        expect((await own.call("POST", "/api/auth/register", { body: { name: "Busy", email: "busy@test.local", password: "secret-password", referralId: own.adminReferralId } })).status).toBe(201);
      },
      { config: { trustProxy: 1 }, hasher: boundedHasher(gated.hasher, { concurrency: 1, queue: 1 }) },
    );
  });

  test("one address gets two login checks at once: the next is 'busy' at once, is no failure, and other addresses go on", async () => {
    const gated = gatedHasher();
    await withHarness(
      async (own) => {
        gated.hold();
        const from = (address: string) => ({ body: { email: ADMIN.email, password: ADMIN.password }, headers: { "x-forwarded-for": address } });
        const flooding = [0, 1].map(() => own.call("POST", "/api/auth/login", from("203.0.113.90")));
        await gated.reached(2);
        const third = await own.call("POST", "/api/auth/login", from("203.0.113.90"));
        expect(third).toMatchObject({ status: 429, body: { code: "busy", msg: "The server is busy. Please try again in a moment." } });
        expect(third.headers.get("retry-after")).toBe("1");
        // Another address is checked meanwhile.
        const other = own.call("POST", "/api/auth/login", from("198.51.100.90"));
        gated.release();
        expect((await Promise.all([...flooding, other])).map((r) => r.status)).toEqual([200, 200, 200]);
        expect(await own.db.select({ n: count() }).from(loginFailures)).toEqual([{ n: 0 }]);
        // Its turns are given back: the address is checked again.
        expect((await own.call("POST", "/api/auth/login", from("203.0.113.90"))).status).toBe(200);
      },
      { config: { trustProxy: 1, loginChecksPerSource: loadConfig({}).loginChecksPerSource }, hasher: gated.hasher },
    );
    expect(loadConfig({}).loginChecksPerSource).toBe(2);
  });

  test("a sign-up bound to be refused hashes no password: an unknown referral ID, a taken email, a reserved name", async () => {
    let hashes = 0;
    const counting: PasswordHasher = { hash: (p) => (hashes++, testHasher.hash(p)), verify: testHasher.verify };
    await withHarness(
      async (own) => {
        const body = (over: Record<string, string>) => ({ name: "Hope", email: "hope@test.local", password: "secret-password", referralId: own.adminReferralId, ...over });
        const register = (over: Record<string, string>) => own.call("POST", "/api/auth/register", { body: body(over) });
        expect(await register({ referralId: "NOSUCHREF" })).toMatchObject({ status: 400, body: { code: "invalid_referral" } });
        expect(await register({ email: ADMIN.email.toUpperCase() })).toMatchObject({ status: 409, body: { code: "email_taken" } });
        expect(await register({ name: "S y s t e m" })).toMatchObject({ status: 400, body: { code: "validation" } });
        expect(hashes).toBe(0);
        expect((await register({})).status).toBe(201);
        expect(hashes).toBe(1);
      },
      { hasher: counting },
    );
  });

  test("one address gets two sign-ups hashed at once: the next is 'busy' at once and uses up no sign-up; other addresses go on", async () => {
    const gated = gatedHasher();
    await withHarness(
      async (own) => {
        const from = (address: string) => ({
          body: { name: "Flood", email: `flood-${crypto.randomUUID().slice(0, 8)}@test.local`, password: "secret-password", referralId: own.adminReferralId },
          headers: { "x-forwarded-for": address },
        });
        gated.hold();
        const flooding = [0, 1].map(() => own.call("POST", "/api/auth/register", from("203.0.113.91")));
        await gated.reached(2);
        const third = await own.call("POST", "/api/auth/register", from("203.0.113.91"));
        expect(third).toMatchObject({ status: 429, body: { code: "busy" } });
        const other = own.call("POST", "/api/auth/register", from("198.51.100.91"));
        gated.release();
        expect((await Promise.all([...flooding, other])).map((r) => r.status)).toEqual([201, 201, 201]);
        // The busy one gave its sign-up back: the address's third of SIGNUP_LIMIT=3 is still there.
        expect((await own.call("POST", "/api/auth/register", from("203.0.113.91"))).status).toBe(201);
        expect((await own.call("POST", "/api/auth/register", from("203.0.113.91"))).status).toBe(429);
      },
      { config: { trustProxy: 1, signupLimit: 3, loginChecksPerSource: loadConfig({}).loginChecksPerSource }, hasher: gated.hasher },
    );
  });

  test("the server's hasher is bounded by default (2 x CPUs at once, a bounded queue)", async () => {
    const config = loadConfig({});
    expect(config.hashConcurrency).toBeGreaterThanOrEqual(2);
    expect(config.hashQueue).toBeGreaterThan(config.hashConcurrency);
    // boundedHasher keeps the inner hasher's answers.
    const bounded = boundedHasher(argon2Hasher({ memoryCost: 1024, timeCost: 1 }), { concurrency: 2, queue: 4 });
    const hash = await bounded.hash("pw");
    expect(await Promise.all([1, 2, 3, 4, 5, 6].map(() => bounded.verify("pw", hash)))).toEqual([true, true, true, true, true, true]);
    // A seventh at once is one too many.
    const seven = await Promise.allSettled([1, 2, 3, 4, 5, 6, 7].map(() => bounded.verify("pw", hash)));
    expect(seven.filter((s) => s.status === "rejected")).toHaveLength(1);
  });
});
