import type postgres from "postgres";
import { type Account } from "viem";
import { type Anvil, deployToken, devAccounts, findAnvil, startAnvil, type Token } from "../../src/testing/evm/anvil";
import { call } from "./client";
import type { World } from "./workload";

/**
 * The address watcher under chaos: a local chain (anvil) whose test USDT is BEP20's, with an
 * extended public key, so every server process watches members' own addresses. While the
 * workload runs and servers are killed, a wallet sends transfers (single and two in one
 * transaction) to a few members' addresses; at the end every transfer must be credited exactly
 * once, to its member, for its amount.
 */

const CONFIRMATIONS = 2;
const MEMBERS = 4;
/** The account key of anvil's test phrase at m/44'/60'/0': its children are the dev accounts. */
const XPUB = "xpub6Ce9NcJvTk36xtLSrJLZqE7wtgA5deCeYs7rSQtreh4cj6ByPtrg9sD7V2FNFLPnf8heNP3FGkeV9qwfzvZNSd54JoNXVsXFYSYwHsnJxqP";
const CENT = 10n ** 16n;

interface Member {
  id: string;
  address: `0x${string}`;
}

export interface ChainChaos {
  env: Record<string, string>;
  /** Signs up the members who receive, before the workload starts. */
  prepare(world: World): Promise<void>;
  /** Sends transfers until `finished` says stop (and at least a few). */
  run(world: World, finished: () => boolean): Promise<void>;
  /** Confirms what was sent, waits for the watchers, and answers every disagreement. */
  verify(sql: postgres.Sql): Promise<string[]>;
  summary(): string;
  stop(): Promise<void>;
}

export async function startChainChaos(): Promise<ChainChaos | null> {
  if (!findAnvil()) return null;
  const anvil: Anvil = await startAnvil();
  const usdt: Token = await deployToken(anvil, "USDT", 18);
  const sender = devAccounts[5] as Account;
  await usdt.mint(sender.address, 1_000_000n * 100n * CENT);
  /** `${txHash}` -> the cents each member was sent in it. */
  const sent = new Map<string, Map<string, bigint>>();
  const members: Member[] = [];
  let transfers = 0;

  async function signUp(world: World, n: number): Promise<Member | null> {
    const email = `chain${n}@chaos.test`;
    for (let attempt = 0; attempt < 50; attempt++) {
      const server = world.servers.find((s) => s.alive);
      if (server) {
        await call(server.url, "POST", "/auth/register", undefined, { name: `Chain ${n}`, email, password: "chaos-password", referralId: world.referralIds[0] });
        const login = await call(server.url, "POST", "/auth/login", undefined, { email, password: "chaos-password" });
        if (login.kind === "answered" && login.status === 200) {
          const token: string = login.body.token;
          const me = await call(server.url, "GET", "/auth", token);
          const own = await call(server.url, "GET", "/user/deposit/address?network=BEP20", token);
          if (me.kind === "answered" && own.kind === "answered" && own.status === 200) return { id: me.body._id, address: own.body.address.toLowerCase() };
        }
      }
      await Bun.sleep(200);
    }
    return null;
  }

  const record = (hash: string, member: Member, cents: bigint) => {
    const entry = sent.get(hash) ?? new Map<string, bigint>();
    entry.set(member.id, (entry.get(member.id) ?? 0n) + cents);
    sent.set(hash, entry);
    transfers++;
  };

  return {
    env: {
      BEP20_RPC_URL: anvil.url,
      BEP20_USDT_CONTRACT: usdt.address,
      BEP20_XPUB: XPUB,
      BEP20_CONFIRMATIONS: String(CONFIRMATIONS),
      CHAIN_POLL_SECONDS: "1",
    },
    async prepare(world) {
      for (let n = 0; n < MEMBERS; n++) {
        const member = await signUp(world, n);
        if (member) members.push(member);
      }
      if (members.length < 2) throw new Error("chain chaos: could not sign up its members");
    },
    async run(world, finished) {
      while (!finished() || transfers < 10) {
        const pick = () => members[Math.floor(world.rand() * members.length)]!;
        const cents = (m: Member) => [m, BigInt(100 + Math.floor(world.rand() * 5000))] as const;
        if (world.rand() < 0.3) {
          const [[a, ca], [b, cb]] = [cents(pick()), cents(pick())];
          const hash = await usdt.transferTwo(sender, [a.address, ca * CENT], [b.address, cb * CENT]);
          record(hash, a, ca);
          record(hash, b, cb);
        } else {
          const [m, c] = cents(pick());
          record(await usdt.transfer(sender, m.address, c * CENT), m, c);
        }
        if (world.rand() < 0.5) await anvil.mine(1);
        await Bun.sleep(50 + world.rand() * 150);
      }
    },
    async verify(sql) {
      const violations: string[] = [];
      await anvil.mine(CONFIRMATIONS);
      // A process killed mid-pass holds the network's lease until it ends (55 s at most).
      const deadline = Date.now() + 90_000;
      const recorded = async () => (await sql`SELECT count(*)::int AS n FROM deposits WHERE log_index IS NOT NULL`)[0]!.n as number;
      while (Date.now() < deadline && (await recorded()) < transfers) await Bun.sleep(500);
      const rows = await sql`SELECT tx_hash, user_id, status, amount::text AS amount FROM deposits WHERE log_index IS NOT NULL`;
      const credited = new Map<string, Map<string, bigint>>();
      for (const r of rows) {
        if (r.status !== "accepted") violations.push(`chain transfer ${r.tx_hash} to ${r.user_id} is ${r.status}`);
        const entry = credited.get(`0x${r.tx_hash}`) ?? new Map<string, bigint>();
        entry.set(r.user_id, (entry.get(r.user_id) ?? 0n) + BigInt(r.amount));
        credited.set(`0x${r.tx_hash}`, entry);
      }
      if (rows.length !== transfers) violations.push(`chain: ${transfers} transfers sent, ${rows.length} recorded`);
      for (const [hash, expected] of sent) {
        for (const [userId, cents] of expected) {
          const got = credited.get(hash)?.get(userId) ?? 0n;
          if (got !== cents) violations.push(`chain transfer ${hash} to ${userId}: ${cents} cents sent, ${got} credited`);
        }
      }
      for (const m of members) {
        const expected = [...sent.values()].reduce((sum, e) => sum + (e.get(m.id) ?? 0n), 0n);
        const [account] = await sql`SELECT balance::text AS balance FROM accounts WHERE id = ${m.id}`;
        if (BigInt(account?.balance ?? "0") !== expected) violations.push(`chain member ${m.id}: ${expected} cents sent, balance ${account?.balance}`);
      }
      return violations;
    },
    summary: () => `chain: ${transfers} transfers to ${members.length} members' own addresses, each credited once by the address watchers`,
    stop: () => anvil.stop(),
  };
}
