import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import postgres from "postgres";
import type { Account } from "viem";
import { ServerProcess } from "../../scripts/chaos/servers";
import type { ChainSettings } from "../core/chain/config";
import { checkDueDeposits } from "../core/chain/deposits";
import { checkDeposit } from "../core/chain/verify";
import { hexToTron } from "../core/chain/tron";
import { openDatabase, rowsOf, type Database } from "../db/client";
import { adminAudit, deposits, transfers } from "../db/schema";
import { TEST_DATABASE_URL } from "../testing/db";
import { announceAnvilSkip, type Anvil, anvilSkipReason, deployToken, devAccounts, startAnvil, type Token } from "../testing/evm/anvil";
import { expectLedgerInvariants } from "../testing/invariants";
import { api, freePort } from "../testing/serverProcesses";
import { loadChainConfig } from "./chainConfig";

/*
 * Several server processes on one Postgres, each with its chain watcher, never credit one
 * transfer twice. Two real server processes (bun src/server/index.ts) share a database made for
 * this file and a local anvil; members submit deposits to either, the chain moves on, and both
 * watchers race to credit them. Then, in this process, watchers on separate connection pools
 * claim the same due requests at once with a slow node. Postgres only (PGlite has one
 * connection: nothing races there): CI runs it in its Postgres pass.
 */

const skip = !TEST_DATABASE_URL ? "it needs Postgres (TEST_DATABASE_URL): several processes share one database" : anvilSkipReason();
announceAnvilSkip("src/server/chain-processes.test.ts", skip);

const CONFIRMATIONS = 3;
const OURS = "0x00000000000000000000000000000000000d3b05" as const;
const ADMIN = { email: "admin@chain.test", password: "admin-chain-password" };

let anvil: Anvil;
let usdt: Token;
let dbName: string;
let dbUrl: string;
let database: Database;
let env: Record<string, string>;
const servers: ServerProcess[] = [];

const units = (dollars: number) => BigInt(Math.round(dollars * 100)) * 10_000n;
const tron = (account: Account) => hexToTron(account.address);

function withDatabase(url: string, name: string) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

