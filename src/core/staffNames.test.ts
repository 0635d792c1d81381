import { describe, expect, test } from "bun:test";
import { readsAsPlatform } from "../shared/names";
import { looksLikeStaff, skeleton } from "./staffNames";
import { acceptableName } from "./users";

describe("names that pass for staff (UTS #39 skeleton, letters only)", () => {
  test("the names the forms' rule let through are refused: signs and digits around a reserved word, look-alikes of other scripts", () => {
    // Each was accepted before: "Sүstem" has a Cyrillic ү, "ΛDMIN" a Greek capital lambda, "Ꭺdmin" a Cherokee letter.
    for (const name of ["Admin!", "System1", "Admin2", "Admin™", "S\u04AFstem", "\u039BDMIN", "\u13AAdmin", "Ad Min", "PLATFORM 2026", "Admin.System"]) {
      expect([name, looksLikeStaff(name)]).toEqual([name, true]);
      expect(() => acceptableName(name)).toThrow("Please choose another name");
    }
  });

  test("ordinary names go through, reserved words inside longer ones included", () => {
    for (const name of ["Ada Lovelace", "Badminton Club", "Ecosystem", "Systematic Sam", "Admiral Grace", "Yasmin", "Amin", "Lambda", "Мария", "李小龍", "محمد", "Ørjan", "Matrix"]) {
      expect([name, looksLikeStaff(name), readsAsPlatform(name)]).toEqual([name, false, false]);
      expect(acceptableName(name)).toBe(name);
    }
  });

  test("the skeleton is UTS #39's: NFD, each character to its confusables.txt prototype", () => {
    expect(skeleton("m")).toBe("rn");
    expect(skeleton("\u0410\u0391\u13AA")).toBe("AAA");
    expect(skeleton("S\u04AFstem")).toBe(skeleton("System"));
  });
});
