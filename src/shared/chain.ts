/**
 * The networks a deposit can arrive on, and how their transaction IDs and addresses are read
 * (docs/rules.md#deposits). Shared by the payload schemas (src/shared/schemas.ts), so the form and
 * the server refuse the same things with the same words. The address checksums (base58check,
 * EIP-55) need a hash function and are checked on the server (src/core/chain/addresses.ts).
 */

/** TRC20: USDT on TRON. BEP20: USDT on BNB Smart Chain. */
export const NETWORKS = ["TRC20", "BEP20"] as const;
export type Network = (typeof NETWORKS)[number];
/** A deposit that names no network (the earlier client's) is on TRON. */
export const DEFAULT_NETWORK: Network = "TRC20";

export interface NetworkInfo {
  /** The chain, in words: "TRON", "BNB Smart Chain". */
  chain: string;
  /** Decimals of USDT on that chain: 1 USDT is 10^decimals of the token's units. */
  decimals: number;
}

export const NETWORK_INFO: Record<Network, NetworkInfo> = {
  TRC20: { chain: "TRON", decimals: 6 },
  BEP20: { chain: "BNB Smart Chain", decimals: 18 },
};

/**
 * What a look at the chain found for a deposit (src/core/chain/verify.ts), in the order the
 * checks run: `match` (credited by the platform), `confirming` (all good but too few
 * confirmations yet: checked again), `not_found` (no receipt for that ID), `reverted`, `not_to_us`
 * (no transfer of the configured USDT to our deposit address), `wrong_token` (a transfer to us,
 * of another token), `wrong_sender` (ours, but not from the address the member gave),
 * `wrong_amount` (ours and from them, but not exactly the amount claimed), `rpc_error` (the node
 * did not answer: checked again). Everything but `match` leaves the request to an admin.
 */
export const CHAIN_VERDICTS = ["match", "confirming", "not_found", "reverted", "not_to_us", "wrong_token", "wrong_sender", "wrong_amount", "rpc_error", "below_minimum"] as const;
export type ChainVerdict = (typeof CHAIN_VERDICTS)[number];

/** What the admin sees beside a deposit, and what the platform decided on. Kept as JSON on the request. */
export interface ChainEvidence {
  verdict: ChainVerdict;
  /** When the look was taken (ISO 8601). */
  checkedAt: string;
  /** Whether the node knows a mined transaction with that ID. */
  found: boolean;
  status: "success" | "reverted" | null;
  blockNumber: string | null;
  /** Blocks from the transaction's own to the latest, both counted. */
  confirmations: number | null;
  requiredConfirmations: number;
  /** The transfer shown (the one that matches, or the closest to matching), as the network writes addresses. */
  token: string | null;
  /** Whether that transfer is of the configured USDT contract. */
  tokenIsUsdt: boolean;
  from: string | null;
  to: string | null;
  /** Its amount: in USDT (decimal text) when the token is USDT; otherwise in the token's own units. */
  amount: string | null;
  /** Transfer events in the whole transaction. */
  transfers: number;
  /** The node's error, for `rpc_error`. */
  error: string | null;
}

/** "TRC20 (TRON)". */
export const networkName = (network: Network) => `${network} (${NETWORK_INFO[network].chain})`;

/** The network a withdrawal method pays out on. */
export const networkOfMethod = (method: string): Network => (method.endsWith("BEP20") ? "BEP20" : "TRC20");

/**
 * Characters nobody sees: format characters (zero-width space and joiners, direction marks, the
 * byte-order mark, word joiners...) and the line and paragraph separators.
 */
const INVISIBLE = /[\p{Cf}\p{Zl}\p{Zp}\u180e\u115f\u1160\u3164\uffa0]/u;
/** Accents and other marks that combine with the character before them. */
const COMBINING = /\p{M}/u;
const SPACE = /\s/u;

/** A character as a message names it: "g", or with its code point when it is not ASCII: "а" (U+0430). */
const named = (ch: string) => {
  const code = ch.codePointAt(0)!;
  return code < 0x80 ? `"${ch}"` : `"${ch}" (U+${code.toString(16).toUpperCase().padStart(4, "0")})`;
};

/**
 * The problems of a transaction ID that do not depend on its network: invisible characters,
 * combining marks, spaces inside, and characters that are not hexadecimal even after Unicode
 * compatibility normalization (NFKC folds fullwidth "ａ" into "a"). Null when there are none.
 * `text` is what the member typed.
 */
