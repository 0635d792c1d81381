import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { sign } from "hono/jwt";
import { expiredToken, forgedToken, TEST_JWT_SECRET, withHarness, type Harness } from "../../testing/harness";
import { useMoneyHarness } from "../../testing/useHarness";

let h: Harness;
useMoneyHarness((made) => (h = made));

const now = () => Math.floor(Date.now() / 1000);
const noToken = { msg: "No token, authorization denied", code: "no_token" };
const badToken = { msg: "Token is not valid", code: "bad_token" };

describe("tokens", () => {
  test("a protected route without a token answers 401 'No token, authorization denied'", async () => {
    for (const [method, path] of [
      ["GET", "/api/auth"],
      ["POST", "/api/user/gift"],
      ["GET", "/api/user/search?search=abc"],
      ["GET", "/api/admin/users"],
      ["PATCH", "/api/programs/3p/levels/1"],
    ] as const) {
      const res = await h.call(method, path);
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 401, body: noToken });
    }
  });

  test("a token signed with our secret, an unrevoked jti and a future exp is accepted", async () => {
    const user = await h.signUp();
    const token = await sign({ sub: user.id, jti: crypto.randomUUID(), iat: now(), exp: now() + 60 }, TEST_JWT_SECRET, "HS256");
    expect((await h.call("GET", "/api/auth", { token })).status).toBe(200);
  });

  test("an expired token answers 401 'Token is not valid'", async () => {
    const user = await h.signUp();
    const token = await expiredToken(user.id);
    expect(await h.call("GET", "/api/auth", { token })).toMatchObject({ status: 401, body: badToken });
  });

  test("forged, malformed and exp-less tokens answer 401 'Token is not valid'", async () => {
    const user = await h.signUp();
    const claims = { sub: user.id, jti: crypto.randomUUID(), iat: now(), exp: now() + 60 };
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const forged = [
      await forgedToken(user.id),
      await sign(claims, TEST_JWT_SECRET, "HS512"),
      `${b64({ alg: "none", typ: "JWT" })}.${b64(claims)}.`,
      await sign({ sub: user.id, jti: crypto.randomUUID(), iat: now() }, TEST_JWT_SECRET, "HS256"),
      await sign({ sub: user.id, iat: now(), exp: now() + 60 }, TEST_JWT_SECRET, "HS256"),
      await sign({ sub: "no-such-user", jti: crypto.randomUUID(), iat: now(), exp: now() + 60 }, TEST_JWT_SECRET, "HS256"),
      "not.a.token",
      "garbage",
    ];
    for (const token of forged) {
      const res = await h.call("GET", "/api/auth", { token });
      expect({ token, status: res.status, body: res.body }).toEqual({ token, status: 401, body: badToken });
    }
  });

  test("the token of a deleted user stops working at once", async () => {
    const user = await h.signUp();
    await h.fund(user.token, 10);
    expect((await h.call("DELETE", `/api/admin/users/${user.id}`, { token: h.adminToken })).status).toBe(200);
    expect(await h.call("GET", "/api/auth", { token: user.token })).toMatchObject({ status: 401, body: badToken });
    const other = await h.signUp();
    const gift = await h.call("POST", "/api/user/gift", { token: user.token, body: { amount: 5, recipientEmail: other.email } });
    expect(gift).toMatchObject({ status: 401, body: badToken });
    expect((await h.me(other.token)).balance).toBe(0);
    await h.checkLedger();
  });

  test("a user who is not an admin gets 403 with a msg on every admin route", async () => {
    const user = await h.signUp();
    for (const [method, path, body] of [
      ["GET", "/api/admin/deposits", undefined],
      ["GET", "/api/admin/withdrawals?status=pending", undefined],
      ["PUT", "/api/admin/deposits/some-id", { status: "accepted" }],
      ["PUT", "/api/admin/withdrawals/some-id", { status: "accepted" }],
      ["GET", "/api/admin/users", undefined],
      ["DELETE", `/api/admin/users/${user.id}`, undefined],
      ["POST", `/api/admin/users/${user.id}/gift`, { amount: 100 }],
      ["PATCH", "/api/programs/3p/levels/1", { cost: 0, unfreezeCost: 0 }],
    ] as const) {
      const res = await h.call(method, path, { token: user.token, body });
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 403, body: { msg: "Access denied. Admins only.", code: "forbidden" } });
    }
    expect((await h.me(user.token)).balance).toBe(0);
    const [level] = (await h.call("GET", "/api/programs/3p/levels")).body;
    expect(level).toEqual({ level: 1, cost: 5, unfreezeCost: 2.5 });
    await h.checkLedger();
  });
});

