import type { ChainSettings, NetworkSettings } from "../core/chain/config";
import { readAddress } from "../core/chain/addresses";
import { ACCOUNT_PATH, readXpub } from "../core/chain/xpub";
import { decimalWhole, httpUrl } from "./envValues";
import { NETWORK_INFO, NETWORKS, type Network } from "../shared/chain";

/**
 * The on-chain verification of deposits, from the environment (docs/deposits.md).
 * A network is verified once its RPC URL is set; then its USDT contract and deposit address must
 * be set too, and valid, or the server refuses to start with the reason. Without an
 * RPC URL its deposits are decided by an admin, as before, and its deposit address (when unset, a
 * demo one that no wallet accepts) is only shown; a deposit address that is set must be valid
 * either way.
 */

/** Shown when no TRC20 address is set: not a valid address, so nothing can be sent to it. */
export const DEMO_WALLET_ADDRESS = "TQ5dEmoWa11etAddre55NotForRea1Funds";
/** Likewise for BEP20: not hexadecimal, so no wallet takes it. */
export const DEMO_BEP20_ADDRESS = "0xDem0Wa11etAddre55NotForRea1Funds0000000";

const DEFAULT_CONFIRMATIONS: Record<Network, number> = { TRC20: 20, BEP20: 15 };
const DEFAULT_POLL_SECONDS = 15;
const DEFAULT_RPC_TIMEOUT_MS = 10_000;

export const CHAIN_CONFIG_HELP: [name: string, meaning: string, fallback: string][] = [
  ["TRC20_XPUB", `extended public key of the TRON account (${ACCOUNT_PATH.TRC20}): each member gets an address of their own, credited by the chain; needs TRC20_RPC_URL and TRC20_USDT_CONTRACT`, "(unset: the shared address and the claim form)"],
  ["TRC20_RPC_URL", "TRON full node's JSON-RPC endpoint (an http:// or https:// URL); set: TRC20 deposits are verified on chain", "(unset: an admin decides)"],
  ["TRC20_USDT_CONTRACT", "USDT contract on TRON, base58 (T...); required with TRC20_RPC_URL", "(unset)"],
  ["TRC20_DEPOSIT_ADDRESS", "our TRON deposit address, base58 (T...): shown to members and checked on chain", "DEPOSIT_WALLET_ADDRESS, else a demo address"],
  ["TRC20_CONFIRMATIONS", "confirmations a TRC20 deposit needs before it is credited", String(DEFAULT_CONFIRMATIONS.TRC20)],
  ["BEP20_XPUB", `extended public key of the BNB Smart Chain account (${ACCOUNT_PATH.BEP20}): each member gets an address of their own; needs BEP20_RPC_URL and BEP20_USDT_CONTRACT`, "(unset: the shared address and the claim form)"],
  ["BEP20_RPC_URL", "BNB Smart Chain JSON-RPC endpoint (an http:// or https:// URL); set: BEP20 deposits are verified on chain", "(unset: an admin decides)"],
  ["BEP20_USDT_CONTRACT", "USDT contract on BNB Smart Chain, 0x...; required with BEP20_RPC_URL", "(unset)"],
  ["BEP20_DEPOSIT_ADDRESS", "our BNB Smart Chain deposit address, 0x...: shown to members and checked on chain", "(a demo address)"],
  ["BEP20_CONFIRMATIONS", "confirmations a BEP20 deposit needs before it is credited", String(DEFAULT_CONFIRMATIONS.BEP20)],
  ["CHAIN_POLL_SECONDS", "how often deposits waiting for confirmations (or after a node error) are looked at again", String(DEFAULT_POLL_SECONDS)],
];

function whole(name: string, value: string | undefined, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined || value.trim() === "") return fallback;
  const n = decimalWhole(value);
  if (n === undefined || n < min || n > max) {
    throw new Error(`${name} must be a whole number of ${min} or more${max < Number.MAX_SAFE_INTEGER ? ` and ${max} at most` : ""}, got ${value}`);
  }
  return n;
}

/** CHAIN_POLL_SECONDS at most a day: beyond 2^31 ms (about 24.8 days) a timer fires at once, and the watcher would spin. */
const MAX_POLL_SECONDS = 86_400;

function networkSettings(network: Network, env: Record<string, string | undefined>): NetworkSettings {
  const v = (name: string) => env[`${network}_${name}`]?.trim() || undefined;
  const rpcUrl = v("RPC_URL");
  const contract = v("USDT_CONTRACT");
  const own = v("DEPOSIT_ADDRESS");
  const legacy = network === "TRC20" ? env.DEPOSIT_WALLET_ADDRESS?.trim() || undefined : undefined;
  const shown = own ?? legacy;
  const shownBy = own ? `${network}_DEPOSIT_ADDRESS` : "DEPOSIT_WALLET_ADDRESS";
  const confirmations = whole(`${network}_CONFIRMATIONS`, v("CONFIRMATIONS"), DEFAULT_CONFIRMATIONS[network], 1);
  // An address that is set is shown to members, who send money to it: it is checked whether or
  // not the network is verified on chain (a mistyped one stops the start). Only the built-in demo
  // address, shown when none is set, is no valid address.
  const deposit = shown === undefined ? undefined : readAddress(network, shown);
  if (deposit && "problem" in deposit) throw new Error(`${shownBy} is not a valid address (${shown}): ${deposit.problem}`);
  const settings: NetworkSettings = {
    network,
    depositAddress: deposit?.display ?? (network === "TRC20" ? DEMO_WALLET_ADDRESS : DEMO_BEP20_ADDRESS),
    confirmations,
    decimals: NETWORK_INFO[network].decimals,
  };
  const xpub = v("XPUB");
  // Never echoed: what was pasted there may be a private key.
  const addressKey = xpub === undefined ? undefined : readXpub(network, xpub);
  if (addressKey && "problem" in addressKey) throw new Error(`${network}_XPUB is not usable: ${addressKey.problem}`);
  if (addressKey && !rpcUrl) throw new Error(`${network}_XPUB needs ${network}_RPC_URL and ${network}_USDT_CONTRACT: nothing would credit what arrives at members' addresses`);
  if (!rpcUrl) return settings;

  if (!httpUrl(rpcUrl)) throw new Error(`${network}_RPC_URL must be an http:// or https:// URL with a host, got ${rpcUrl}`);
  if (!contract) throw new Error(`${network}_USDT_CONTRACT must be set with ${network}_RPC_URL`);
  // With members' own addresses the shared one is only needed by claims, which are then refused.
  if (!deposit && !addressKey) throw new Error(`${network}_DEPOSIT_ADDRESS must be set with ${network}_RPC_URL, unless ${network}_XPUB gives members addresses of their own`);
  const token = readAddress(network, contract);
  if ("problem" in token) throw new Error(`${network}_USDT_CONTRACT is not a valid address (${contract}): ${token.problem}`);
  return { ...settings, rpcUrl, token: token.hex, ...(deposit ? { depositHex: deposit.hex } : {}), ...(addressKey ? { addressKey } : {}) };
}

export function loadChainConfig(env: Record<string, string | undefined>): ChainSettings {
  return {
    networks: Object.fromEntries(NETWORKS.map((n) => [n, networkSettings(n, env)])) as Record<Network, NetworkSettings>,
    pollSeconds: whole("CHAIN_POLL_SECONDS", env.CHAIN_POLL_SECONDS, DEFAULT_POLL_SECONDS, 1, MAX_POLL_SECONDS),
    rpcTimeoutMs: DEFAULT_RPC_TIMEOUT_MS,
  };
}
