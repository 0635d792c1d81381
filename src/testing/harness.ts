import { checkAnswer } from "./contract";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "bun:test";
import { eq } from "drizzle-orm";
import { sign } from "hono/jwt";
import { accounts, users } from "../db/schema";
import { createApp } from "../server/app";
import { loadConfig, type Config } from "../server/config";
import type { Deps } from "../server/env";
import { type MailerOptions, startMailer } from "../server/mailer";
import type { Database, Db } from "../db/client";
import { randomBep20Address, randomBep20TxId, randomTronAddress, randomTxId, TRON_SENDER } from "./chainIds";
import { ADMIN, freshDatabase, testHasher } from "./db";
import { expectLedgerInvariants, expectTreeInvariants } from "./invariants";

export interface CallOptions {
  token?: string;
  body?: unknown;
  /** Sent as is, for malformed-body tests. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

let sequence = 0;

/** The secret every test app signs tokens with, for tests that forge or expire tokens. */
export const TEST_JWT_SECRET = "test-secret-that-is-long-enough-for-hs256";

/**
 * What createApp needs, as every test app has it: cheap hashing, TEST_JWT_SECRET, default config
 * except the sign-up limit and the cap on logins checked at once per address, which are off
 * (suites sign many members up and in at once, all from one address; the tests of each turn it
 * on), and backups, which go to a folder under the system's temporary one (createHarness gives
 * each harness its own, removed when it closes).
 */
export function testDeps(db: Db, overrides: { config?: Partial<Config>; log?: Deps["log"]; hasher?: Deps["hasher"]; logger?: Deps["logger"] } = {}): Deps {
  return {
    db,
    config: { ...loadConfig({}), signupLimit: 0, loginChecksPerSource: 0, backupDir: join(tmpdir(), `matrix-test-backups-${process.pid}`), ...overrides.config },
    hasher: overrides.hasher ?? testHasher,
    jwtSecret: TEST_JWT_SECRET,
    log: overrides.log ?? (() => {}),
    // No request log unless a test asks for one (src/server/requestLog.test.ts).
    logger: overrides.logger,
  };
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A token for `userId`, signed with TEST_JWT_SECRET, that expired an hour ago. */
export const expiredToken = (userId: string) =>
  sign({ sub: userId, jti: crypto.randomUUID(), iat: nowSeconds() - 90_000, exp: nowSeconds() - 3_600 }, TEST_JWT_SECRET, "HS256");

/** A well-formed, unexpired token for `userId`, signed with a secret that is not ours. */
export const forgedToken = (userId: string) =>
  sign({ sub: userId, jti: crypto.randomUUID(), iat: nowSeconds(), exp: nowSeconds() + 3_600 }, "another-secret-that-is-long-enough-for-hs256", "HS256");

export type RequestKind = "deposits" | "withdrawals";

/**
 * A fresh database and the app on top of it, with helpers that speak HTTP through
 * `app.request()` exactly as a client would.
 */
export async function createHarness(options: { config?: Partial<Config>; max?: number; hasher?: Deps["hasher"]; mailer?: MailerOptions } = {}) {
  const database: Database = await freshDatabase({ max: options.max });
  const logged: unknown[] = [];
  // Made by the first backup, if any.
  const backupDir = join(tmpdir(), `matrix-test-backups-${crypto.randomUUID()}`);
  const deps = testDeps(database.db, { config: { backupDir, ...options.config }, hasher: options.hasher, log: (_m, e) => logged.push(e) });
  // With `mailer`, the app's mailer runs as in production (kicked by the requests that queue mail).
  const mailer = options.mailer ? startMailer(deps, options.mailer) : undefined;
  deps.mailer = mailer;
  const app = createApp(deps);

  async function call<T = any>(method: string, path: string, opts: CallOptions = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers["x-auth-token"] = opts.token;
    let body: string | undefined;
    if (opts.rawBody !== undefined) body = opts.rawBody;
    else if (opts.body !== undefined) body = JSON.stringify(opts.body);
    if (body !== undefined) headers["content-type"] ??= "application/json";
    const res = await app.request(path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {}
    checkAnswer(method, path, res.status, parsed);
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  async function login(email: string, password: string): Promise<string> {
    const res = await call("POST", "/api/auth/login", { body: { email, password } });
    expect(res.status).toBe(200);
    return res.body.token;
  }

  const adminToken = await login(ADMIN.email, ADMIN.password);
  const adminReferralId: string = (await call("GET", "/api/auth/admin-referral-id")).body.referralId;

  /** Registers and logs in a user under `referralId` (the admin's by default). */
  async function signUp(opts: { name?: string; email?: string; password?: string; referralId?: string } = {}) {
    const n = ++sequence;
    const user = {
      name: opts.name ?? `User ${n}`,
      email: opts.email ?? `user${n}@test.local`,
      password: opts.password ?? "secret-password",
      referralId: opts.referralId ?? adminReferralId,
    };
    const res = await call("POST", "/api/auth/register", { body: user });
    expect(res.status).toBe(201);
    const token = await login(user.email, user.password);
    const me = (await call("GET", "/api/auth", { token })).body;
    return { ...user, token, id: me._id as string, myReferralId: me.myReferralId as string };
  }

  /**
   * Submits a deposit request and answers its id (found through the admin history). Without
   * options: a TRC20 deposit with a fresh random transaction ID (64 hex) from a valid TRON address.
   */
  async function deposit(token: string, amount: number | string, opts: { transactionId?: string; address?: string; network?: string } = {}) {
    const transactionId = opts.transactionId ?? (opts.network === "BEP20" ? randomBep20TxId() : randomTxId());
    const address = opts.address ?? (opts.network === "BEP20" ? randomBep20Address() : TRON_SENDER);
    const body = { ...(opts.network ? { network: opts.network } : {}), address, transactionId, amount };
    const created = await call("POST", "/api/user/deposit", { token, body });
    expect(created.status).toBe(201);
    const pending = await call("GET", `/api/admin/deposits?status=pending&search=${encodeURIComponent(transactionId)}`, { token: adminToken });
    expect(pending.body).toHaveLength(1);
    return pending.body[0]._id as string;
  }

  /** Submits a withdrawal request and answers its id (found through the admin history). */
  async function withdraw(token: string, amount: number | string, opts: { accountType?: string; accountNumber?: string } = {}) {
    const accountType = opts.accountType ?? "USDT TRC20";
    // A random wallet of the network: the admin history finds the request by it.
    const accountNumber = opts.accountNumber ?? (accountType.endsWith("BEP20") ? randomBep20Address() : randomTronAddress());
    const created = await call("POST", "/api/user/withdraw", { token, body: { accountType, accountNumber, amount } });
    expect(created.status).toBe(201);
    const pending = await call("GET", `/api/admin/withdrawals?status=pending&search=${encodeURIComponent(accountNumber)}`, { token: adminToken });
    expect(pending.body).toHaveLength(1);
    return pending.body[0]._id as string;
  }

  /** An admin accepts or declines a request. */
  function decide(kind: RequestKind, id: string, status: string, token = adminToken) {
    return call("PUT", `/api/admin/${kind}/${id}`, { token, body: { status } });
  }

  /** Credits a user through the real path: a deposit request the admin accepts. */
  async function fund(token: string, amount: number) {
    const accepted = await decide("deposits", await deposit(token, amount), "accepted");
    expect(accepted.status).toBe(200);
  }

  async function me(token: string) {
    return (await call("GET", "/api/auth", { token })).body;
  }

  /** An account's stored balance and hold in cents, read straight from the database. */
  async function account(id: string) {
    const [row] = await database.db.select({ balance: accounts.balance, held: accounts.held }).from(accounts).where(eq(accounts.id, id));
    if (!row) throw new Error(`no account ${id}`);
    return row;
  }

  /** Makes a user an admin; the API has no way to, by design. */
  async function promote(userId: string) {
    await database.db.update(users).set({ role: "admin" }).where(eq(users.id, userId));
  }

  return {
    app,
    deps,
    /** The mailer, when the harness was made with `mailer` options. */
    mailer,
    db: database.db,
    database,
    call,
    login,
    signUp,
    deposit,
    withdraw,
    decide,
    fund,
    me,
    account,
    promote,
    adminToken,
    adminReferralId,
    /** What the app logged (the 500 path); useMoneyHarness expects it empty after each test. */
    logged,
    /** Answers what was logged and forgets it, for tests that provoke a server error on purpose. */
    takeLogged: () => logged.splice(0),
    /** The ledger invariants, and the referral chains the receiver search relies on. */
    checkLedger: async () => {
      await expectLedgerInvariants(database.db);
      await expectTreeInvariants(database.db);
    },
    close: async () => {
      await mailer?.stop();
      await database.close();
      rmSync(backupDir, { recursive: true, force: true });
    },
  };
}

export type Harness = Awaited<ReturnType<typeof createHarness>>;

/**
 * A harness of its own for one test (for tests that need a database nobody else wrote to),
 * with the same promises as useMoneyHarness: no 500 path taken, and the ledger and the tree
 * whole at the end. Closed whatever happens.
 */
export async function withHarness<T>(use: (h: Harness) => Promise<T>, options: Parameters<typeof createHarness>[0] = {}): Promise<T> {
  const h = await createHarness(options);
  try {
    const result = await use(h);
    expect(h.logged).toEqual([]);
    await h.checkLedger();
    return result;
  } finally {
    await h.close();
  }
}
