import { expect, test } from "bun:test";
import fc from "fast-check";
import { issueToken } from "./tokens";
import { expiredToken, forgedToken, TEST_JWT_SECRET, type Harness } from "../testing/harness";
import { useMoneyHarness } from "../testing/useHarness";
import { ERROR_CODES, ERRORS, type ErrorCode } from "../shared/errors";
import { randomTxId, TRON_SENDER } from "../testing/chainIds";

/**
 * Generated requests, valid and malformed, against every endpoint, from every kind of caller.
 * Whatever arrives, the server never answers 5xx, every refusal is JSON {msg, code} (a code of src/shared/errors.ts), and the ledger
 * invariants hold afterwards. FUZZ_RUNS sets the number of requests (CI: a few thousand).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 3000);

let h: Harness;
let callers: Record<string, () => Promise<string | undefined>>;
let ids: string[];

useMoneyHarness(async (made) => {
  h = made;
  const alice = await h.signUp({ email: "alice@fuzz.test", password: "alice-password" });
  const bob = await h.signUp({ email: "bob@fuzz.test", referralId: alice.myReferralId });
  const gone = await h.signUp({ email: "gone@fuzz.test", password: "gone-password" });
  const goneToken = await h.login(gone.email, gone.password);
  await h.call("DELETE", `/api/admin/users/${gone.id}`, { token: h.adminToken });
  await h.fund(alice.token, 500);
  await h.fund(bob.token, 80);
  await h.call("POST", "/api/user/deposit", { token: bob.token, body: { address: TRON_SENDER, transactionId: randomTxId(), amount: 3 } });
  await h.call("POST", "/api/user/withdraw", { token: alice.token, body: { accountType: "USDT BEP20", accountNumber: "0x52908400098527886E0F7030069857D2E4169EE7", amount: 20 } });
  const deposits = (await h.call("GET", "/api/admin/deposits", { token: h.adminToken })).body as { _id: string }[];
  const withdrawals = (await h.call("GET", "/api/admin/withdrawals", { token: h.adminToken })).body as { _id: string }[];
  ids = [alice.id, bob.id, gone.id, ...deposits.map((d) => d._id), ...withdrawals.map((w) => w._id)];
  const adminId: string = (await h.me(h.adminToken))._id;
  callers = {
    anonymous: async () => undefined,
    // A fresh token each call, so a generated logout does not silence the callers after it.
    alice: () => issueToken(TEST_JWT_SECRET, alice.id),
    bob: () => issueToken(TEST_JWT_SECRET, bob.id),
    admin: () => issueToken(TEST_JWT_SECRET, adminId),
    deleted: async () => goneToken,
    expired: () => expiredToken(alice.id),
    forged: () => forgedToken(bob.id),
    garbage: async () => "not.a.jwt",
  };
});

const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  // Lone surrogates too: valid JSON ("\ud800"), but not text Postgres can hold.
  fc.constantFrom("", " ", "%", "_", "\\", "'; DROP TABLE users; --", "\u0000", "💸", "a".repeat(300), "\ud800", "a\udc00b"),
);
const amount = fc.oneof(
  fc.double({ noNaN: false }),
  fc.integer({ min: -1000, max: 100000 }),
  fc.constantFrom(0, 0.01, 1, 1.005, 12.5, "12.50", "1e3", "-5", "", null, 1e308, Number.MAX_SAFE_INTEGER),
  text,
);
const segment = fc.oneof(
  // (A lone surrogate cannot be written in a URL: encodeURIComponent throws.)
  text.map((t) => encodeURIComponent(t.replace(/\p{Cs}/gu, "\ufffd"))),
  fc.constantFrom("3p", "6p", "1", "12", "13", "0", "-1", "1.5"),
  // Statement filters: kinds and days, valid and not.
  fc.constantFrom("earning", "pass_up", "gift_in", "deposit", "2026-01-01", "2025-12-31", "0000-01-01", "9999-12-31", "2026-02-30"),
);
const body = fc.oneof(
  fc.record(
    {
      email: fc.oneof(fc.constantFrom("alice@fuzz.test", "bob@fuzz.test", "gone@fuzz.test"), text),
      password: text,
      name: text,
      referralId: text,
      address: text,
      transactionId: text,
      amount,
      accountType: fc.oneof(fc.constantFrom("USDT TRC20", "USDT BEP20"), text),
      accountNumber: text,
      recipientEmail: fc.oneof(fc.constantFrom("alice@fuzz.test", "bob@fuzz.test", "gone@fuzz.test", "admin@test.local"), text),
      status: fc.oneof(fc.constantFrom("accepted", "declined", "pending"), text),
      reason: fc.oneof(text, fc.constant(null), fc.integer()),
      cost: amount,
      unfreezeCost: amount,
      ticket: text,
      code: fc.oneof(fc.constantFrom("123456", "000000", "abcd-efgh-ijkl-mnop"), text),
      ids: fc.oneof(fc.array(fc.oneof(fc.constantFrom("1", "2", "99999999999999999999", "0"), text), { maxLength: 4 }), text),
      all: fc.oneof(fc.constant(true), fc.boolean(), text),
      muted: fc.oneof(fc.array(fc.oneof(fc.constantFrom("partner_joined", "missed", "deposit_decided", "pending_request"), text), { maxLength: 4 }), text),
      mailed: fc.oneof(fc.array(fc.oneof(fc.constantFrom("gift_received", "withdrawal_decided"), text), { maxLength: 3 }), text),
      currentPassword: text,
      newPassword: text,
      newEmail: fc.oneof(fc.constantFrom("alice@fuzz.test", "new@fuzz.test"), text),
      token: text,
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue(),
);

const routes: { method: string; path: (seg: string[]) => string }[] = [
  { method: "GET", path: () => "/api/auth" },
  { method: "POST", path: () => "/api/auth/login" },
  { method: "POST", path: () => "/api/auth/register" },
  { method: "POST", path: () => "/api/auth/logout" },
  { method: "POST", path: () => "/api/auth/login/2fa" },
  { method: "GET", path: () => "/api/auth/2fa" },
  { method: "POST", path: () => "/api/auth/2fa/setup" },
  { method: "POST", path: () => "/api/auth/2fa/enable" },
  { method: "POST", path: () => "/api/auth/2fa/disable" },
  { method: "GET", path: () => "/api/auth/admin-referral-id" },
  { method: "POST", path: () => "/api/auth/password/forgot" },
  { method: "POST", path: () => "/api/auth/password/reset" },
  { method: "POST", path: () => "/api/auth/password" },
  { method: "POST", path: () => "/api/auth/email/confirm" },
  { method: "POST", path: () => "/api/auth/email/verify/resend" },
  { method: "PUT", path: () => "/api/user/profile" },
  { method: "POST", path: () => "/api/user/email" },
  { method: "GET", path: ([a]) => `/api/user/details/${a}` },
  { method: "GET", path: ([a]) => `/api/programs/${a}/levels` },
  { method: "PATCH", path: ([a, b]) => `/api/programs/${a}/levels/${b}` },
  { method: "POST", path: () => "/api/user/deposit" },
  { method: "POST", path: () => "/api/user/withdraw" },
  { method: "GET", path: ([a]) => `/api/admin/deposits?status=${a}&search=${a}` },
  { method: "GET", path: ([a, b, c]) => `/api/admin/deposits?page=${a}&limit=${b}&status=${c}` },
  { method: "GET", path: ([a]) => `/api/admin/withdrawals?search=${a}` },
  { method: "GET", path: ([a, b, c]) => `/api/admin/withdrawals?page=${a}&limit=${b}&search=${c}` },
  { method: "PUT", path: ([a]) => `/api/admin/deposits/${a}` },
  { method: "PUT", path: ([a]) => `/api/admin/withdrawals/${a}` },
  { method: "GET", path: ([a, b, c]) => `/api/admin/users?page=${a}&limit=${b}&search=${c}` },
  { method: "DELETE", path: ([a]) => `/api/admin/users/${a}` },
  { method: "POST", path: ([a]) => `/api/admin/users/${a}/gift` },
  { method: "GET", path: ([a]) => `/api/user/search?search=${a}` },
  { method: "POST", path: () => "/api/user/gift" },
  { method: "POST", path: ([a, b]) => `/api/user/packages/purchase/${a}/${b}` },
  { method: "POST", path: ([a, b]) => `/api/user/packages/unfreeze/${a}/${b}` },
  { method: "GET", path: ([a, b]) => `/api/user/matrix/${a}/${b}` },
  { method: "GET", path: ([a, b, c]) => `/api/user/matrix/${a}/${b}?cycle=${c}` },
  { method: "GET", path: ([a, b]) => `/api/user/packages/purchase/${a}/${b}/preview` },
  { method: "GET", path: ([a, b]) => `/api/user/packages/unfreeze/${a}/${b}/preview` },
  { method: "GET", path: ([a]) => `/api/user/missed?page=${a}` },
  { method: "GET", path: ([a, b]) => `/api/user/partners?page=${a}&of=${b}` },
  { method: "GET", path: ([a]) => `/api/user/partners?page=${a}` },
  { method: "GET", path: ([a]) => `/api/user/transactions?page=${a}` },
  { method: "GET", path: ([a, b, c]) => `/api/user/transactions?page=${a}&kind=${b}&from=${c}` },
  { method: "GET", path: ([a, b, c]) => `/api/user/transactions?kind=${a}&from=${b}&to=${c}` },
  { method: "GET", path: ([a, b, c]) => `/api/user/transactions.csv?kind=${a}&from=${b}&to=${c}` },
  { method: "GET", path: ([a]) => `/api/user/requests?page=${a}` },
  { method: "GET", path: ([a]) => `/api/user/earnings?days=${a}` },
  { method: "GET", path: ([a]) => `/api/user/notifications?page=${a}` },
  { method: "POST", path: () => "/api/user/notifications/read" },
  { method: "GET", path: () => "/api/user/notifications/settings" },
  { method: "PUT", path: () => "/api/user/notifications/settings" },
  { method: "POST", path: () => "/api/newsletter" },
  { method: "GET", path: ([a]) => `/api/admin/audit?page=${a}` },
  { method: "GET", path: ([a]) => `/api/${a}` },
];

test(`${RUNS} generated requests: never a 5xx, every refusal a JSON {msg, code} of the closed list, the ledger intact`, async () => {
  const codesSeen = new Set<string>();
  const idOrSegment = fc.oneof(segment, fc.constant(null).map(() => ids[0]!), fc.integer({ min: 0, max: 20 }).map((i) => ids[i % ids.length]!));
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 0, max: routes.length - 1 }),
      fc.constantFrom("anonymous", "alice", "bob", "admin", "deleted", "expired", "forged", "garbage"),
      fc.array(idOrSegment, { minLength: 3, maxLength: 3 }),
      fc.oneof({ weight: 4, arbitrary: body.map((b) => ({ body: b as unknown })) }, { weight: 1, arbitrary: text.map((raw) => ({ raw })) }),
      async (routeIndex, caller, segments, payload) => {
        const route = routes[routeIndex]!;
        const token = await callers[caller]!();
        const options = "raw" in payload ? { token, rawBody: payload.raw } : { token, body: route.method === "GET" ? undefined : payload.body };
        const res = await h.call(route.method, route.path(segments), options);
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) {
          expect(typeof res.body?.msg).toBe("string");
          // A code of the closed list, answered with that code's own status.
          expect(ERROR_CODES).toContain(res.body?.code);
          expect(res.status).toBe(ERRORS[res.body.code as ErrorCode].status);
          codesSeen.add(res.body.code);
        }
      },
    ),
    { numRuns: RUNS, seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined },
  );
  await h.checkLedger();
  expect(h.logged).toEqual([]);
  // The generator reaches the refusals of every kind of caller, not just one.
  if (RUNS >= 1000) for (const code of ["validation", "not_found", "no_token", "bad_token", "forbidden"]) expect(codesSeen).toContain(code);
});

test("NUL characters, which Postgres text cannot hold, are refused with 400 in bodies, paths and queries", async () => {
  const register = await h.call("POST", "/api/auth/register", {
    body: { name: "x", email: "nul@fuzz.test", password: "secret-password", referralId: "\u0000" },
  });
  expect(register).toMatchObject({ status: 400, body: { msg: "Invalid referral ID.", code: "invalid_referral" } });
  // A user of its own: the generated requests above may have deleted alice.
  const { token } = await h.signUp({ email: "nul-check@fuzz.test" });
  const deposit = await h.call("POST", "/api/user/deposit", { token, body: { address: "\u0000", transactionId: "t", amount: 1 } });
  expect(deposit).toMatchObject({ status: 400, body: { msg: "Wallet address contains characters that are not allowed.", code: "validation" } });
  const search = await h.call("GET", "/api/user/search?search=ab%00c", { token });
  expect(search).toMatchObject({ status: 400, body: { msg: "The request contains a character that is not allowed.", code: "bad_character" } });
  expect(h.logged).toEqual([]);
});