describe("malformed requests", () => {
  test("a body that is not JSON answers 400 with a msg", async () => {
    const user = await h.signUp();
    for (const rawBody of ["{not json", "", "{\"amount\": 5,}"]) {
      const res = await h.call("POST", "/api/user/gift", { token: user.token, rawBody });
      expect({ rawBody, status: res.status, body: res.body }).toEqual({ rawBody, status: 400, body: { msg: "The request body is not valid JSON.", code: "bad_json" } });
    }
  });

  test("a JSON body that is not an object answers 400 with a msg", async () => {
    for (const body of [[], null, 42, "text"]) {
      const res = await h.call("POST", "/api/auth/login", { body });
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { msg: "The request body must be a JSON object.", code: "validation" } });
    }
  });

  test("a body sent as something other than JSON is not read, and is refused as such with 400 (not by a field it did send)", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "text/plain;charset=UTF-8"]) {
      const res = await h.call("POST", "/api/auth/login", { rawBody: JSON.stringify({ email: "admin@test.local", password: "admin-password" }), headers: { "content-type": type } });
      expect({ type, status: res.status, body: res.body }).toEqual({
        type,
        status: 400,
        body: { msg: "The request body must be JSON, sent with Content-Type: application/json.", code: "validation" },
      });
    }
    // JSON's own types, with parameters, are read.
    for (const type of ["application/json; charset=utf-8", "application/vnd.api+json"]) {
      const res = await h.call("POST", "/api/auth/login", { rawBody: JSON.stringify({ email: "nobody@test.local", password: "wrong-password" }), headers: { "content-type": type } });
      expect({ type, code: res.body.code }).toEqual({ type, code: "invalid_credentials" });
    }
  });

  test("text that is not well-formed Unicode (a lone surrogate, as JSON's \\u escapes can write it) is refused as a character not allowed, not a 500", async () => {
    const member = await h.signUp();
    const register = await h.call("POST", "/api/auth/register", {
      rawBody: `{"name":"Ze\\ud800d","email":"lone@test.local","password":"secret-password","referralId":"${h.adminReferralId}"}`,
    });
    expect(register).toMatchObject({ status: 400, body: { msg: "The request contains a character that is not allowed.", code: "bad_character" } });
    const id = await h.deposit(member.token, 5);
    const decline = await h.call("PUT", `/api/admin/deposits/${id}`, { token: h.adminToken, rawBody: '{"status":"declined","reason":"bad \\udc00 tx"}' });
    expect(decline).toMatchObject({ status: 400, body: { code: "bad_character" } });
    // A pair is a character like any other.
    const paired = await h.call("PUT", `/api/admin/deposits/${id}`, { token: h.adminToken, rawBody: '{"status":"declined","reason":"bad \\ud83d\\ude00 tx"}' });
    expect(paired.status).toBe(200);
    expect(h.takeLogged()).toEqual([]);
  });

  test("an unknown route answers 404 {msg}", async () => {
    const user = await h.signUp();
    expect(await h.call("GET", "/api/nothing-here")).toMatchObject({ status: 404, body: { msg: "Not found.", code: "not_found" } });
    expect(await h.call("DELETE", "/api/auth")).toMatchObject({ status: 404, body: { msg: "Not found.", code: "not_found" } });
    expect(await h.call("GET", "/api/user/nothing-here", { token: user.token })).toMatchObject({ status: 404, body: { msg: "Not found.", code: "not_found" } });
    expect(await h.call("POST", "/api/admin/nothing-here", { token: h.adminToken })).toMatchObject({ status: 404, body: { msg: "Not found.", code: "not_found" } });
  });

  test("a body over the size limit answers 413 {msg}, declared or streamed", async () => {
    const big = JSON.stringify({ email: "a@b.co", password: "x".repeat(70 * 1024) });
    const declared = await h.call("POST", "/api/auth/login", { rawBody: big, headers: { "content-length": String(big.length) } });
    expect({ status: declared.status, body: declared.body }).toEqual({ status: 413, body: { msg: "The request body is too large.", code: "too_large" } });

    const bytes = new TextEncoder().encode(big);
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 8192) controller.enqueue(bytes.slice(i, i + 8192));
        controller.close();
      },
    });
    const streamed = await h.app.request("/api/auth/login", { method: "POST", headers: { "content-type": "application/json" }, body: stream });
    expect(streamed.status).toBe(413);
    expect(await streamed.json()).toEqual({ msg: "The request body is too large.", code: "too_large" });
  });
});

