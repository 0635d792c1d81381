import type { Network } from "../../shared/chain";
import type { Hex } from "./addresses";
import type { AddressKey } from "./xpub";

/**
 * How the platform reads one network (read from the environment by src/server/chainConfig.ts).
 * With `rpcUrl`, `token` and `depositHex` set the network is verified on chain; otherwise its
 * deposits wait for an admin, as before.
 */
export interface NetworkSettings {
  network: Network;
  /** The node's Ethereum-compatible JSON-RPC endpoint (TRON full nodes serve one too). */
  rpcUrl?: string;
  /** The USDT contract, 0x form in lower case (TRON's converted from base58). */
  token?: Hex;
  /** Our deposit address as the network writes it: shown to members. */
  depositAddress: string;
  /** Its 0x form in lower case, when it is a real address (the demo one is not). */
  depositHex?: Hex;
  /** Blocks from the transaction's own up to the latest, both counted, before it is credited. */
  confirmations: number;
  /** USDT's decimals on that chain. */
  decimals: number;
  /** The extended public key members' own addresses come from (`*_XPUB`); with it, claims are refused. */
  addressKey?: AddressKey;
}

export interface ChainSettings {
  networks: Record<Network, NetworkSettings>;
  /** How often the watcher looks again at deposits that wait (too few confirmations, a node error). */
  pollSeconds: number;
  /** How long one JSON-RPC call may take before it counts as an error. */
  rpcTimeoutMs: number;
}

export type VerifiedNetwork = NetworkSettings & { rpcUrl: string; token: Hex; depositHex: Hex };

/** Whether deposits on this network are checked on chain. */
export const isVerified = (settings: NetworkSettings): settings is VerifiedNetwork =>
  Boolean(settings.rpcUrl && settings.token && settings.depositHex);

export type WatchedNetwork = NetworkSettings & { rpcUrl: string; token: Hex; addressKey: AddressKey };

/** Whether members get addresses of their own on this network, credited by the address watcher. */
export const hasOwnAddresses = (settings: NetworkSettings): settings is WatchedNetwork =>
  Boolean(settings.addressKey && settings.rpcUrl && settings.token);

/** The networks whose members have addresses of their own. */
export const watchedNetworks = (chain: ChainSettings): WatchedNetwork[] => Object.values(chain.networks).filter(hasOwnAddresses);

/** The networks checked on chain. */
export const verifiedNetworks = (chain: ChainSettings): VerifiedNetwork[] => Object.values(chain.networks).filter(isVerified);