describe.skipIf(skip !== null)("deposits verified on chain, several processes on one Postgres", () => {
  beforeAll(async () => {
    anvil = await startAnvil();
    usdt = await deployToken(anvil, "USDT", 6);
    for (const who of devAccounts.slice(1)) await usdt.mint(who.address, units(1_000_000));
    dbName = `chain_${process.pid}_${crypto.randomUUID().replaceAll("-", "").slice(0, 10)}`;
    const admin = postgres(TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${dbName}`);
    await admin.end();
    dbUrl = withDatabase(TEST_DATABASE_URL!, dbName);
    env = {
      DATABASE_URL: dbUrl,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      JWT_SECRET: "chain-processes-secret-long-enough-for-hs256",
      SIGNUP_LIMIT: "0",
      TRC20_RPC_URL: anvil.url,
      TRC20_USDT_CONTRACT: hexToTron(usdt.address),
      TRC20_DEPOSIT_ADDRESS: hexToTron(OURS),
      TRC20_CONFIRMATIONS: String(CONFIRMATIONS),
      CHAIN_POLL_SECONDS: "1",
    };
    // One first, so that it migrates and seeds; then the second.
    for (let i = 0; i < 2; i++) {
      const server = new ServerProcess(await freePort(), env);
      await server.start();
      servers.push(server);
    }
    database = await openDatabase({ databaseUrl: dbUrl, max: 10 });
  });

  afterAll(async () => {
    for (const server of servers) await server.stop();
    await database?.close();
    await anvil?.stop();
    if (dbName) {
      const admin = postgres(TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
      await admin.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await admin.end();
    }
  });

  test("two server processes, both watching the chain, credit every transfer exactly once", async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const senders = devAccounts.slice(1);
    const members: { token: string; id: string; expected: number }[] = [];
    for (let i = 0; i < 8; i++) {
      const email = `member${i}@chain.test`;
      const at = i % 2 === 0 ? a : b;
      const adminToken = (await api(at, "POST", "/auth/login", undefined, ADMIN)).body.token as string;
      const referralId = (await api(at, "GET", "/auth/admin-referral-id", adminToken)).body.referralId;
      expect((await api(at, "POST", "/auth/register", undefined, { name: `Member ${i}`, email, password: "member-password", referralId })).status).toBe(201);
      const token = (await api(at, "POST", "/auth/login", undefined, { email, password: "member-password" })).body.token as string;
      const id = (await api(at, "GET", "/auth", token)).body._id as string;
      members.push({ token, id, expected: 0 });
    }

    // Three deposits each, every one submitted to one server and (the same ID) to the other at once.
    const claims: { hash: string; member: number; dollars: number }[] = [];
    for (let round = 0; round < 3; round++) {
      for (const [m, member] of members.entries()) {
        const sender = senders[m % senders.length]!;
        const dollars = 1 + m + round / 100;
        const hash = await usdt.transfer(sender, OURS, units(dollars));
        const body = { address: tron(sender), transactionId: hash.slice(2), amount: dollars.toFixed(2) };
        const answers = await Promise.all([a, b].map((server) => api(server, "POST", "/user/deposit", member.token, body)));
        expect(answers.map((r) => r.status).sort()).toEqual([201, 400]);
        member.expected += Math.round(dollars * 100);
        claims.push({ hash, member: m, dollars });
      }
    }
    // Both watchers have looked already: too few confirmations. Now the chain moves on, and both race.
    await anvil.mine(CONFIRMATIONS);
    const deadline = Date.now() + 30_000;
    let pending = claims.length;
    while (pending > 0 && Date.now() < deadline) {
      await Bun.sleep(250);
      pending = rowsOf<{ n: number }>(await database.db.execute(sql`SELECT count(*)::int AS n FROM deposits WHERE status = 'pending'`))[0]!.n;
    }
    expect(pending).toBe(0);

    const rows = await database.db.select().from(deposits);
    expect(rows).toHaveLength(claims.length);
    for (const row of rows) {
      expect(row).toMatchObject({ status: "accepted", decidedBy: "platform" });
      const credits = await database.db.select().from(transfers).where(eq(transfers.requestId, row.id));
      expect(credits).toHaveLength(1);
    }
    const audits = await database.db.select().from(adminAudit).where(sql`${adminAudit.adminId} IS NULL`);
    expect(audits).toHaveLength(claims.length);
    for (const member of members) {
      const [account] = rowsOf<{ balance: string }>(await database.db.execute(sql`SELECT balance::text AS balance FROM accounts WHERE id = ${member.id}`));
      expect(BigInt(account!.balance)).toBe(BigInt(member.expected));
    }
    await expectLedgerInvariants(database.db);
  });

  test("watchers on separate connections claiming the same due requests at once, with a slow node, credit each once", async () => {
    const [a] = servers as [ServerProcess];
    // The servers' own watchers stay out of it: these requests are on a network only this test verifies.
    const chain: ChainSettings = loadChainConfig({
      BEP20_RPC_URL: anvil.url,
      BEP20_USDT_CONTRACT: usdt.address,
      BEP20_DEPOSIT_ADDRESS: OURS,
      BEP20_CONFIRMATIONS: "1",
      CHAIN_POLL_SECONDS: "1",
    });
    chain.networks.BEP20.decimals = 6;
    const email = "racer@chain.test";
    const adminToken = (await api(a, "POST", "/auth/login", undefined, ADMIN)).body.token as string;
    const referralId = (await api(a, "GET", "/auth/admin-referral-id", adminToken)).body.referralId;
    await api(a, "POST", "/auth/register", undefined, { name: "Racer", email, password: "racer-password", referralId });
    const token = (await api(a, "POST", "/auth/login", undefined, { email, password: "racer-password" })).body.token as string;
    const racerId = (await api(a, "GET", "/auth", token)).body._id as string;
    const sender = devAccounts[1]!;
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const hash = await usdt.transfer(sender, OURS, units(2));
      // Submitted as BEP20 (the servers do not verify it: manual for them), then queued by hand for this test's watchers.
      const res = await api(a, "POST", "/user/deposit", token, { network: "BEP20", address: sender.address, transactionId: hash, amount: 2 });
      expect(res.status).toBe(201);
      const [row] = await database.db.select({ id: deposits.id }).from(deposits).where(eq(deposits.txHash, hash.slice(2)));
      ids.push(row!.id);
    }
    await database.db.execute(sql`UPDATE deposits SET next_check_at = now() WHERE network = 'BEP20' AND status = 'pending'`);

    const pools = await Promise.all(Array.from({ length: 4 }, () => openDatabase({ databaseUrl: dbUrl, max: 3 })));
    try {
      const slow: typeof checkDeposit = async (...args) => {
        await Bun.sleep(30 + Math.random() * 60);
        return checkDeposit(...args);
      };
      const results = await Promise.all(pools.flatMap((pool) => [0, 1].map(() => checkDueDeposits(pool.db, chain, { check: slow, batch: 3 }))));
      expect(results.reduce((n, r) => n + r.credited, 0)).toBe(ids.length);
      // Run again, leases or not: nothing more is credited.
      await database.db.execute(sql`UPDATE deposits SET next_check_at = now() WHERE network = 'BEP20'`);
      const again = await Promise.all(pools.map((pool) => checkDueDeposits(pool.db, chain, { check: slow })));
      expect(again.reduce((n, r) => n + r.credited, 0)).toBe(0);
    } finally {
      await Promise.all(pools.map((pool) => pool.close()));
    }
    for (const id of ids) expect(await database.db.select().from(transfers).where(eq(transfers.requestId, id))).toHaveLength(1);
    const [account] = rowsOf<{ balance: string }>(await database.db.execute(sql`SELECT balance::text AS balance FROM accounts WHERE id = ${racerId}`));
    expect(BigInt(account!.balance)).toBe(2_000n);
    await expectLedgerInvariants(database.db);
  });
});
