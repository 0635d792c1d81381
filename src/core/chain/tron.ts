import { createHash } from "node:crypto";
import { createBase58check } from "@scure/base";

/**
 * TRON addresses: the 20 bytes of an Ethereum-style address behind the prefix byte 0x41, written
 * in base58check. So `T...` (34 characters) on TRON and `0x` + 40 hex in the logs of its
 * Ethereum-compatible JSON-RPC are one address.
 *
 *   TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t  <->  0xa614f803b6fd780986a42c78ec9c7f77e6ded13c
 */

/** The byte in front of every TRON address on the main network. */
const TRON_PREFIX = 0x41;
const base58check = createBase58check((bytes) => new Uint8Array(createHash("sha256").update(bytes).digest()));

/**
 * The 0x form (lower case) of a TRON base58check address, or null when it is not one: wrong
 * alphabet, length, prefix byte or checksum.
 */
export function tronToHex(address: string): `0x${string}` | null {
  let payload: Uint8Array;
  try {
    payload = base58check.decode(address);
  } catch {
    return null;
  }
  if (payload.length !== 21 || payload[0] !== TRON_PREFIX) return null;
  return `0x${Buffer.from(payload.subarray(1)).toString("hex")}`;
}

/** The TRON base58check address of a 0x address (20 bytes, any case). */
export function hexToTron(address: string): string {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new Error(`not a 20-byte hex address: ${address}`);
  return base58check.encode(Uint8Array.from([TRON_PREFIX, ...Buffer.from(address.slice(2), "hex")]));
}
