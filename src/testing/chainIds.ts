import { hexToTron } from "../core/chain/tron";

/** Made-up but well-formed chain identifiers for tests: random, so tests never collide. */

const randomHex = (bytes: number) => Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");

/** A TRC20 transaction ID: 64 hex characters (a BEP20 one is the same with 0x in front). */
export const randomTxId = () => randomHex(32);

/** A BEP20 transaction ID: 0x and 64 hex characters. */
export const randomBep20TxId = () => `0x${randomHex(32)}`;

/** A valid TRON address (base58check), random. */
export const randomTronAddress = () => hexToTron(`0x${randomHex(20)}`);

/** A valid BNB Smart Chain address (lower case), random. */
export const randomBep20Address = () => `0x${randomHex(20)}`;

/** A fixed, valid TRON address (USDT's own contract on TRON) for tests that need one sender. */
export const TRON_SENDER = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
