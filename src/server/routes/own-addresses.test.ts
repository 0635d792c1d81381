import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { HDKey } from "@scure/bip32";
import { mnemonicToSeedSync } from "@scure/bip39";
import { eq, sql } from "drizzle-orm";
import { type Account } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import type { ChainSettings, WatchedNetwork } from "../../core/chain/config";
import { checkAddressKeys } from "../../core/chain/ownAddresses";
import { newWatchState, watchNetwork } from "../../core/chain/watch";
import { hexToTron, tronToHex } from "../../core/chain/tron";
import { adminAudit, chainWatch, deposits, transfers } from "../../db/schema";
import { createHarness, type Harness } from "../../testing/harness";
import { announceAnvilSkip, type Anvil, anvilSkipReason, deployToken, devAccounts, startAnvil, type Token } from "../../testing/evm/anvil";
import { loadChainConfig } from "../chainConfig";

/*
 * Deposits to members' own addresses, against a real EVM node: anvil on 127.0.0.1, test tokens
 * standing in for USDT on BNB Smart Chain (18 decimals) and on TRON (6 decimals, addresses
 * written the TRON way). Members ask for their address, wallets send to it, blocks are mined, and
 * the address watcher's passes credit what arrived; the ledger invariants after each test.
 */

const skip = anvilSkipReason();
announceAnvilSkip("src/server/routes/own-addresses.test.ts", skip);

const CONFIRMATIONS = 3;
const MNEMONIC = "test test test test test test test test test test test junk";
const root = HDKey.fromMasterSeed(mnemonicToSeedSync(MNEMONIC));
/** The operator's account keys: the server is given only their public halves. */
const BSC_ACCOUNT = root.derive("m/44'/60'/0'");
const TRON_ACCOUNT = root.derive("m/44'/195'/0'");
/** Child 0/i's address, as the operator's wallet derives it from the recovery phrase. */
const walletAddress = (coin: 60 | 195, i: number) => mnemonicToAccount(MNEMONIC, { path: `m/44'/${coin}'/0'/0/${i}` as never }).address;

const [, alice] = devAccounts as [Account, Account];
const bscUnits = (dollars: number) => BigInt(Math.round(dollars * 100)) * 10n ** 16n;
const tronUnits = (dollars: number) => BigInt(Math.round(dollars * 100)) * 10_000n;

let anvil: Anvil;
let h: Harness;
let chain: ChainSettings;
let usdt18: Token;
let usdt6: Token;
let other18: Token;

