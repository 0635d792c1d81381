import type { ReactNode } from "react";
import type { ChainVerdict } from "../../../shared/chain";
import { networkName } from "../../../shared/chain";
import { LongId } from "../../components/LongText";
import type { DepositRequest } from "./api/getDeposits";

/** Each verdict in a few words, and whether it is good news. */
const VERDICT: Record<ChainVerdict, { text: string; tone: "good" | "wait" | "bad" }> = {
  match: { text: "Verified on chain", tone: "good" },
  confirming: { text: "Waiting for confirmations", tone: "wait" },
  not_found: { text: "Not found on chain", tone: "bad" },
  reverted: { text: "Transaction failed (reverted)", tone: "bad" },
  not_to_us: { text: "No USDT sent to our address", tone: "bad" },
  wrong_token: { text: "Another token, not USDT", tone: "bad" },
  wrong_sender: { text: "Sent from another wallet", tone: "bad" },
  wrong_amount: { text: "Amount on chain differs", tone: "bad" },
  rpc_error: { text: "Node did not answer; retrying", tone: "wait" },
  below_minimum: { text: "Received below the minimum: not credited", tone: "bad" },
};

const TONE = { good: "badge-accepted", wait: "badge-pending", bad: "badge-declined" } as const;

/** The deposit's transaction ID, its network, and a word when it is an old one that is no valid ID. */
export function DepositTransaction({ row }: { row: DepositRequest }) {
  return (
    <span className="flex flex-col gap-1">
      <LongId value={row.transactionId} label="transaction ID" />
      <span className="muted text-xs">{networkName(row.network)}</span>
      {row.canonicalTransactionId === null && <span className="text-xs text-declined">Typed before IDs were checked: not a valid ID, or a repeat</span>}
    </span>
  );
}

/**
 * What the chain says about a deposit, beside it: the verdict, then the evidence (found or not,
 * status, recipient, sender, token, amount on chain, confirmations), as the last look recorded it.
 */
export function ChainEvidence({ row }: { row: DepositRequest }) {
  const chain = row.chain;
  if (!chain) {
    const text = row.checking ? "Checking on chain..." : row.status === "pending" ? "Not verified on chain: check it by hand" : "Not verified on chain";
    return <span className="muted text-xs">{text}</span>;
  }
  const verdict = VERDICT[chain.verdict];
  const facts: [string, ReactNode][] = [
    ["Found", chain.found ? "Yes" : "No"],
    ["Status", chain.status ?? "—"],
    ["Recipient", chain.to ? <LongId value={chain.to} label="recipient address" /> : "—"],
    ["Sender", chain.from ? <LongId value={chain.from} label="sender address" /> : "—"],
    ["Token", chain.token ? <>{chain.tokenIsUsdt ? "USDT " : "Not USDT "}<LongId value={chain.token} label="token contract" /></> : "—"],
    ["Amount on chain", chain.amount === null ? "—" : chain.tokenIsUsdt ? `${chain.amount} USDT` : `${chain.amount} (token units)`],
    ["Confirmations", chain.confirmations === null ? "—" : `${chain.confirmations} of ${chain.requiredConfirmations}`],
  ];
  return (
    <div className="flex min-w-56 flex-col gap-1.5 text-xs">
      <span className={`${TONE[verdict.tone]} self-start`}>{verdict.text}</span>
      {row.checking && chain.verdict !== "match" && <span className="muted">Looking again shortly.</span>}
      {chain.error && <span className="text-declined [overflow-wrap:anywhere]">{chain.error}</span>}
      <dl className="m-0 grid grid-cols-[auto_1fr] gap-x-2 gap-y-0.5">
        {facts.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="muted">{term}</dt>
            <dd className="m-0 text-fg-soft">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
