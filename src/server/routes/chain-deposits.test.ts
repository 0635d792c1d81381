import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { type Account, getAddress } from "viem";
import type { ChainSettings } from "../../core/chain/config";
import { checkDueDeposits } from "../../core/chain/deposits";
import { hexToTron } from "../../core/chain/tron";
import { adminAudit, deposits, transfers } from "../../db/schema";
import { MSG } from "../../shared/messages";
import { createHarness, type Harness, testDeps } from "../../testing/harness";
import { announceAnvilSkip, type Anvil, anvilSkipReason, deployToken, devAccounts, startAnvil, type Token } from "../../testing/evm/anvil";
import { createApp } from "../app";
import { loadChainConfig } from "../chainConfig";
import { loadConfig } from "../config";
import { startChainWatcher } from "../chainWatcher";

/*
 * Deposits verified on chain, against a real EVM node: anvil on 127.0.0.1, with ERC-20 tokens of
 * our own standing in for USDT on TRON (6 decimals, addresses and IDs written the TRON way) and
 * on BNB Smart Chain (18 decimals). Each test makes real transfers, submits the deposit through
 * the API as a member would, and runs the watcher's pass; the ledger invariants are checked
 * after each test.
 */

const skip = anvilSkipReason();
announceAnvilSkip("src/server/routes/chain-deposits.test.ts", skip);

const CONFIRMATIONS = 3;
let anvil: Anvil;
let h: Harness;
let chain: ChainSettings;
let usdt6: Token; // USDT on TRON, 6 decimals
let usdt18: Token; // USDT on BNB Smart Chain, 18 decimals
let other6: Token; // another token: never USDT
/** Our deposit addresses (0x form); on TRON the same 20 bytes in base58check. */
const OURS_TRON_HEX = "0x00000000000000000000000000000000000d3b05" as const;
const OURS_BSC_HEX = "0x0000000000000000000000000000000000b5c000" as const;
/** Somebody else's address. */
const ELSEWHERE = "0x00000000000000000000000000000000e15e1e5e" as const;

const [, alice, bob, carol, dave] = devAccounts as [Account, Account, Account, Account, Account];
const tron = (account: Account) => hexToTron(account.address);
const tronUnits = (dollars: number) => BigInt(Math.round(dollars * 100)) * 10_000n;
const bscUnits = (dollars: number) => BigInt(Math.round(dollars * 100)) * 10n ** 16n;
const bare = (hash: string) => hash.slice(2);

