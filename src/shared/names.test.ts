import { describe, expect, test } from "bun:test";
import { cleanName, readsAsPlatform } from "./names";

describe("cleanName", () => {
  test("removes controls and every format character (Cc, Cf): bidi marks and isolates, zero-width, BOM, soft hyphen", () => {
    const invisible = [
      ..."\u0000\u0001\u001f\u007f\u0085\u009f",
      "\u00ad",
      ..."\u200b\u200c\u200d\u200e\u200f",
      ..."\u202a\u202b\u202c\u202d\u202e",
      ..."\u2060\u2066\u2067\u2068\u2069",
      "\ufeff",
      "\u061c",
    ];
    for (const char of invisible) expect([char.codePointAt(0), cleanName(`Ad${char}a`)]).toEqual([char.codePointAt(0), "Ada"]);
  });

  test("removes characters that print as nothing or a blank, of other categories too", () => {
    for (const char of ["\u034f", "\ufe0f", "\u3164", "\u115f", "\u2800", "\uffa0"]) expect(cleanName(`Ad${char}a`)).toBe("Ada");
  });

  test("turns every space into one plain space, collapses runs and trims", () => {
    expect(cleanName("  Ada \t\n  Lovelace \u00a0\u2003\u3000 ")).toBe("Ada Lovelace");
    expect(cleanName("Ada \u200b Lovelace")).toBe("Ada Lovelace");
  });

  test("keeps letters of every script and their accents, in NFC", () => {
    expect(cleanName("Zoe\u0308")).toBe("Zoë");
    for (const name of ["José Álvarez", "Мария", "李小龍", "محمد", "Ørjan"]) expect(cleanName(name)).toBe(name);
  });
});

describe("readsAsPlatform", () => {
  test("catches the reserved names in any case, spacing, punctuation or look-alike", () => {
    const reserved = [
      "System", "system", "SYSTEM", "Sys tem", "S y s t e m", "S.y.s.t.e.m", "S-Y-S-T-E-M", "5ystem", "$ystem", "Syst3m", "Sÿstem", "Ｓｙｓｔｅｍ",
      "Sys\u200btem", "Admin", "ADMIN", "Adm1n", "adm!n", "@dmin", "adrnin", "\u0410dmin", "\u0391DMIN", "Administrator", "Platform", "P1atf0rm",
      "PLAT FORM", "Matrix USDT", "matrixusdt", "Matrix  U.S.D.T", "MATR1X U5DT", "SystemAdmin", "Admin Team", "The System", "Mr. Admin",
    ];
    for (const name of reserved) expect([name, readsAsPlatform(name)]).toEqual([name, true]);
  });

  test("lets ordinary names through, reserved words inside longer words included", () => {
    for (const name of ["Ada Lovelace", "Badminton Club", "Ecosystem", "Systematic Sam", "Matrix", "USDT fan", "Adam", "Sy Stemson", "Li Na"]) {
      expect([name, readsAsPlatform(name)]).toEqual([name, false]);
    }
  });
});
