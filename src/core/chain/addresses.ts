import { getAddress, isAddress } from "viem";
import { CHECKSUM_PROBLEM, type Network, readAddressShape } from "../../shared/chain";
import { hexToTron, tronToHex } from "./tron";

export type Hex = `0x${string}`;

/**
 * A wallet address of `network`, checked in full: the shape (src/shared/chain.ts), then the
 * checksum (base58check on TRON; EIP-55 on BNB Smart Chain when the address is written in mixed
 * case). `display` is how the network writes it (base58 / EIP-55 checksummed), `hex` the 0x form
 * in lower case that the JSON-RPC logs carry.
 */
export function readAddress(network: Network, text: string): { display: string; hex: Hex } | { problem: string } {
  const shape = readAddressShape(network, text);
  if ("problem" in shape) return shape;
  if (network === "TRC20") {
    const hex = tronToHex(shape.address);
    if (!hex) return { problem: CHECKSUM_PROBLEM.TRC20 };
    return { display: shape.address, hex };
  }
  const mixed = shape.address.slice(2) !== shape.address.slice(2).toLowerCase() && shape.address.slice(2) !== shape.address.slice(2).toUpperCase();
  if (mixed && !isAddress(shape.address, { strict: true })) {
    return { problem: CHECKSUM_PROBLEM.BEP20 };
  }
  const hex = shape.address.toLowerCase() as Hex;
  return { display: getAddress(hex), hex };
}

/** An address from the 0x form of the logs, as `network` writes it. */
export const displayAddress = (network: Network, hex: string) => (network === "TRC20" ? hexToTron(hex) : getAddress(hex));