describe.skipIf(skip !== null)("deposits verified on chain (anvil)", () => {
  beforeAll(async () => {
    anvil = await startAnvil();
    // One after the other: the deployer's nonces follow each other.
    usdt6 = await deployToken(anvil, "USDT", 6);
    usdt18 = await deployToken(anvil, "USDT", 18);
    other6 = await deployToken(anvil, "FAKE", 6);
    for (const who of [alice, bob, carol, dave]) {
      await usdt6.mint(who.address, tronUnits(100_000));
      await usdt18.mint(who.address, bscUnits(100_000));
      await other6.mint(who.address, tronUnits(100_000));
    }
    chain = loadChainConfig({
      TRC20_RPC_URL: anvil.url,
      TRC20_USDT_CONTRACT: hexToTron(usdt6.address),
      TRC20_DEPOSIT_ADDRESS: hexToTron(OURS_TRON_HEX),
      TRC20_CONFIRMATIONS: String(CONFIRMATIONS),
      BEP20_RPC_URL: anvil.url,
      BEP20_USDT_CONTRACT: usdt18.address,
      BEP20_DEPOSIT_ADDRESS: OURS_BSC_HEX,
      BEP20_CONFIRMATIONS: String(CONFIRMATIONS),
      CHAIN_POLL_SECONDS: "1",
    });
    h = await createHarness({ config: { chain } });
  });
  afterEach(async () => {
    expect(h.logged).toEqual([]);
    await h.checkLedger();
  });
  afterAll(async () => {
    await h?.close();
    await anvil?.stop();
  });

  const submit = (token: string, body: Record<string, unknown>) => h.call("POST", "/api/user/deposit", { token, body });
  const pass = (settings = chain) => checkDueDeposits(h.db, settings);
  /** Every pending request due now (instead of waiting CHAIN_POLL_SECONDS). */
  const makeDue = () => h.db.execute(sql`UPDATE deposits SET next_check_at = now() WHERE status = 'pending' AND next_check_at IS NOT NULL`);
  const listed = async (transactionId: string, status?: "pending") => {
    const res = await h.call("GET", `/api/admin/deposits?search=${encodeURIComponent(transactionId)}${status ? `&status=${status}` : ""}`, { token: h.adminToken });
    expect(res.body).toHaveLength(1);
    return res.body[0];
  };
  const creditsOf = async (id: string) => h.db.select().from(transfers).where(eq(transfers.requestId, id));

  /** A member whose wallet is `account`, and a TRC20 deposit of `dollars` they sent and now claim. */
  async function claimTron(token: string, account: Account, hash: string, dollars: number) {
    const res = await submit(token, { address: tron(account), transactionId: bare(hash), amount: dollars });
    expect(res).toMatchObject({ status: 201, body: { msg: MSG.depositSubmittedOnChain } });
    return listed(bare(hash));
  }

  test("an exact TRC20 transfer is credited once, by the platform itself, audited, with its evidence", async () => {
    const member = await h.signUp();
    const hash = await usdt6.transfer(alice, OURS_TRON_HEX, tronUnits(100));
    await anvil.mine(CONFIRMATIONS - 1);
    // The earlier client sends no network: TRC20.
    const row = await claimTron(member.token, alice, hash, 100);
    expect(row).toMatchObject({ status: "pending", network: "TRC20", transactionId: bare(hash), canonicalTransactionId: bare(hash), chain: null, checking: true });

    expect(await pass()).toMatchObject({ credited: 1 });
    expect((await h.me(member.token)).balance).toBe(100);
    const after = await listed(bare(hash));
    expect(after).toMatchObject({ status: "accepted", checking: false });
    expect(after.chain).toMatchObject({
      verdict: "match",
      found: true,
      status: "success",
      confirmations: CONFIRMATIONS,
      requiredConfirmations: CONFIRMATIONS,
      token: hexToTron(usdt6.address),
      tokenIsUsdt: true,
      from: tron(alice),
      to: hexToTron(OURS_TRON_HEX),
      amount: "100.00",
      transfers: 1,
    });
    const credits = await creditsOf(after._id);
    expect(credits.map((t) => [t.fromAccount, t.toAccount, t.amount, t.kind])).toEqual([["external", member.id, 10_000n, "deposit"]]);
    const [stored] = await h.db.select().from(deposits).where(eq(deposits.id, after._id));
    expect(stored).toMatchObject({ decidedBy: "platform", txHash: bare(hash) });

    // The audit trail names the platform, with the evidence it decided on.
    const [record] = await h.db.select().from(adminAudit).where(eq(adminAudit.targetId, after._id));
    expect(record).toMatchObject({ adminId: null, action: "deposit_decision", targetType: "deposit" });
    expect(record!.after).toMatchObject({ status: "accepted", by: "platform", network: "TRC20", transactionId: bare(hash), chain: { amount: "100.00" } });
    const audit = (await h.call("GET", "/api/admin/audit", { token: h.adminToken })).body.entries;
    expect(audit.find((e: { targetId: string }) => e.targetId === after._id)).toMatchObject({ actor: "platform", adminName: "Platform", adminEmail: "" });

    // Looked at again, decided by an admin again: nothing moves twice.
    expect(await pass()).toMatchObject({ credited: 0 });
    expect(await h.decide("deposits", after._id, "accepted")).toMatchObject({ status: 409, body: { code: "already_processed" } });
    expect(await creditsOf(after._id)).toHaveLength(1);
    // The member sees it, with its transaction ID and network.
    const mine = (await h.call("GET", "/api/user/requests", { token: member.token })).body.items;
    expect(mine[0]).toMatchObject({ type: "deposit", status: "accepted", network: "TRC20", transactionId: bare(hash) });
  });

  test("an exact BEP20 transfer (18 decimals, 0x IDs and addresses) is credited once, to the cent", async () => {
    const member = await h.signUp();
    const hash = await usdt18.transfer(bob, OURS_BSC_HEX, bscUnits(12.34));
    await anvil.mine(CONFIRMATIONS);
    const res = await submit(member.token, { network: "BEP20", address: bob.address, transactionId: hash.toUpperCase().replace("0X", "0x"), amount: "12.34" });
    expect(res.status).toBe(201);
    expect(await pass()).toMatchObject({ credited: 1 });
    expect((await h.me(member.token)).balance).toBe(12.34);
    const row = await listed(hash);
    expect(row).toMatchObject({ network: "BEP20", status: "accepted", transactionId: hash, canonicalTransactionId: hash, address: bob.address });
    expect(row.chain).toMatchObject({ verdict: "match", amount: "12.34", from: bob.address, to: getAddress(OURS_BSC_HEX), token: getAddress(usdt18.address) });
  });

  test("the same transfer submitted again, in any spelling, by anyone, is refused; no spelling is credited twice", async () => {
    const first = await h.signUp();
    const second = await h.signUp();
    const hash = await usdt6.transfer(carol, OURS_TRON_HEX, tronUnits(100));
    await anvil.mine(CONFIRMATIONS);
    const id = bare(hash);
    await claimTron(first.token, carol, hash, 100);
    expect(await pass()).toMatchObject({ credited: 1 });

    const duplicate = { status: 400, body: { code: "duplicate_transaction", msg: MSG.duplicateTransaction, field: "transactionId" } };
    const letter = /[a-f]/.exec(id)!;
    const at = letter.index;
    const spellings: [string, unknown][] = [
      [id, duplicate],
      [id.toUpperCase(), duplicate],
      [`  ${id}\t`, duplicate],
      // Fullwidth letters fold into the same ID (NFKC): the same transaction.
      [`${id.slice(0, at)}${String.fromCharCode(letter[0].charCodeAt(0) + 0xfee0)}${id.slice(at + 1)}`, duplicate],
      [`0x${id}`, { status: 400, body: { code: "validation", msg: expect.stringContaining("without 0x") } }],
      [`${id}\u200b`, { status: 400, body: { code: "validation", msg: expect.stringContaining("invisible character") } }],
      [`\u200b${id}`, { status: 400, body: { code: "validation", msg: expect.stringContaining("invisible character") } }],
      [`${id.slice(0, 32)}\u2060${id.slice(32)}`, { status: 400, body: { code: "validation", msg: expect.stringContaining("invisible character") } }],
      [`${id.slice(0, at + 1)}\u0301${id.slice(at + 1)}`, { status: 400, body: { code: "validation", msg: expect.stringContaining("combining mark") } }],
      // A Cyrillic letter that looks like a Latin one.
      [`\u0430${id.slice(1)}`, { status: 400, body: { code: "validation", msg: expect.stringContaining("U+0430") } }],
    ];
    for (const [spelling, answer] of spellings) {
      for (const who of [first, second]) {
        const res = await submit(who.token, { address: tron(carol), transactionId: spelling, amount: 100 });
        expect({ spelling, status: res.status, body: res.body }).toEqual({ spelling, ...(answer as object) } as never);
      }
    }
    // Claimed on the other network (0x in front) it is the same transaction: refused too, never credited twice.
    expect(await submit(second.token, { network: "BEP20", address: carol.address, transactionId: hash, amount: 100 })).toMatchObject(duplicate);
    expect(await pass()).toMatchObject({ credited: 0 });
    expect((await h.me(first.token)).balance).toBe(100);
    expect((await h.me(second.token)).balance).toBe(0);
    const rows = await h.db.select().from(deposits).where(eq(deposits.txHash, id));
    expect(rows.map((r) => [r.network, r.status])).toEqual([["TRC20", "accepted"]]);
  });

  /** Submits a claim and runs a pass: the request must wait for an admin, with `evidence`. */
  async function expectForAdmin(token: string, body: Record<string, unknown>, evidence: Record<string, unknown>, checking = false) {
    const res = await submit(token, body);
    expect(res.status).toBe(201);
    const result = await pass();
    expect(result.credited).toBe(0);
    const row = await listed(String(body.transactionId), "pending");
    expect(row).toMatchObject({ status: "pending", checking });
    expect(row.chain).toMatchObject(evidence);
    expect(await creditsOf(row._id)).toEqual([]);
    return row;
  }

  test("a transfer to another address, of less than claimed, of another token, from another sender, a reverted one and an unknown hash are never credited automatically: each waits for an admin with its evidence", async () => {
    const member = await h.signUp();
    const claim = (account: Account, hash: string, amount: number) => ({ address: tron(account), transactionId: bare(hash), amount });

    const elsewhere = await usdt6.transfer(alice, ELSEWHERE, tronUnits(50));
    const less = await usdt6.transfer(alice, OURS_TRON_HEX, tronUnits(49.99));
    const otherToken = await other6.transfer(alice, OURS_TRON_HEX, tronUnits(50));
    const fromBob = await usdt6.transfer(bob, OURS_TRON_HEX, tronUnits(50));
    const reverted = await usdt6.revertedTransfer(dave, OURS_TRON_HEX, tronUnits(10_000_000));
    await anvil.mine(CONFIRMATIONS);
    expect((await anvil.client.getTransactionReceipt({ hash: reverted })).status).toBe("reverted");

    const base = { found: true, status: "success", requiredConfirmations: CONFIRMATIONS, transfers: 1 };
    await expectForAdmin(member.token, claim(alice, elsewhere, 50), { ...base, verdict: "not_to_us", to: hexToTron(ELSEWHERE), from: tron(alice), tokenIsUsdt: true, amount: "50.00" });
    const short = await expectForAdmin(member.token, claim(alice, less, 50), { ...base, verdict: "wrong_amount", amount: "49.99", to: hexToTron(OURS_TRON_HEX) });
    await expectForAdmin(member.token, claim(alice, otherToken, 50), { ...base, verdict: "wrong_token", token: hexToTron(other6.address), tokenIsUsdt: false, amount: "50000000" });
    // The member says Alice's wallet sent it; Bob's did.
    await expectForAdmin(member.token, claim(alice, fromBob, 50), { ...base, verdict: "wrong_sender", from: tron(bob) });
    await expectForAdmin(member.token, claim(dave, reverted, 50), { verdict: "reverted", found: true, status: "reverted", transfers: 0 });
    // Not on chain: looked for again for a while (it may not be mined yet), and meanwhile the admin sees it.
    const unknown = `${"ab".repeat(31)}cd`;
    await expectForAdmin(member.token, { address: tron(alice), transactionId: unknown, amount: 50 }, { verdict: "not_found", found: false, status: null }, true);
    await makeDue();
    expect(await pass()).toMatchObject({ credited: 0 });
    expect((await h.me(member.token)).balance).toBe(0);

    // The admin decides as today, evidence beside it: accepting the short one credits what was claimed, once.
    expect(await h.decide("deposits", short._id, "accepted")).toMatchObject({ status: 200 });
    expect((await h.me(member.token)).balance).toBe(50);
    expect(await listed(bare(less))).toMatchObject({ status: "accepted", chain: { verdict: "wrong_amount" } });
  });

  test("a transfer with too few confirmations waits, and is credited once the chain moves on", async () => {
    const member = await h.signUp();
    const hash = await usdt6.transfer(dave, OURS_TRON_HEX, tronUnits(7.5));
    const row = await claimTron(member.token, dave, hash, 7.5);
    expect(await pass()).toMatchObject({ credited: 0, waiting: 1 });
    expect(await listed(bare(hash))).toMatchObject({ status: "pending", checking: true, chain: { verdict: "confirming", confirmations: 1 } });
    // Not due yet: the next look is CHAIN_POLL_SECONDS away.
    expect(await pass()).toMatchObject({ credited: 0, waiting: 0 });
    await makeDue();
    expect(await pass()).toMatchObject({ waiting: 1 });
    await anvil.mine(CONFIRMATIONS - 1);
    await makeDue();
    expect(await pass()).toMatchObject({ credited: 1 });
    expect((await h.me(member.token)).balance).toBe(7.5);
    expect(await listed(bare(hash))).toMatchObject({ status: "accepted", checking: false, chain: { verdict: "match", confirmations: CONFIRMATIONS } });
    await makeDue();
    expect(await pass()).toMatchObject({ credited: 0 });
    expect(await creditsOf(row._id)).toHaveLength(1);
  });

  test("a transaction with two transfers credits only the one to us", async () => {
    const member = await h.signUp();
    const other = await h.signUp();
    const hash = await usdt6.transferTwo(alice, [ELSEWHERE, tronUnits(70)], [OURS_TRON_HEX, tronUnits(30)]);
    await anvil.mine(CONFIRMATIONS);
    // Claiming what went elsewhere, or both together, is no match.
    await expectForAdmin(other.token, { address: tron(alice), transactionId: bare(hash), amount: 70 }, { verdict: "wrong_amount", transfers: 2, to: hexToTron(OURS_TRON_HEX), amount: "30.00" });
    expect(await h.decide("deposits", (await listed(bare(hash), "pending"))._id, "declined")).toMatchObject({ status: 200 });
    await expectForAdmin(other.token, { address: tron(alice), transactionId: bare(hash), amount: 100 }, { verdict: "wrong_amount" });
    expect(await h.decide("deposits", (await listed(bare(hash), "pending"))._id, "declined")).toMatchObject({ status: 200 });
    // The part sent to us is credited, once.
    const res = await submit(member.token, { address: tron(alice), transactionId: bare(hash), amount: 30 });
    expect(res.status).toBe(201);
    expect(await pass()).toMatchObject({ credited: 1 });
    const accepted = (await h.call("GET", `/api/admin/deposits?status=accepted&search=${bare(hash)}`, { token: h.adminToken })).body;
    expect(accepted.map((r: { amount: number; chain: { amount: string } }) => [r.amount, r.chain.amount])).toEqual([[30, "30.00"]]);
    expect((await h.me(member.token)).balance).toBe(30);
    expect((await submit(other.token, { address: tron(alice), transactionId: bare(hash), amount: 70 })).body.code).toBe("duplicate_transaction");
  });

  test("a node that fails or times out never credits and never loses the request: it is looked at again", async () => {
    const member = await h.signUp();
    const hash = await usdt6.transfer(bob, OURS_TRON_HEX, tronUnits(20));
    await anvil.mine(CONFIRMATIONS);
    const row = await claimTron(member.token, bob, hash, 20);
    // A node on loopback that never answers, and one that answers 500.
    const silent = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Promise<Response>(() => {}) });
    const broken = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("down", { status: 500 }) });
    try {
      for (const url of [`http://127.0.0.1:${silent.port}`, `http://127.0.0.1:${broken.port}`]) {
        const down: ChainSettings = { ...chain, rpcTimeoutMs: 300, networks: { ...chain.networks, TRC20: { ...chain.networks.TRC20, rpcUrl: url } } };
        expect(await pass(down)).toMatchObject({ credited: 0 });
        const seen = await listed(bare(hash));
        expect(seen).toMatchObject({ status: "pending", checking: true, chain: { verdict: "rpc_error", found: false } });
        expect(seen.chain.error).toBeTruthy();
        await makeDue();
      }
    } finally {
      silent.stop(true);
      broken.stop(true);
    }
    expect(await creditsOf(row._id)).toEqual([]);
    // The node is back: the next look credits it.
    expect(await pass()).toMatchObject({ credited: 1 });
    expect((await h.me(member.token)).balance).toBe(20);
  });

  test("the watcher runs by itself: a deposit is credited after the member submits it, without anyone running a pass", async () => {
    const watcher = startChainWatcher({ db: h.db, config: { ...testDeps(h.db).config, chain } });
    try {
      const member = await h.signUp();
      const hash = await usdt6.transfer(carol, OURS_TRON_HEX, tronUnits(3));
      await claimTron(member.token, carol, hash, 3);
      // 1 confirmation: it waits for the chain, looking again every CHAIN_POLL_SECONDS (1 s here).
      await Bun.sleep(1_500);
      expect(await listed(bare(hash))).toMatchObject({ status: "pending", chain: { verdict: "confirming" } });
      await anvil.mine(CONFIRMATIONS);
      const deadline = Date.now() + 15_000;
      while ((await listed(bare(hash))).status === "pending" && Date.now() < deadline) await Bun.sleep(200);
      expect((await h.me(member.token)).balance).toBe(3);
    } finally {
      await watcher.stop();
    }
  });

  test("a request whose network is no longer verified (its node taken out of the configuration) is not shown as being checked", async () => {
    const member = await h.signUp();
    const hash = await usdt6.transfer(dave, OURS_TRON_HEX, tronUnits(4));
    await claimTron(member.token, dave, hash, 4);
    const [queued] = (await h.call("GET", `/api/admin/deposits?search=${bare(hash)}`, { token: h.adminToken })).body;
    expect(queued).toMatchObject({ status: "pending", checking: true });
    // The same database served by a process configured without TRON's node.
    const unconfigured = createApp(testDeps(h.db, { config: { chain: { ...chain, networks: { ...chain.networks, TRC20: loadChainConfig({}).networks.TRC20 } } } }));
    const res = await unconfigured.request(`/api/admin/deposits?search=${bare(hash)}`, { headers: { "x-auth-token": h.adminToken } });
    expect(res.status).toBe(200);
    expect((await res.json())[0]).toMatchObject({ status: "pending", checking: false });
    expect(await h.decide("deposits", queued._id, "declined")).toMatchObject({ status: 200 });
  });

  test("without a network verified on chain, deposits wait for an admin as before (the embedded default)", async () => {
    const manual = await createHarness();
    try {
      const member = await manual.signUp();
      const hash = await usdt6.transfer(dave, OURS_TRON_HEX, tronUnits(5));
      await anvil.mine(CONFIRMATIONS);
      const res = await manual.call("POST", "/api/user/deposit", { token: member.token, body: { address: tron(dave), transactionId: bare(hash), amount: 5 } });
      expect(res).toMatchObject({ status: 201, body: { msg: MSG.depositSubmitted } });
      expect(await checkDueDeposits(manual.db, loadConfig({}).chain)).toMatchObject({ credited: 0 });
      // Even a pass with networks configured leaves it alone: it was never queued.
      expect(await checkDueDeposits(manual.db, chain)).toMatchObject({ credited: 0, waiting: 0, forAdmin: 0 });
      const [row] = (await manual.call("GET", `/api/admin/deposits?search=${bare(hash)}`, { token: manual.adminToken })).body;
      expect(row).toMatchObject({ status: "pending", chain: null, checking: false });
      await manual.checkLedger();
    } finally {
      await manual.close();
    }
  });
});
