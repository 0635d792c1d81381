import { expect } from "bun:test";
import { createApp } from "../server/app";
import { loadConfig, type Config } from "../server/config";
import type { Database } from "../db/client";
import { ADMIN, freshDatabase, testHasher } from "./db";
import { expectLedgerInvariants } from "./invariants";

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

/**
 * A fresh database and the app on top of it, with helpers that speak HTTP through
 * `app.request()` exactly as a client would.
 */
export async function createHarness(options: { config?: Partial<Config>; max?: number } = {}) {
  const database: Database = await freshDatabase({ max: options.max });
  const config = { ...loadConfig({}), ...options.config };
  const logged: unknown[] = [];
  const app = createApp({
    db: database.db,
    config,
    hasher: testHasher,
    jwtSecret: "test-secret-that-is-long-enough-for-hs256",
    log: (_m, e) => logged.push(e),
  });

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

  /** Credits a user through the real path: a deposit request the admin accepts. */
  async function fund(token: string, amount: number) {
    const transactionId = `tx-${crypto.randomUUID()}`;
    const created = await call("POST", "/api/user/deposit", { token, body: { address: "TWallet", transactionId, amount } });
    expect(created.status).toBe(201);
    const pending = await call("GET", `/api/admin/deposits?status=pending&search=${transactionId}`, { token: adminToken });
    const id = pending.body[0]._id;
    const accepted = await call("PUT", `/api/admin/deposits/${id}`, { token: adminToken, body: { status: "accepted" } });
    expect(accepted.status).toBe(200);
  }

  async function me(token: string) {
    return (await call("GET", "/api/auth", { token })).body;
  }

  return {
    app,
    db: database.db,
    database,
    call,
    login,
    signUp,
    fund,
    me,
    adminToken,
    adminReferralId,
    logged,
    checkLedger: () => expectLedgerInvariants(database.db),
    close: () => database.close(),
  };
}

export type Harness = Awaited<ReturnType<typeof createHarness>>;
