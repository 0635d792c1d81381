import { RESERVED_NAMES } from "./constants";

/*
 * A member's name is shown to other members (the gift search, partner lists, matrices), so it
 * must read as what it is. Two rules, shared by the register form, the server's schema and
 * `registerUser` (src/core/users.ts):
 *
 * - `cleanName`: characters nobody can see or that reorder the text around them are removed
 *   (controls, format characters: bidi marks and isolates, zero-width spaces and joiners, the
 *   byte-order mark, the soft hyphen, fillers that print as blanks); every kind of space becomes
 *   one plain space, runs of them collapse, the ends are trimmed.
 * - `readsAsPlatform`: a name that would pass for the operator (System, Admin, Administrator,
 *   Platform, the brand) is refused, whatever its case, spacing, punctuation, accents, look-alike
 *   digits or letters of other scripts ("Sys tem", "S.y.s.t.e.m", "5ystem", "ΑDMIN").
 *
 * The server adds a third, its own: the name's Unicode confusable skeleton (UTS #39,
 * src/core/staffNames.ts), whose table is too large for the forms to carry.
 */

/** Every space, tab or line break of Unicode: each becomes one plain space. */
const SPACES = /[\t\n\v\f\r\p{Z}]+/gu;
/**
 * Controls (Cc) and format characters (Cf: U+00AD, U+200B-U+200F, U+202A-U+202E, U+2060-U+2064,
 * U+2066-U+2069, U+FEFF, ...), plus characters of other categories that print as nothing or as a
 * blank: the combining grapheme joiner, variation selectors, Hangul fillers, the braille blank.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u2800\u3164\ufe00-\ufe0f\uffa0\u{e0100}-\u{e01ef}]/gu;

/** The name as it is kept and shown: visible characters only, single spaces, trimmed, NFC. */
export function cleanName(raw: string): string {
  return raw.normalize("NFC").replace(SPACES, " ").replace(INVISIBLE, "").replace(/ {2,}/g, " ").trim();
}

/** Characters that pass for a Latin letter, after NFKC, lower case and accents removed. */
const LOOK_ALIKES: Record<string, string> = {
  // digits and signs
  "0": "o", "1": "i", "2": "z", "3": "e", "4": "a", "5": "s", "6": "g", "7": "t", "8": "b", "9": "g",
  "$": "s", "@": "a", "!": "i", "|": "i", "€": "e", "£": "i",
  // Latin letters that look alike: i, l and j count as one, as do the dotless i
  "l": "i", "ı": "i", "ȷ": "i", "ł": "i", "ƚ": "i", "ɩ": "i", "ø": "o", "đ": "d", "ħ": "h", "ß": "b",
  // Cyrillic
  "а": "a", "в": "b", "е": "e", "ё": "e", "з": "e", "к": "k", "м": "m", "н": "h", "о": "o", "п": "n", "р": "p", "с": "c", "т": "t",
  "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "i", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ѡ": "w", "ɡ": "g", "ӏ": "i", "ь": "b",
  // Greek
  "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "μ": "m", "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u",
  "χ": "x", "γ": "y", "ς": "s", "σ": "o", "ω": "w", "δ": "d",
};
/** Letter pairs that read as one letter. */
const PAIRS: [RegExp, string][] = [
  [/rn/g, "m"],
  [/vv/g, "w"],
  [/cl/g, "d"],
];

/** What a word looks like: lower-case Latin letters only, look-alikes folded, the rest dropped. */
export function nameSkeleton(text: string): string {
  let folded = "";
  for (const char of text.normalize("NFKC").toLowerCase().normalize("NFD").replace(/\p{M}/gu, "")) folded += LOOK_ALIKES[char] ?? char;
  let skeleton = folded.replace(/[^a-z]/g, "");
  for (const [pair, letter] of PAIRS) skeleton = skeleton.replace(pair, letter);
  return skeleton;
}

/** One or more reserved words and nothing else: "admin", "systemadmin", "matrixusdt". */
const RESERVED = new RegExp(`^(?:${[...new Set(RESERVED_NAMES.map(nameSkeleton))].sort((a, b) => b.length - a.length).join("|")})+$`);

/**
 * True when some run of consecutive words of the name, read together, is made only of reserved
 * words: "Admin", "Sys tem", "S y s t e m", "5ystem", "Admin Team", "Matrix  USDT", "SystemAdmin".
 * A reserved word inside a longer one is not ("Badminton", "Ecosystem").
 */
export function readsAsPlatform(name: string): boolean {
  // Signs that pass for letters are letters here; every other sign or space separates words.
  const words = cleanName(name)
    .normalize("NFKC")
    .replace(/[$@!|€£]/g, (sign) => LOOK_ALIKES[sign] ?? sign)
    .split(/[^\p{L}\p{N}\p{M}]+/u)
    .map(nameSkeleton)
    .filter((word) => word !== "");
  for (let start = 0; start < words.length; start++) {
    let run = "";
    for (let end = start; end < words.length; end++) {
      run += words[end];
      if (RESERVED.test(run)) return true;
    }
  }
  return false;
}
