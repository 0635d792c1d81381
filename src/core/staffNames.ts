import unhomoglyph from "unhomoglyph";
import { RESERVED_NAMES } from "../shared/constants";

/**
 * Names that pass for staff, read the way Unicode's security mechanisms read look-alikes
 * (UTS #39): the name's confusable skeleton (NFD, each character mapped to the prototype of its
 * confusables.txt class, NFD again: the npm `unhomoglyph` package holds the table), with digits,
 * symbols, punctuation and spaces removed, is one of the reserved words, or several of them
 * ("Admin!", "System1", "Admin™", "Sүstem" with a Cyrillic ү, "Ꭺdmin" with a Cherokee Ꭺ).
 *
 * It stands beside `readsAsPlatform` (src/shared/names.ts), which the forms share and which reads
 * digits as the letters they look like ("Adm1n", "5ystem"); this one is the server's alone (the
 * table is some 100 KB, no page should carry it). A name is refused when either says so.
 */

/**
 * Look-alikes confusables.txt does not join to a Latin letter: the Greek capital lambda (and the
 * Latin turned V it maps to) reads as an A without its bar in a name ("ΛDMIN").
 */
const EXTRA: Record<string, string> = { Λ: "A", λ: "a", Ʌ: "A", ʌ: "a" };
const EXTRA_CHARS = new RegExp(`[${Object.keys(EXTRA).join("")}]`, "g");

/** UTS #39's skeleton of `text`. */
export const skeleton = (text: string) => unhomoglyph(text.normalize("NFD")).normalize("NFD");

/** Letters only: digits, symbols, punctuation, spaces and the marks NFD split off go. */
const lettersOnly = (text: string) => text.replace(/[^\p{L}]/gu, "");

/**
 * The forms of a name compared with the reserved words. confusables.txt maps by case (I to l,
 * m to rn), so the name is read both with its case folded before the skeleton ("ADMIN") and with
 * the skeleton taken first ("Ꭺdmin": the Cherokee letter's lower case has no Latin prototype).
 */
function readings(name: string): string[] {
  const text = lettersOnly(name.replace(EXTRA_CHARS, (c) => EXTRA[c]!));
  const folded = lettersOnly(skeleton(text.toLowerCase()).toLowerCase());
  const skeletonFirst = lettersOnly(skeleton(skeleton(text).toLowerCase()).toLowerCase());
  return [folded, skeletonFirst];
}

const RESERVED = [...new Set(RESERVED_NAMES.flatMap(readings))].sort((a, b) => b.length - a.length);
const RESERVED_ONLY = new RegExp(`^(?:${RESERVED.map((r) => r.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})+$`);

/** Whether the name, read as its skeleton with everything but letters removed, is reserved words only. */
export function looksLikeStaff(name: string): boolean {
  return readings(name).some((reading) => reading !== "" && RESERVED_ONLY.test(reading));
}
