import { expect, test } from "bun:test";
import { mnemonicToSeedSync } from "@scure/bip39";
import { HDKey } from "@scure/bip32";
import { mnemonicToAccount } from "viem/accounts";
import { readXpub } from "./xpub";
import { tronToHex } from "./tron";

const MNEMONIC = "test test test test test test test test test test test junk";
const root = HDKey.fromMasterSeed(mnemonicToSeedSync(MNEMONIC));
const accountKey = (path: string) => root.derive(path);
const BSC_XPUB = accountKey("m/44'/60'/0'").publicExtendedKey;
const TRON_XPUB = accountKey("m/44'/195'/0'").publicExtendedKey;

test("a member's BEP20 address is the account key's child 0/i: the same as a wallet holding the phrase derives", () => {
  const key = readXpub("BEP20", BSC_XPUB);
  if ("problem" in key) throw new Error(key.problem);
  for (const i of [0, 1, 2, 7]) {
    const wallet = mnemonicToAccount(MNEMONIC, { addressIndex: i }).address;
    expect(key.derive(i)).toEqual({ address: wallet, hex: wallet.toLowerCase() as `0x${string}` });
  }
});

test("a TRON address is the same kind of key on 195's path, written base58check with 0x41", () => {
  const key = readXpub("TRC20", TRON_XPUB);
  if ("problem" in key) throw new Error(key.problem);
  const tron = mnemonicToAccount(MNEMONIC, { path: "m/44'/195'/0'/0/3" as never }).address.toLowerCase();
  const derived = key.derive(3);
  expect(derived.hex).toBe(tron as `0x${string}`);
  expect(derived.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
  expect(tronToHex(derived.address)).toBe(derived.hex);
  expect(key.derive(4).address).not.toBe(derived.address);
});

test("a private key, a recovery phrase, a key at another depth or text that is no key is refused, and never repeated", () => {
  const xprv = accountKey("m/44'/60'/0'").privateExtendedKey;
  const raw = "0x" + "ab".repeat(32);
  for (const secret of [xprv, raw, MNEMONIC]) {
    const read = readXpub("BEP20", secret);
    expect(read).toHaveProperty("problem");
    expect((read as { problem: string }).problem).not.toContain(secret.slice(4, 20));
  }
  expect(readXpub("BEP20", root.derive("m/44'/60'").publicExtendedKey)).toEqual({ problem: expect.stringContaining("depth 2") });
  expect(readXpub("BEP20", "xpub-not-a-key")).toEqual({ problem: expect.stringContaining("does not parse") });
  // A checksum that does not match: one character changed.
  const broken = BSC_XPUB.slice(0, -1) + (BSC_XPUB.endsWith("A") ? "B" : "A");
  expect(readXpub("BEP20", broken)).toEqual({ problem: expect.stringContaining("does not parse") });
});