describe("unexpected failures", () => {
  test("an unexpected error answers 500 {msg: 'Server error.'} with no stack, and is logged", async () => {
    await h.db.execute(sql`ALTER TABLE newsletter_subscribers RENAME TO newsletter_subscribers_away`);
    try {
      const res = await h.call("POST", "/api/newsletter", { body: { email: "someone@example.com" } });
      expect({ status: res.status, body: res.body }).toEqual({ status: 500, body: { msg: "Server error.", code: "server_error" } });
      expect(JSON.stringify(res.body)).not.toContain("newsletter");
    } finally {
      await h.db.execute(sql`ALTER TABLE newsletter_subscribers_away RENAME TO newsletter_subscribers`);
    }
    const logged = h.takeLogged();
    expect(logged).toHaveLength(1);
    expect(String(logged[0])).toContain("newsletter_subscribers");
  });

  test("a failed query is logged without its parameters, so no password hash reaches the log", async () => {
    await h.db.execute(sql`ALTER TABLE users ADD CONSTRAINT test_refuses_boom CHECK (name <> 'Boom') NOT VALID`);
    let res;
    try {
      res = await h.call("POST", "/api/auth/register", {
        body: { name: "Boom", email: "boom@test.local", password: "boom-secret", referralId: h.adminReferralId },
      });
    } finally {
      await h.db.execute(sql`ALTER TABLE users DROP CONSTRAINT test_refuses_boom`);
    }
    expect({ status: res.status, body: res.body }).toEqual({ status: 500, body: { msg: "Server error.", code: "server_error" } });
    const taken = h.takeLogged();
    expect(taken).toHaveLength(1);
    const logged = taken[0] as Error;
    const text = `${String(logged)}\n${logged.stack}\n${Bun.inspect(logged)}`;
    expect(text).toContain('insert into "users"');
    expect(text).toContain("test_refuses_boom");
    expect(text).not.toContain("argon2");
    expect(text).not.toContain("boom@test.local");
  });

  test("a money operation that fails half-way moves nothing", async () => {
    const sender = await h.signUp();
    const recipient = await h.signUp();
    await h.fund(sender.token, 30);
    // The balance updates succeed, then recording the transfer fails: all of it must roll back.
    await h.db.execute(sql`ALTER TABLE transfers RENAME TO transfers_away`);
    let res;
    try {
      res = await h.call("POST", "/api/user/gift", { token: sender.token, body: { amount: 10, recipientEmail: recipient.email } });
    } finally {
      await h.db.execute(sql`ALTER TABLE transfers_away RENAME TO transfers`);
    }
    expect({ status: res.status, body: res.body }).toEqual({ status: 500, body: { msg: "Server error.", code: "server_error" } });
    expect(h.takeLogged()).toHaveLength(1);
    expect((await h.me(sender.token)).balance).toBe(30);
    expect((await h.me(recipient.token)).balance).toBe(0);
    await h.checkLedger();
  });
});

describe("headers", () => {
  test("every answer carries a content security policy, one-year HSTS and no-sniff", async () => {
    for (const path of ["/api/config", "/api/nothing-here", "/api/auth"]) {
      const res = await h.call("GET", path);
      expect(res.headers.get("content-security-policy")).toContain("default-src 'self'");
      expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  test("by default no foreign origin is allowed by CORS", async () => {
    const simple = await h.call("GET", "/api/config", { headers: { origin: "https://evil.example" } });
    expect(simple.headers.get("access-control-allow-origin")).toBeNull();
    const preflight = await h.call("OPTIONS", "/api/user/gift", {
      headers: { origin: "https://evil.example", "access-control-request-method": "POST", "access-control-request-headers": "x-auth-token" },
    });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    expect(preflight.headers.get("access-control-allow-headers")).toBeNull();
  });

  test("CORS_ORIGINS allows exactly the origins listed", async () => {
    await withHarness(async (listed) => {
      const allowed = await listed.call("GET", "/api/config", { headers: { origin: "https://app.example" } });
      expect(allowed.headers.get("access-control-allow-origin")).toBe("https://app.example");
      const preflight = await listed.call("OPTIONS", "/api/user/gift", {
        headers: { origin: "https://app.example", "access-control-request-method": "POST", "access-control-request-headers": "x-auth-token" },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("x-auth-token");
      const foreign = await listed.call("GET", "/api/config", { headers: { origin: "https://evil.example" } });
      expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
      // The admin's paged lists carry their total in X-Total-Count: readable from the listed origin.
      const page = await listed.call("GET", "/api/admin/deposits", { token: listed.adminToken, headers: { origin: "https://app.example" } });
      expect(page.headers.get("x-total-count")).toBe("0");
      expect(page.headers.get("access-control-expose-headers")).toBe("X-Total-Count");
    }, { config: { corsOrigins: ["https://app.example"] } });
  });
});
