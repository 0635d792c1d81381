import { verifiedNetworks } from "../core/chain/config";
import { checkDueDeposits, type PassOptions, type PassResult } from "../core/chain/deposits";
import { networkName } from "../shared/chain";
import type { Deps } from "./env";

/**
 * The background job of deposits verified on chain (docs/rules.md#deposits). Every
 * CHAIN_POLL_SECONDS, and at once when a member submits a deposit on a verified network (`poke`),
 * it runs one pass (`checkDueDeposits`): due requests are claimed in the database with row locks
 * (SKIP LOCKED) and a lease, looked at on chain, and settled. Its whole state is in the
 * `deposits` rows, so it survives restarts, and any number of server processes may run one
 * against one Postgres: each request is credited at most once (the decision's conditional update),
 * and a process that dies mid-look leaves the request to be taken again when its lease ends.
 */
export interface ChainWatcher {
  /** Run a pass soon (after a new deposit on a verified network). */
  poke(): void;
  /** Run a pass now and answer what it did (tests). */
  runOnce(): Promise<PassResult>;
  /** Stop, after the pass in flight. */
  stop(): Promise<void>;
}

const idle: ChainWatcher = { poke: () => {}, runOnce: async () => ({ credited: 0, waiting: 0, forAdmin: 0, skipped: 0, failed: 0 }), stop: async () => {} };

export function startChainWatcher(deps: Pick<Deps, "db" | "config" | "log">, options: Pick<PassOptions, "check" | "batch"> = {}): ChainWatcher {
  const { chain } = deps.config;
  if (verifiedNetworks(chain).length === 0) return idle;
  const log = deps.log ?? ((message: string, error?: unknown) => console.error(message, error ?? ""));
  const periodMs = chain.pollSeconds * 1000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<PassResult> | undefined;
  let again = false;
  let stopped = false;

  const pass = () => checkDueDeposits(deps.db, chain, { ...options, log });

  function schedule(ms: number) {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(run, ms);
  }

  function run(): Promise<PassResult> {
    if (running) {
      again = true;
      return running;
    }
    const current = pass()
      .catch((error) => {
        log("the chain watcher's pass failed; it runs again at the next poll", error);
        return { credited: 0, waiting: 0, forAdmin: 0, skipped: 0, failed: 1 };
      })
      .finally(() => {
        running = undefined;
        schedule(again ? 0 : periodMs);
        again = false;
      });
    running = current;
    return current;
  }

  schedule(0);
  return {
    poke: () => schedule(0),
    runOnce: async () => {
      // Wait for a pass in flight, then run one of our own: it sees everything committed before.
      if (running) await running;
      return run();
    },
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      if (running) await running;
    },
  };
}

/** One line for the start-up log: which networks are verified on chain. */
export function chainSummary(deps: Pick<Deps, "config">): string {
  const verified = verifiedNetworks(deps.config.chain);
  if (verified.length === 0) return "Deposits: decided by an admin (no network verified on chain)";
  const names = verified.map((n) => `${networkName(n.network)} after ${n.confirmations} confirmations`).join(", ");
  return `Deposits verified on chain: ${names}; looked at again every ${deps.config.chain.pollSeconds} s`;
}
