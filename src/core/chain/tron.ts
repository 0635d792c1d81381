import { createHash } from "node:crypto";

/**
 * TRON addresses. A TRON address is the 20 bytes of an Ethereum-style address behind the prefix
 * byte 0x41, written in base58check: base58 of (0x41 + 20 bytes + the first 4 bytes of
 * sha256(sha256(0x41 + 20 bytes))). So `T...` (34 characters) on TRON and `0x` + 40 hex in the
 * logs of its Ethereum-compatible JSON-RPC are one address.
 *
 *   TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t  <->  0xa614f803b6fd780986a42c78ec9c7f77e6ded13c
 */

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const INDEX = new Map([...ALPHABET].map((ch, i) => [ch, i]));
/** The byte in front of every TRON address on the main network. */
export const TRON_PREFIX = 0x41;

const sha256 = (bytes: Uint8Array) => new Uint8Array(createHash("sha256").update(bytes).digest());
const checksumOf = (payload: Uint8Array) => sha256(sha256(payload)).subarray(0, 4);

export function base58Encode(bytes: Uint8Array): string {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  let out = "";
  while (n > 0n) {
    out = ALPHABET[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}

/** The bytes of a base58 text, or null when a character is not of the alphabet. */
export function base58Decode(text: string): Uint8Array | null {
  let n = 0n;
  for (const ch of text) {
    const digit = INDEX.get(ch);
    if (digit === undefined) return null;
    n = n * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (n > 0n) {
    bytes.unshift(Number(n & 0xffn));
    n >>= 8n;
  }
  for (const ch of text) {
    if (ch !== "1") break;
    bytes.unshift(0);
  }
  return new Uint8Array(bytes);
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/**
 * The 0x form (lower case) of a TRON base58check address, or null when it is not one: wrong
 * alphabet, length, prefix byte or checksum.
 */
export function tronToHex(address: string): `0x${string}` | null {
  const bytes = base58Decode(address);
  if (!bytes || bytes.length !== 25 || bytes[0] !== TRON_PREFIX) return null;
  const payload = bytes.subarray(0, 21);
  const check = checksumOf(payload);
  for (let i = 0; i < 4; i++) if (bytes[21 + i] !== check[i]) return null;
  return `0x${hex(payload.subarray(1))}`;
}

/** The TRON base58check address of a 0x address (20 bytes, any case). */
export function hexToTron(address: string): string {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new Error(`not a 20-byte hex address: ${address}`);
  const payload = new Uint8Array(21);
  payload[0] = TRON_PREFIX;
  for (let i = 0; i < 20; i++) payload[i + 1] = Number.parseInt(address.slice(2 + 2 * i, 4 + 2 * i), 16);
  const full = new Uint8Array(25);
  full.set(payload);
  full.set(checksumOf(payload), 21);
  return base58Encode(full);
}

export const isTronAddress = (address: string) => tronToHex(address) !== null;
