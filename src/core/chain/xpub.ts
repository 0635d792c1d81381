import { secp256k1 } from "@noble/curves/secp256k1";
import { HDKey } from "@scure/bip32";
import { getAddress, keccak256, toHex } from "viem";
import type { Network } from "../../shared/chain";
import type { Hex } from "./addresses";
import { hexToTron } from "./tron";

/**
 * Members' own deposit addresses, derived from an extended public key at the account level
 * (docs/rules.md#own-deposit-addresses): the member's address is its child 0/index. The server
 * holds no private key, so it can show addresses and read what arrives, never move it.
 */

/** The account-level path each network's extended public key must be taken at. */
export const ACCOUNT_PATH: Record<Network, string> = { BEP20: "m/44'/60'/0'", TRC20: "m/44'/195'/0'" };
const ACCOUNT_DEPTH = 3;

export interface AddressKey {
  /** The extended public key as configured. */
  xpub: string;
  /** The address of child 0/index, as the network writes it and in 0x form (lower case). */
  derive(index: number): { address: string; hex: Hex };
}

/**
 * Reads `text` as `network`'s extended public key. The problem never repeats the text: what was
 * pasted may be a private key, and the problem is printed.
 */
export function readXpub(network: Network, text: string): AddressKey | { problem: string } {
  const value = text.trim();
  const words = value.split(/\s+/);
  if (/^[xyzt]prv/.test(value) || /^(0x)?[0-9a-fA-F]{64}$/.test(value) || words.length >= 12) {
    return { problem: "this is a private key or a recovery phrase, not an extended public key; the server must never hold one" };
  }
  let key: HDKey;
  try {
    key = HDKey.fromExtendedKey(value);
  } catch {
    return { problem: "it is not a BIP32 extended public key (xpub...): it does not parse" };
  }
  if (key.privateKey) return { problem: "this is a private key, not an extended public key; the server must never hold one" };
  if (key.depth !== ACCOUNT_DEPTH) {
    return { problem: `it must be the key of the account (${ACCOUNT_PATH[network]}, depth ${ACCOUNT_DEPTH}); this one is at depth ${key.depth}` };
  }
  const receiving = key.deriveChild(0);
  return {
    xpub: value,
    derive(index) {
      const compressed = receiving.deriveChild(index).publicKey!;
      const uncompressed = secp256k1.ProjectivePoint.fromHex(compressed).toRawBytes(false);
      const hex = `0x${keccak256(toHex(uncompressed.subarray(1))).slice(-40)}` as Hex;
      return { address: network === "TRC20" ? hexToTron(hex) : getAddress(hex), hex };
    },
  };
}
