import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Subprocess } from "bun";
import solc from "solc";
import {
  type Abi,
  type Account,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  type PublicClient,
  type WalletClient,
} from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { foundry } from "viem/chains";

/**
 * A real local EVM node for the tests of deposits verified on chain: anvil (from the npm package
 * @foundry-rs/anvil-linux-amd64, which ships the binary; .ci/run installs it), listening on
 * 127.0.0.1 only, with ERC-20 tokens of our own (./TestToken.sol, compiled here with the npm
 * `solc` package) standing in for USDT on TRON and on BNB Smart Chain. TRON's node serves the
 * same Ethereum JSON-RPC, so one anvil stands in for both networks.
 *
 * Outside CI a machine without anvil skips these tests, saying why; under CI (env CI set) they
 * always run, and a missing anvil fails them.
 */

const PACKAGE = "@foundry-rs/anvil-linux-amd64";

function npmGlobalRoot(): string | undefined {
  try {
    const out = Bun.spawnSync(["npm", "root", "-g"], { stdout: "pipe", stderr: "ignore" });
    return out.exitCode === 0 ? out.stdout.toString().trim() : undefined;
  } catch {
    return undefined;
  }
}

/** Where anvil is: ANVIL_BIN, the PATH, the project's node_modules, npm's global folder. */
export function findAnvil(): string | undefined {
  const root = join(import.meta.dir, "../../..");
  const candidates = [
    process.env.ANVIL_BIN,
    Bun.which("anvil") ?? undefined,
    join(root, "node_modules", ".bin", "anvil"),
    join(root, "node_modules", PACKAGE, "bin", "anvil"),
  ];
  for (const candidate of candidates) if (candidate && existsSync(candidate)) return candidate;
  const global = npmGlobalRoot();
  const installed = global && join(global, PACKAGE, "bin", "anvil");
  return installed && existsSync(installed) ? installed : undefined;
}

/** Null when the tests run; otherwise why they are skipped (never under CI). */
export function anvilSkipReason(): string | null {
  if (process.env.CI || findAnvil()) return null;
  return `anvil is missing (install it with \`npm install -g ${PACKAGE}\`, or set ANVIL_BIN); set CI=1 to make its absence a failure`;
}

export function announceAnvilSkip(file: string, reason: string | null) {
  if (reason) console.warn(`\n[chain] skipping ${file}: ${reason}\n`);
}

/** anvil's dev accounts: the well-known test mnemonic's first keys, each funded with ETH for gas. */
const DEV_MNEMONIC = "test test test test test test test test test test test junk";
const DEV_ACCOUNTS = 6;
export const devAccounts: Account[] = Array.from({ length: DEV_ACCOUNTS }, (_, addressIndex) => mnemonicToAccount(DEV_MNEMONIC, { addressIndex }));

export interface Anvil {
  url: string;
  client: PublicClient;
  wallet(account: Account): WalletClient;
  /** Mines `blocks` empty blocks: the chain moves on. */
  mine(blocks: number): Promise<void>;
  stop(): Promise<void>;
}

/** Starts anvil on 127.0.0.1, on a port of its own choosing, and answers once it serves JSON-RPC. */
export async function startAnvil(): Promise<Anvil> {
  const bin = findAnvil();
  if (!bin) throw new Error(`anvil is missing: install it with \`npm install -g ${PACKAGE}\` (.ci/run does), or set ANVIL_BIN`);
  const proc: Subprocess<"ignore", "pipe", "pipe"> = Bun.spawn([bin, "--host", "127.0.0.1", "--port", "0", "--accounts", String(DEV_ACCOUNTS), "--mnemonic", DEV_MNEMONIC], {
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const url = await listeningUrl(proc);
  // anvil mines each transaction at once: poll for receipts often.
  const client = createPublicClient({ chain: foundry, transport: http(url), pollingInterval: 50 }) as PublicClient;
  return {
    url,
    client,
    wallet: (account) => createWalletClient({ account, chain: foundry, transport: http(url) }),
    mine: async (blocks) => {
      await client.request({ method: "anvil_mine" as never, params: [`0x${blocks.toString(16)}`] as never });
    },
    stop: async () => {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

/** Reads anvil's output until it says where it listens (it keeps writing afterwards: drained). */
async function listeningUrl(proc: Subprocess<"ignore", "pipe", "pipe">): Promise<string> {
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += decoder.decode(value);
    const match = /Listening on (127\.0\.0\.1:\d+)/.exec(seen);
    if (match) {
      void (async () => {
        while (!(await reader.read()).done) {}
      })();
      return `http://${match[1]}`;
    }
  }
  proc.kill("SIGKILL");
  const stderr = await new Response(proc.stderr).text();
  throw new Error(`anvil did not start: ${seen.slice(-500)} ${stderr.slice(-500)}`);
}

let compiled: { abi: Abi; bytecode: Hex } | undefined;

/** TestToken.sol, compiled with solc (once per test process). */
export function testTokenArtifact(): { abi: Abi; bytecode: Hex } {
  if (compiled) return compiled;
  const source = readFileSync(join(import.meta.dir, "TestToken.sol"), "utf8");
  const input = {
    language: "Solidity",
    sources: { "TestToken.sol": { content: source } },
    settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: "paris", outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join("\n"));
  const contract = output.contracts["TestToken.sol"]!.TestToken!;
  compiled = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
  return compiled;
}

export interface Token {
  address: Hex;
  decimals: number;
  mint(to: Hex, units: bigint): Promise<Hex>;
  /** `from` sends `units` to `to`: answers the transaction's hash once mined. */
  transfer(from: Account, to: Hex, units: bigint): Promise<Hex>;
  /** Two transfers in one transaction. */
  transferTwo(from: Account, first: [Hex, bigint], second: [Hex, bigint]): Promise<Hex>;
  /** A transfer of more than `from` holds, sent without a gas estimate: mined, and reverted. */
  revertedTransfer(from: Account, to: Hex, units: bigint): Promise<Hex>;
}

/** Deploys a TestToken with `decimals`, deployed by the first dev account. */
export async function deployToken(anvil: Anvil, symbol: string, decimals: number): Promise<Token> {
  const { abi, bytecode } = testTokenArtifact();
  const deployer = devAccounts[0]!;
  const hash = await anvil.wallet(deployer).deployContract({ abi, bytecode, args: [symbol, symbol, decimals], account: deployer, chain: foundry });
  const receipt = await anvil.client.waitForTransactionReceipt({ hash });
  const address = receipt.contractAddress!;
  const send = async (from: Account, functionName: string, args: unknown[], gas?: bigint) => {
    const tx = await anvil.wallet(from).writeContract({ address, abi, functionName, args, account: from, chain: foundry, ...(gas ? { gas } : {}) });
    await anvil.client.waitForTransactionReceipt({ hash: tx });
    return tx;
  };
  return {
    address,
    decimals,
    mint: (to, units) => send(deployer, "mint", [to, units]),
    transfer: (from, to, units) => send(from, "transfer", [to, units]),
    transferTwo: (from, [to1, v1], [to2, v2]) => send(from, "transferTwo", [to1, v1, to2, v2]),
    revertedTransfer: (from, to, units) => send(from, "transfer", [to, units], 200_000n),
  };
}
