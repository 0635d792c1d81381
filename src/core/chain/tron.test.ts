import { expect, test } from "bun:test";
import { readAddress } from "./addresses";
import { hexToTron, tronToHex } from "./tron";

test("a TRON base58check address and its 0x form are one address (the test vector)", () => {
  expect(tronToHex("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t")).toBe("0xa614f803b6fd780986a42c78ec9c7f77e6ded13c");
  expect(hexToTron("0xa614f803b6fd780986a42c78ec9c7f77e6ded13c")).toBe("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t");
  expect(hexToTron("0xA614F803B6FD780986A42C78EC9C7F77E6DED13C")).toBe("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t");
});

test("any 20 bytes go there and back; the zero address keeps its leading ones", () => {
  for (let i = 0; i < 200; i++) {
    const hex = `0x${Array.from(crypto.getRandomValues(new Uint8Array(20)), (b) => b.toString(16).padStart(2, "0")).join("")}`;
    const address = hexToTron(hex);
    expect(address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(tronToHex(address) as string).toBe(hex);
  }
});

test("a wrong checksum, a wrong prefix byte, a wrong length or a character outside base58 is no TRON address", () => {
  const good = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
  expect(tronToHex(`${good.slice(0, -1)}u`)).toBeNull(); // one character changed: the checksum fails
  expect(tronToHex(good.slice(0, -1))).toBeNull();
  expect(tronToHex(good.replace("q", "0"))).toBeNull(); // 0 is not base58
  // A Bitcoin-style address: valid base58check, another prefix byte.
  expect(tronToHex("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2")).toBeNull();
  expect(tronToHex("TQ5dEmoWa11etAddre55NotForRea1Funds")).toBeNull(); // the demo address
});

test("readAddress checks the whole address: base58check on TRON, EIP-55 on BNB Smart Chain when the case is mixed", () => {
  expect(readAddress("TRC20", " TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t ")).toEqual({
    display: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
    hex: "0xa614f803b6fd780986a42c78ec9c7f77e6ded13c",
  });
  expect(readAddress("TRC20", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u")).toMatchObject({ problem: expect.stringContaining("checksum") });
  expect(readAddress("TRC20", "0xa614f803b6fd780986a42c78ec9c7f77e6ded13c")).toMatchObject({ problem: expect.stringContaining("BEP20") });
  const checksummed = "0x52908400098527886E0F7030069857D2E4169EE7";
  const expected = { display: checksummed, hex: checksummed.toLowerCase() } as ReturnType<typeof readAddress>;
  expect(readAddress("BEP20", checksummed.toLowerCase())).toEqual(expected);
  expect(readAddress("BEP20", checksummed)).toEqual(expected);
  expect(readAddress("BEP20", checksummed.replace("E0F", "e0F"))).toMatchObject({ problem: expect.stringContaining("checksum") });
  expect(readAddress("BEP20", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t")).toMatchObject({ problem: expect.stringContaining("TRC20") });
  expect(readAddress("BEP20", "0x1234")).toMatchObject({ problem: expect.stringContaining("40 characters") });
  expect(readAddress("TRC20", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t\u200b")).toMatchObject({ problem: expect.stringContaining("invisible") });
});