describe.skipIf(skip !== null)("deposits to members' own addresses (anvil)", () => {
  beforeAll(async () => {
    anvil = await startAnvil();
    usdt18 = await deployToken(anvil, "USDT", 18);
    usdt6 = await deployToken(anvil, "USDT", 6);
    other18 = await deployToken(anvil, "FAKE", 18);
    await usdt18.mint(alice.address, bscUnits(100_000));
    await usdt6.mint(alice.address, tronUnits(100_000));
    await other18.mint(alice.address, bscUnits(100_000));
    chain = loadChainConfig({
      BEP20_RPC_URL: anvil.url,
      BEP20_USDT_CONTRACT: usdt18.address,
      BEP20_XPUB: BSC_ACCOUNT.publicExtendedKey,
      BEP20_CONFIRMATIONS: String(CONFIRMATIONS),
      TRC20_RPC_URL: anvil.url,
      TRC20_USDT_CONTRACT: hexToTron(usdt6.address),
      TRC20_XPUB: TRON_ACCOUNT.publicExtendedKey,
      TRC20_CONFIRMATIONS: String(CONFIRMATIONS),
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

  const bsc = () => chain.networks.BEP20 as WatchedNetwork;
  const tron = () => chain.networks.TRC20 as WatchedNetwork;
  /** One server process's watcher: its own state, as after a start. */
  const watcher = (settings = bsc()) => {
    const state = newWatchState(settings.network);
    return () => watchNetwork(h.db, settings, state);
  };
  const addressOf = async (token: string, network = "BEP20") => {
    const res = await h.call("GET", `/api/user/deposit/address?network=${network}`, { token });
    expect(res.status).toBe(200);
    return res.body as { network: string; address: string; index: number; confirmations: number };
  };
  const hexOf = (address: string) => address.toLowerCase() as `0x${string}`;
  const requests = async (token: string) => (await h.call("GET", "/api/user/requests?type=deposit", { token })).body.items;
  const credits = (userId: string) => h.db.select().from(transfers).where(eq(transfers.toAccount, userId));

  test("each member's address is the account key's next child, given once; another network has its own; a network without a key answers 409", async () => {
    const first = await h.signUp();
    const second = await h.signUp();
    const a = await addressOf(first.token);
    const b = await addressOf(second.token);
    expect(a.address).not.toBe(b.address);
    expect(await addressOf(first.token)).toEqual(a);
    // The operator's wallet, holding the phrase, derives the same addresses.
    expect(a).toEqual({ network: "BEP20", address: walletAddress(60, a.index), index: a.index, confirmations: CONFIRMATIONS });
    expect(b.index).toBe(a.index + 1);
    expect(b.address).toBe(walletAddress(60, b.index));

    const t = await addressOf(first.token, "TRC20");
    expect(t.address).toBe(hexToTron(walletAddress(195, t.index)));
    expect(t.address).toMatch(/^T/);

    expect(await h.call("GET", "/api/user/deposit/address?network=ETH", { token: first.token })).toMatchObject({ status: 400, body: { code: "validation" } });
    expect(await h.call("GET", "/api/user/deposit/address?network=BEP20")).toMatchObject({ status: 401 });
    const config = (await h.call("GET", "/api/config")).body;
    expect(config.networks.map((n: { ownAddresses: boolean }) => n.ownAddresses)).toEqual([true, true]);

    const plain = await createHarness({ config: { chain: loadChainConfig({}) } });
    try {
      const member = await plain.signUp();
      expect(await plain.call("GET", "/api/user/deposit/address?network=BEP20", { token: member.token })).toMatchObject({
        status: 409,
        body: { code: "deposit_address_unavailable" },
      });
    } finally {
      await plain.close();
    }
  });

  test("a transfer to a member's address is confirming first, then credited once with no form: through a restart and two processes watching", async () => {
    const member = await h.signUp();
    const { address } = await addressOf(member.token);
    const processA = watcher();
    await processA();
    const hash = await usdt18.transfer(alice, hexOf(address), bscUnits(25));

    // One confirmation of three: shown, not credited.
    expect(await processA()).toMatchObject({ credited: 0, confirming: 1, delayed: null });
    expect((await h.me(member.token)).balance).toBe(0);
    expect(await requests(member.token)).toMatchObject([{ type: "deposit", status: "pending", amount: 25, toAddress: address, confirmations: { seen: 1, required: 3 }, transactionId: hash }]);

    await anvil.mine(CONFIRMATIONS - 1);
    // A restarted process (its first pass steps back) and another one, at once.
    const [restarted, other] = await Promise.all([watcher()(), watcher()()]);
    expect(restarted.credited + other.credited).toBe(1);
    expect((await h.me(member.token)).balance).toBe(25);
    for (const again of [processA, watcher()]) expect(await again()).toMatchObject({ credited: 0 });
    expect(await credits(member.id)).toHaveLength(1);

    const [row] = await h.db.select().from(deposits).where(eq(deposits.txHash, hash.slice(2)));
    expect(row).toMatchObject({ status: "accepted", decidedBy: "platform", network: "BEP20", logIndex: 0, toAddress: address, chainAmount: "25.00", amount: 2500n });
    expect(await requests(member.token)).toMatchObject([{ status: "accepted", toAddress: address, confirmations: null, belowMinimum: false }]);
    const [record] = await h.db.select().from(adminAudit).where(eq(adminAudit.targetId, row!.id));
    expect(record).toMatchObject({ adminId: null, action: "deposit_decision" });
    expect(record!.after).toMatchObject({ by: "platform", logIndex: 0, chain: { to: address, amount: "25.00" } });
    const notes = (await h.call("GET", "/api/user/notifications", { token: member.token })).body.items;
    expect(notes[0]).toMatchObject({ kind: "deposit_decided", text: "Your deposit of 25 USDT was accepted and added to your balance." });
  });

  test("two transfers in one transaction to two members credit each; another token, or an address that is no member's, credits nobody", async () => {
    const [m1, m2] = [await h.signUp(), await h.signUp()];
    const [a1, a2] = [await addressOf(m1.token), await addressOf(m2.token)];
    const pass = watcher();
    await pass();
    await usdt18.transferTwo(alice, [hexOf(a1.address), bscUnits(10)], [hexOf(a2.address), bscUnits(12.5)]);
    await other18.transfer(alice, hexOf(a1.address), bscUnits(500));
    await usdt18.transfer(alice, "0x00000000000000000000000000000000e15e1e5e", bscUnits(40));
    await anvil.mine(CONFIRMATIONS);
    expect(await pass()).toMatchObject({ credited: 2, forAdmin: 0 });
    expect((await h.me(m1.token)).balance).toBe(10);
    expect((await h.me(m2.token)).balance).toBe(12.5);
  });

  test("a reorganisation that drops a transfer before its confirmations credits nothing", async () => {
    const member = await h.signUp();
    const { address } = await addressOf(member.token);
    const pass = watcher();
    await pass();
    const snapshot = (await anvil.client.request({ method: "evm_snapshot" as never })) as string;
    await usdt18.transfer(alice, hexOf(address), bscUnits(70));
    await anvil.mine(1);
    expect(await pass()).toMatchObject({ credited: 0, confirming: 1 });
    await anvil.client.request({ method: "evm_revert" as never, params: [snapshot] as never });
    // The chain is shorter than the head last seen: the watcher waits for it to pass that head.
    expect((await pass()).delayed).toContain("went back");
    await anvil.mine(CONFIRMATIONS + 2);
    expect(await pass()).toMatchObject({ credited: 0, confirming: 0, delayed: null });
    expect((await h.me(member.token)).balance).toBe(0);
    expect(await requests(member.token)).toEqual([]);
  });

  test("below the minimum deposit: recorded and shown, not credited; the admin may credit it by hand, audited", async () => {
    const member = await h.signUp();
    const { address } = await addressOf(member.token, "TRC20");
    const pass = watcher(tron());
    await pass();
    const tronHex = tronToHex(address)!;
    // 0.505 USDT: 50 whole cents; the half cent is shown, not credited.
    await usdt6.transfer(alice, tronHex, 505_000n);
    await anvil.mine(CONFIRMATIONS);
    expect(await pass()).toMatchObject({ credited: 0, forAdmin: 1 });
    expect((await h.me(member.token)).balance).toBe(0);
    const [mine] = await requests(member.token);
    expect(mine).toMatchObject({ status: "pending", amount: 0.5, belowMinimum: true, chainAmount: "0.505", toAddress: address, network: "TRC20" });
    const notes = (await h.call("GET", "/api/user/notifications", { token: member.token })).body.items;
    expect(notes[0].text).toContain("0.505 USDT arrived at your TRC20 deposit address. It is below the minimum deposit of 1 USDT");

    const listed = (await h.call("GET", "/api/admin/deposits?status=pending", { token: h.adminToken })).body;
    const row = listed.find((r: { _id: string }) => r._id === mine._id);
    expect(row).toMatchObject({ toAddress: address, chainAmount: "0.505", chain: { verdict: "below_minimum" } });
    expect(await h.decide("deposits", mine._id, "accepted")).toMatchObject({ status: 200 });
    expect((await h.me(member.token)).balance).toBe(0.5);
    expect(await pass()).toMatchObject({ credited: 0, forAdmin: 0 });
  });

  test("a claim on a network with own addresses is refused: a transfer there is the watcher's alone", async () => {
    const member = await h.signUp();
    const body = { network: "BEP20", address: alice.address, transactionId: `0x${"ab".repeat(32)}`, amount: 10 };
    const res = await h.call("POST", "/api/user/deposit", { token: member.token, body });
    expect(res).toMatchObject({ status: 409, body: { code: "use_deposit_address" } });
    expect(res.body.msg).toContain("your own deposit address");
    // The earlier client sends no network: TRC20, here with own addresses too.
    const { network: _, ...earlier } = body;
    expect(await h.call("POST", "/api/user/deposit", { token: member.token, body: { ...earlier, address: hexToTron(alice.address), transactionId: "cd".repeat(32) } })).toMatchObject({
      status: 409,
      body: { code: "use_deposit_address" },
    });
  });

  test("the sweep list shows what was credited at each address since it was last marked swept; marking is audited", async () => {
    const member = await h.signUp();
    const { address, index } = await addressOf(member.token);
    const pass = watcher();
    await pass();
    await usdt18.transfer(alice, hexOf(address), bscUnits(30));
    await usdt18.transfer(alice, hexOf(address), bscUnits(5));
    await anvil.mine(CONFIRMATIONS);
    expect(await pass()).toMatchObject({ credited: 2 });
    const list = (await h.call("GET", "/api/admin/deposit-addresses/sweep", { token: h.adminToken })).body;
    expect(list.find((i: { address: string }) => i.address === address)).toMatchObject({ network: "BEP20", index, userId: member.id, amount: 35, transfers: 2, sweptAt: null });
    expect(await h.call("GET", "/api/admin/deposit-addresses/sweep", { token: member.token })).toMatchObject({ status: 403 });

    const marked = await h.call("POST", `/api/admin/deposit-addresses/BEP20/${index}/swept`, { token: h.adminToken, body: {} });
    expect(marked).toMatchObject({ status: 200, body: { cleared: 35 } });
    const after = (await h.call("GET", "/api/admin/deposit-addresses/sweep", { token: h.adminToken })).body;
    expect(after.find((i: { address: string }) => i.address === address)).toBeUndefined();
    const [record] = await h.db.select().from(adminAudit).where(eq(adminAudit.action, "address_swept"));
    expect(record).toMatchObject({ targetId: `BEP20:${index}`, after: { cleared: "35.00" } });
    expect(await h.call("POST", "/api/admin/deposit-addresses/BEP20/999999/swept", { token: h.adminToken, body: {} })).toMatchObject({ status: 404 });
    const own = (await h.call("GET", `/api/admin/users/${member.id}/deposit-addresses`, { token: h.adminToken })).body;
    expect(own).toMatchObject([{ network: "BEP20", index, address }]);
  });

  test("a server started with another key than the one members' addresses came from refuses to start, saying which", async () => {
    const member = await h.signUp();
    await addressOf(member.token);
    const other = root.derive("m/44'/60'/1'").publicExtendedKey;
    const changed = loadChainConfig({ BEP20_RPC_URL: anvil.url, BEP20_USDT_CONTRACT: usdt18.address, BEP20_XPUB: other });
    expect(checkAddressKeys(h.db, changed)).rejects.toThrow("BEP20_XPUB is not the key the");
    await checkAddressKeys(h.db, chain);
  });

  test("a node that lies (a log without its receipt, a head going back) delays crediting and never credits", async () => {
    const member = await h.signUp();
    const { address } = await addressOf(member.token);
    const [watch] = await h.db.select().from(chainWatch).where(eq(chainWatch.network, "BEP20"));
    const head = Number(watch!.headBlock);
    const fakeHash = `0x${"ee".repeat(32)}`;
    let reported = head + 10;
    const node = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: async (req) => {
        const { id, method } = (await req.json()) as { id: number; method: string };
        const answer = (result: unknown) => Response.json({ jsonrpc: "2.0", id, result });
        if (method === "eth_blockNumber") return answer(`0x${reported.toString(16)}`);
        if (method === "eth_getTransactionReceipt") return answer(null);
        if (method === "eth_getLogs") {
          return answer([
            {
              address: usdt18.address,
              topics: [
                "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef",
                `0x${alice.address.slice(2).toLowerCase().padStart(64, "0")}`,
                `0x${address.slice(2).toLowerCase().padStart(64, "0")}`,
              ],
              data: `0x${bscUnits(999).toString(16).padStart(64, "0")}`,
              blockNumber: `0x${(head + 1).toString(16)}`,
              blockHash: `0x${"11".repeat(32)}`,
              transactionHash: fakeHash,
              logIndex: "0x0",
              removed: false,
            },
          ]);
        }
        return Response.json({ jsonrpc: "2.0", id, error: { code: -32601, message: "no such method" } });
      },
    });
    try {
      const liar = { ...bsc(), rpcUrl: `http://127.0.0.1:${node.port}` };
      const state = newWatchState("BEP20");
      state.steppedBack = true;
      const first = await watchNetwork(h.db, liar, state, { timeoutMs: 2000 });
      expect(first.credited).toBe(0);
      expect(first.delayed).toContain("no receipt");
      reported = head + 5;
      expect((await watchNetwork(h.db, liar, state, { timeoutMs: 2000 })).delayed).toContain("went back");
      expect((await h.me(member.token)).balance).toBe(0);
      expect(await h.db.select().from(deposits).where(eq(deposits.txHash, fakeHash.slice(2)))).toEqual([]);
    } finally {
      node.stop(true);
      // The real node's head is below what the liar claimed: let the watcher read the real chain again.
      await h.db.update(chainWatch).set({ headBlock: sql`${head}::bigint`, nextBlock: sql`least(${chainWatch.nextBlock}, ${head + 1}::bigint)` }).where(eq(chainWatch.network, "BEP20"));
    }
  });
});
