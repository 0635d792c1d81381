import { verifiedNetworks, watchedNetworks } from "../core/chain/config";
import { checkDueDeposits, type PassOptions, type PassResult } from "../core/chain/deposits";
import { newWatchState, watchNetwork, type WatchOptions, type WatchResult } from "../core/chain/watch";
import { networkName } from "../shared/chain";
import type { Deps } from "./env";
import { type PassLoop, startPassLoop } from "./passLoop";

/**
 * The background job of deposits verified on chain (docs/rules.md#deposits). Every
 * CHAIN_POLL_SECONDS, and at once when a member submits a deposit on a verified network (`poke`),
 * it runs one pass (`checkDueDeposits`): due requests are claimed in the database with row locks
 * (SKIP LOCKED) and a lease, looked at on chain, and settled. Its whole state is in the
 * `deposits` rows, so it survives restarts, and any number of server processes may run one
 * against one Postgres: each request is credited at most once (the decision's conditional update),
 * and a process that dies mid-look leaves the request to be taken again when its lease ends.
 *
 * The same job runs the address watchers of the networks whose members have addresses of their
 * own (src/core/chain/watch.ts): each pass reads those networks' new blocks and credits what
 * arrived, its cursor and lease in chain_watch.
 */
export interface ChainWatcher {
  /** Run a pass soon (after a new deposit on a verified network). */
  poke(): void;
  /** Run a pass now and answer what it did (tests). */
  runOnce(): Promise<WatcherPass>;
  /** Stop, after the pass in flight. */
  stop(): Promise<void>;
}

/** One pass: the claims checked on chain, and per watched network what its address watcher did. */
export type WatcherPass = PassResult & { addresses: WatchResult[] };

const nothing = (): WatcherPass => ({ credited: 0, waiting: 0, forAdmin: 0, skipped: 0, failed: 0, addresses: [] });
const idle: ChainWatcher = { poke: () => {}, runOnce: async () => nothing(), stop: async () => {} };

export function startChainWatcher(
  deps: Pick<Deps, "db" | "config" | "log">,
  options: Pick<PassOptions, "check" | "batch"> & Pick<WatchOptions, "range" | "rangesPerPass"> = {},
): ChainWatcher {
  const { chain } = deps.config;
  const watched = watchedNetworks(chain).map((settings) => ({ settings, state: newWatchState(settings.network, options.range) }));
  if (verifiedNetworks(chain).length === 0 && watched.length === 0) return idle;
  const log = deps.log ?? ((message: string, error?: unknown) => console.error(message, error ?? ""));
  // Assigned before its first pass runs (a timer): a pass reaches it to ask for the next at once.
  let loop: PassLoop<WatcherPass> | undefined;

  const pass = async (): Promise<WatcherPass> => {
    const claims = await checkDueDeposits(deps.db, chain, { ...options, log });
    const addresses: WatchResult[] = [];
    for (const { settings, state } of watched) {
      const result = await watchNetwork(deps.db, settings, state, { timeoutMs: chain.rpcTimeoutMs, rangesPerPass: options.rangesPerPass, range: options.range });
      if (result.delayed) log(`${settings.network} deposits: crediting waits (${result.delayed}); it is tried again at the next poll`);
      if (result.behind) loop?.again();
      addresses.push(result);
    }
    return { ...claims, addresses };
  };

  loop = startPassLoop(pass, {
    periodMs: chain.pollSeconds * 1000,
    failed: (error) => {
      log("the chain watcher's pass failed; it runs again at the next poll", error);
      return { ...nothing(), failed: 1 };
    },
  });
  return { poke: loop.soon, runOnce: loop.runOnce, stop: loop.stop };
}

/** One line for the start-up log: which networks are verified on chain. */
export function chainSummary(deps: Pick<Deps, "config">): string {
  const watched = watchedNetworks(deps.config.chain);
  const verified = verifiedNetworks(deps.config.chain).filter((n) => !watched.some((w) => w.network === n.network));
  const lines: string[] = [];
  if (watched.length > 0) {
    const names = watched.map((n) => `${networkName(n.network)} after ${n.confirmations} confirmations`).join(", ");
    lines.push(`Deposits to members' own addresses, credited from the chain: ${names}; read every ${deps.config.chain.pollSeconds} s`);
  }
  if (verified.length > 0) {
    const names = verified.map((n) => `${networkName(n.network)} after ${n.confirmations} confirmations`).join(", ");
    lines.push(`Deposits verified on chain: ${names}; looked at again every ${deps.config.chain.pollSeconds} s`);
  }
  return lines.length > 0 ? lines.join("\n") : "Deposits: decided by an admin (no network verified on chain)";
}