export function transactionIdCharacterProblem(text: string): string | null {
  if (INVISIBLE.test(text)) {
    return "The transaction ID contains an invisible character (such as a zero-width space). Copy it again from your wallet or the block explorer.";
  }
  if (COMBINING.test(text)) return "The transaction ID contains an accent or another combining mark. A transaction ID has only the digits 0-9 and the letters a-f.";
  const folded = text.normalize("NFKC").trim().toLowerCase();
  if (SPACE.test(folded)) return "The transaction ID contains a space. Copy it again from your wallet or the block explorer.";
  const body = folded.startsWith("0x") ? folded.slice(2) : folded;
  const wrong = [...body].find((ch) => !/[0-9a-f]/.test(ch));
  if (wrong !== undefined) return `The transaction ID contains ${named(wrong)}, which is not a digit 0-9 or a letter a-f.`;
  return null;
}

/**
 * A transaction ID as stored: Unicode NFKC, trimmed, lower case, without 0x. Each network has
 * one spelling, and anything else is refused with the reason:
 *
 * - TRC20: 64 hexadecimal characters, no 0x (as TRON wallets and explorers write them). An ID
 *   with 0x is refused: that is how BNB Smart Chain writes its IDs, and most likely the member
 *   picked the wrong network.
 * - BEP20: 0x then 64 hexadecimal characters (0X too). An ID without 0x is refused for the same
 *   reason the other way round.
 *
 * `canonical` is the stored key, unique per network among live requests; `display` is the ID
 * as the network writes it (what the admin and the member see).
 */
export function readTransactionId(network: Network, text: string): { canonical: string; display: string } | { problem: string } {
  const problem = transactionIdCharacterProblem(text);
  if (problem) return { problem };
  const folded = text.normalize("NFKC").trim().toLowerCase();
  const prefixed = folded.startsWith("0x");
  const body = prefixed ? folded.slice(2) : folded;
  if (network === "TRC20" && prefixed) {
    return {
      problem:
        "A TRC20 (TRON) transaction ID is 64 characters 0-9 and a-f, without 0x. IDs that start with 0x are BEP20 (BNB Smart Chain) ones: check the network you sent on.",
    };
  }
  if (network === "BEP20" && !prefixed) {
    return {
      problem:
        "A BEP20 (BNB Smart Chain) transaction ID starts with 0x, then 64 characters 0-9 and a-f. IDs without 0x are TRC20 (TRON) ones: check the network you sent on.",
    };
  }
  if (body.length !== 64) {
    const shape = network === "TRC20" ? "64 characters 0-9 and a-f" : "0x then 64 characters 0-9 and a-f";
    return { problem: `A ${networkName(network)} transaction ID is ${shape}; this one has ${body.length}${prefixed ? " after the 0x" : ""}.` };
  }
  return { canonical: body, display: displayTransactionId(network, body) };
}

/** The ID as the network writes it, from its stored form. */
export const displayTransactionId = (network: Network, canonical: string) => (network === "BEP20" ? `0x${canonical}` : canonical);

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

/** What an address of the right shape whose checksum does not match is told (src/core/chain/addresses.ts; the withdraw form too). */
export const CHECKSUM_PROBLEM: Record<Network, string> = {
  TRC20: "This TRC20 (TRON) address is not valid: its checksum does not match. Copy it again from your wallet.",
  BEP20: "This BEP20 (BNB Smart Chain) address is not valid: its checksum (the mix of upper and lower case) does not match. Copy it again from your wallet.",
};

/**
 * The shape of a wallet address on `network`, after NFKC and trimming: TRC20 is T and 33 more
 * base58 characters, BEP20 is 0x and 40 hexadecimal characters. The checksum is checked on the
 * server. Answers the address as typed (normalized) or the problem.
 */
export function readAddressShape(network: Network, text: string): { address: string } | { problem: string } {
  if (INVISIBLE.test(text)) return { problem: "The wallet address contains an invisible character. Copy it again from your wallet." };
  const address = text.normalize("NFKC").trim();
  if (network === "TRC20") {
    if (address.length === 34 && address.startsWith("T") && BASE58.test(address)) return { address };
    if (/^0x/i.test(address)) return { problem: "A TRC20 (TRON) address starts with T. Addresses that start with 0x are BEP20 (BNB Smart Chain) ones: check the network." };
    return { problem: "A TRC20 (TRON) address is T followed by 33 letters and digits (base58)." };
  }
  if (/^0x[0-9a-f]{40}$/i.test(address)) return { address };
  if (address.startsWith("T")) return { problem: "A BEP20 (BNB Smart Chain) address starts with 0x. Addresses that start with T are TRC20 (TRON) ones: check the network." };
  return { problem: "A BEP20 (BNB Smart Chain) address is 0x followed by 40 characters 0-9 and a-f." };
}
