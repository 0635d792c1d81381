import { describe, expect, test } from "bun:test";
import { readTransactionId } from "./chain";

const ID = "9f2c4b1a7e0d3c5b8a6f4e2d1c0b9a8f7e6d5c4b3a29180716253443526170ab";
const ok = (canonical: string, display = canonical) => ({ canonical, display });

describe("a transaction ID has one canonical form per network (NFKC, trimmed, lower case, no 0x)", () => {
  test("TRC20: 64 hex characters; case and surrounding spaces do not matter; fullwidth letters fold in", () => {
    expect(readTransactionId("TRC20", ID)).toEqual(ok(ID));
    expect(readTransactionId("TRC20", ID.toUpperCase())).toEqual(ok(ID));
    expect(readTransactionId("TRC20", `  ${ID}\n`)).toEqual(ok(ID));
    expect(readTransactionId("TRC20", `\u3000${ID}\u00a0`)).toEqual(ok(ID)); // ideographic and no-break spaces
    const fullwidth = ID.replace("f", "\uff46").replace("c", "\uff23"); // ｆ, Ｃ
    expect(readTransactionId("TRC20", fullwidth)).toEqual(ok(ID));
  });

  test("BEP20: 0x and 64 hex characters (0X too); stored without the 0x, shown with it", () => {
    expect(readTransactionId("BEP20", `0x${ID}`)).toEqual(ok(ID, `0x${ID}`));
    expect(readTransactionId("BEP20", `0X${ID.toUpperCase()}`)).toEqual(ok(ID, `0x${ID}`));
    expect(readTransactionId("BEP20", `\uff10\uff58${ID}`)).toEqual(ok(ID, `0x${ID}`)); // fullwidth "０ｘ"
  });

  test("each network refuses the other's spelling, saying so", () => {
    expect(readTransactionId("TRC20", `0x${ID}`)).toEqual({ problem: expect.stringMatching(/without 0x.*BEP20/) });
    expect(readTransactionId("BEP20", ID)).toEqual({ problem: expect.stringMatching(/starts with 0x.*TRC20/) });
  });

  test("look-alikes are refused with the reason: invisible characters, combining marks, letters that only look hexadecimal, wrong lengths", () => {
    const refused: [string, RegExp][] = [
      [`${ID}\u200b`, /invisible character/],
      [`\u200b${ID}`, /invisible character/],
      [`${ID.slice(0, 10)}\u200d${ID.slice(10)}`, /invisible character/],
      [`\ufeff${ID}\u2060`, /invisible character/],
      [`${ID.slice(0, 10)}\u202e${ID.slice(10)}`, /invisible character/], // right-to-left override
      [`${ID.slice(0, 3)}\u0301${ID.slice(3)}`, /combining mark/],
      [`${ID.slice(0, 3)}\u00e1${ID.slice(4)}`, /"á" \(U\+00E1\)/],
      [`\u0430${ID.slice(1)}`, /"а" \(U\+0430\)/], // Cyrillic a
      [`${ID.slice(0, 32)} ${ID.slice(32)}`, /space/],
      [ID.slice(1), /has 63/],
      [`${ID}0`, /has 65/],
      [`g${ID.slice(1)}`, /"g", which is not/],
    ];
    for (const [text, reason] of refused) expect({ text, read: readTransactionId("TRC20", text) }).toEqual({ text, read: { problem: expect.stringMatching(reason) } });
    expect(readTransactionId("BEP20", `0x${ID.slice(2)}`)).toEqual({ problem: expect.stringMatching(/has 62 after the 0x/) });
  });
});
