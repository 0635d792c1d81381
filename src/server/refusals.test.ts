import { describe, expect, test } from "bun:test";
import { type Harness } from "../testing/harness";
import { useMoneyHarness } from "../testing/useHarness";
import { TRON_SENDER, randomTxId } from "../testing/chainIds";

let h: Harness;
let member: Awaited<ReturnType<Harness["signUp"]>>;
useMoneyHarness(async (made) => {
  h = made;
  member = await h.signUp({ email: "member@refusals.test" });
  await h.fund(member.token, 100);
});

/**
 * Refusals answered the same way wherever they come from: the code the rules give (not
 * `validation` where a code of its own exists), a field's own sentence, a body not read as JSON.
 */

/** A request through app.request with exactly these headers (no Content-Type added). */
async function send(method: string, path: string, headers: Record<string, string>, body?: string) {
  const res = await h.app.request(path, { method, headers, body });
  return { status: res.status, body: await res.json().catch(() => undefined) };
}

describe("withdrawal above the available balance: 400 exceeds_available, however large (docs/rules.md#money)", () => {
  // rules.md: "A withdrawal is first held to the available balance ... above it, however large,
  // the answer is 400 exceeds_available". From 10^13 dollars up the schema answers the same
  // sentence under code `validation` (src/shared/schemas.ts withdrawSchema, max.cents null).
  for (const amount of [150, 2_000_000, 9_999_999_999_999, 10_000_000_000_000, 1e21, "99999999999999999999"]) {
    test(`amount ${amount}`, async () => {
      const res = await h.call("POST", "/api/user/withdraw", {
        token: member.token,
        body: { accountType: "USDT TRC20", accountNumber: TRON_SENDER, amount },
      });
      expect(res).toMatchObject({ status: 400, body: { msg: "Withdrawal amount cannot exceed your available balance.", code: "exceeds_available" } });
    });
  }
});

describe("a level that does not exist is one refusal: 404 level_not_found", () => {
  // Levels 13..99 reach the core and answer level_not_found; 0, 100+ and "1.0" are refused by
  // validatePath as code not_found with the sentence "Level not found." (src/server/validate.ts).
  const paths = (level: string) => [
    ["GET", `/api/user/matrix/3p/${level}`],
    ["GET", `/api/user/packages/purchase/3p/${level}/preview`],
    ["GET", `/api/user/packages/unfreeze/3p/${level}/preview`],
    ["POST", `/api/user/packages/purchase/3p/${level}`],
    ["POST", `/api/user/packages/unfreeze/3p/${level}`],
  ];
  for (const level of ["13", "0", "100", "1.0"]) {
    test(`level ${level}`, async () => {
      for (const [method, path] of paths(level)) {
        const res = await h.call(method!, path!, { token: member.token });
        expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 404, body: { msg: "Level not found.", code: "level_not_found" } });
      }
      const patch = await h.call("PATCH", `/api/programs/3p/levels/${level}`, { token: h.adminToken, body: { cost: 1, unfreezeCost: 1 } });
      expect(patch).toMatchObject({ status: 404, body: { msg: "Level not found.", code: "level_not_found" } });
    });
  }
});

describe("a body sent without any Content-Type is refused as not JSON, not by a field it did send", () => {
  const notJson = { status: 400, body: { msg: "The request body must be JSON, sent with Content-Type: application/json.", code: "validation" } };
  test("a deposit, a login, a purchase with an expected price", async () => {
    const deposit = JSON.stringify({ address: TRON_SENDER, transactionId: randomTxId(), amount: 5 });
    expect(await send("POST", "/api/user/deposit", { "x-auth-token": member.token }, deposit)).toEqual(notJson);
    expect(await send("POST", "/api/auth/login", {}, JSON.stringify({ email: "member@refusals.test", password: "secret-password" }))).toEqual(notJson);
    expect(await send("POST", "/api/user/packages/purchase/3p/1", { "x-auth-token": member.token }, JSON.stringify({ expectedCost: 5 }))).toEqual(notJson);
    // Nothing was bought; a call without a body needs no Content-Type.
    expect((await send("POST", "/api/user/packages/purchase/3p/1", { "x-auth-token": member.token })).status).toBe(200);
  });
});

describe("a query parameter sent twice is refused with a sentence naming the field, as page, status and type are", () => {
  // page=1&page=2 -> "Page must be a whole number from 1."; status twice -> "Status must be ...";
  // but these answer zod's bare default "Invalid input".
  for (const [path, admin] of [
    ["/api/admin/deposits?search=abc&search=def", true],
    ["/api/admin/withdrawals?search=abc&search=def", true],
    ["/api/admin/users?search=abc&search=def", true],
    ["/api/user/partners?of=a&of=b", false],
    ["/api/user/partners?after=a&after=b", false],
    ["/api/user/transactions?tz=UTC&tz=UTC", false],
    ["/api/user/transactions?from=2026-01-01&from=2026-01-01", false],
    ["/api/user/transactions.csv?to=2026-01-01&to=2026-01-01", false],
  ] as const) {
    test(path, async () => {
      const res = await h.call("GET", path, { token: admin ? h.adminToken : member.token });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("validation");
      // The field's own sentence, not zod's bare "Invalid input".
      expect(res.body.msg).toMatch(/^(Search text|Partner|Time zone|From|To) /);
    });
  }
});

describe("the same sentence is answered under one code", () => {
  // "Invalid referral ID." is code invalid_referral for an unknown ID, but code validation for one
  // longer than 64 characters or holding a control character (src/shared/schemas.ts registerSchema).
  test("an impossible referral ID is refused as an unknown one is", async () => {
    const base = { name: "Ref Test", password: "secret-password" };
    const unknown = await h.call("POST", "/api/auth/register", { body: { ...base, email: "ref1@refusals.test", referralId: "NOPE1234" } });
    const tooLong = await h.call("POST", "/api/auth/register", { body: { ...base, email: "ref2@refusals.test", referralId: "X".repeat(65) } });
    const control = await h.call("POST", "/api/auth/register", { body: { ...base, email: "ref3@refusals.test", referralId: "AB\u0001CD" } });
    expect(unknown).toMatchObject({ status: 400, body: { msg: "Invalid referral ID.", code: "invalid_referral" } });
    expect(tooLong.body).toEqual(unknown.body);
    expect(control.body).toEqual(unknown.body);
  });
});

test("POST /api/user/notifications/read with 101 ids says the limit, not 'Send {ids: [...]} or {all: true}.'", async () => {
  const ids = Array.from({ length: 101 }, (_, i) => String(i + 1));
  const res = await h.call("POST", "/api/user/notifications/read", { token: member.token, body: { ids } });
  expect(res).toMatchObject({ status: 400, body: { msg: "ids may name at most 100 notifications.", code: "validation" } });
});
