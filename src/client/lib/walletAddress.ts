import { getAddress, isAddress } from "viem";
import { CHECKSUM_PROBLEM, type Network } from "../../shared/chain";

/**
 * A wallet address whose shape the shared schema accepted, as its network writes it, for the
 * member to check before money leaves: a BEP20 one in its EIP-55 mixed case (refused, in the
 * server's words, when typed in mixed case with a wrong checksum); a TRC20 one as typed (base58
 * is its one form; its checksum is checked by the server, whose refusal names the field).
 */
export function addressAsWritten(network: Network, address: string): { address: string } | { problem: string } {
  if (network === "TRC20") return { address };
  const digits = address.slice(2);
  const mixed = digits !== digits.toLowerCase() && digits !== digits.toUpperCase();
  if (mixed && !isAddress(address, { strict: true })) return { problem: CHECKSUM_PROBLEM.BEP20 };
  return { address: getAddress(address.toLowerCase()) };
}
