/**
 * The stylesheets of scripts/build.ts, from UnoCSS (uno.config.ts):
 *
 * - the dashboard's (`APP_CSS`): the sources the app shells import, one hashed file they link,
 *   cached for a year;
 * - each server-rendered page's own (`PAGE_CSS`): only the sources that page imports, made
 *   smaller by compactCss(); the server inlines it, so the first paint needs no other request.
 */
import { createGenerator, type UnoGenerator } from "@unocss/core";
import { dirname, join, relative } from "node:path";
import unoConfig from "../uno.config";

const ROOT = join(import.meta.dir, "..");

/** Where class names are written: the client, the shared UI and the server-rendered pages. */
const IN_CSS_SOURCES = /^src\/(client|ui|server\/web)\/.*\.tsx?$/;
const isTest = (file: string) => /\.test\.tsx?$/.test(file);

/** The server-rendered pages, each with the files its HTML and its island come from. */
export const PAGE_CSS = {
  landing: ["src/server/web/landing/LandingPage.tsx", "src/client/landing/island.ts"],
  howItWorks: ["src/server/web/howItWorks/HowItWorksPage.tsx", "src/client/landing/island.ts"],
  notFound: ["src/server/web/NotFoundPage.tsx", "src/client/landing/island.ts"],
} as const;
export type PageName = keyof typeof PAGE_CSS;

const transpilers = { ts: new Bun.Transpiler({ loader: "ts" }), tsx: new Bun.Transpiler({ loader: "tsx" }) };

/**
 * The files under src/client, src/ui and src/server/web that `entries` import, themselves
 * included, following relative imports (static and dynamic) through any file: a page reaches
 * src/ui through src/server/web. Paths relative to the root.
 */
export async function sourcesOf(entries: readonly string[], root = ROOT): Promise<string[]> {
  const seen = new Set<string>();
  const queue = entries.map((e) => join(root, e));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = await Bun.file(file).text();
    for (const { path } of transpilers[file.endsWith(".tsx") ? "tsx" : "ts"].scanImports(text)) {
      if (!path.startsWith(".")) continue;
      const resolved = Bun.resolveSync(path, dirname(file));
      if (!resolved.includes("/node_modules/")) queue.push(resolved);
    }
  }
  return [...seen].map((f) => relative(root, f)).filter((f) => IN_CSS_SOURCES.test(f) && !isTest(f)).sort();
}

/** Quoted and template strings (on one line, for quotes): where class names are written. */
const STRINGS = /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g;

/** `onlyStrings`: extract from the files' strings only, not from comments, keys and JSX text. */
async function generate(uno: UnoGenerator, files: string[], { onlyStrings = false, root = ROOT } = {}) {
  const tokens = new Set<string>();
  for (const file of files) {
    const text = await Bun.file(join(root, file)).text();
    const code = onlyStrings ? (text.match(STRINGS) ?? []).join("\n") : text;
    await uno.applyExtractors(code, join(root, file), tokens);
  }
  return uno.generate(tokens, { preflights: true, minify: true });
}

/** The app shells' pages: the dashboard bundle (its lazy routes included) and the shell document. */
export const APP_CSS = ["src/client/app/main.tsx", "src/server/web/ShellPage.tsx"] as const;

/** The dashboard's stylesheet: every class of the sources the app shells import, and the safelist. */
export async function appCss(): Promise<string> {
  return (await generate(await createGenerator(unoConfig), await sourcesOf(APP_CSS))).css;
}

/**
 * One page's stylesheet: the classes written in the strings of its own sources, compacted
 * (`compact: false`: as UnoCSS writes it, to compare the rendering with). No safelist (it is for
 * classes the dashboard composes at run time), and not the unprefixed spacing forms (`m21`,
 * `p4`) that SVG path data spells but no markup writes.
 */
export async function pageCss(page: PageName, { compact = true } = {}): Promise<{ css: string; classes: Set<string> }> {
  const uno = await createGenerator({ ...unoConfig, safelist: [], blocklist: [/^[mp][xytrbles]?\d+$/] });
  const files = await sourcesOf(PAGE_CSS[page]);
  const { css, matched } = await generate(uno, files, { onlyStrings: true });
  return { css: compact ? compactCss(css, { elements: await elementsOf(files) }) : css, classes: matched };
}

/**
 * The element names `files` can put in a page: their JSX and HTML tags (`<dialog`) and the
 * elements they create (`createElement("div")`), with the document's own.
 */
export async function elementsOf(files: string[], root = ROOT): Promise<Set<string>> {
  const names = new Set(["html", "head", "body"]);
  for (const file of files) {
    const text = await Bun.file(join(root, file)).text();
    for (const m of text.matchAll(/<([a-z][a-z0-9]*)[\s>/]|createElement(?:NS)?\((?:[^,()]*,\s*)?["'`]([a-z][a-z0-9]*)["'`]/g)) names.add(m[1] ?? m[2]!);
  }
  return names;
}

// ---------------------------------------------------------------------------------------------
// compactCss: the same rules in fewer bytes (e2e/landingLook.test.ts draws a page with both).

interface Block {
  /** The selector or at-rule prelude; for a statement without a block (`@import ...;`), the whole of it. */
  prelude: string;
  /** Declarations (a style rule) or nested blocks (an at-rule); undefined for a statement. */
  body?: string;
  children?: Block[];
}

/** Index of the `}` that closes the `{` at `open`, skipping strings. */
function closingBrace(css: string, open: number): number {
  let depth = 0;
  for (let i = open; i < css.length; i++) {
    const ch = css[i];
    if (ch === '"' || ch === "'") i = css.indexOf(ch, i + 1);
    else if (ch === "{") depth++;
    else if (ch === "}" && --depth === 0) return i;
  }
  throw new Error("compactCss: unbalanced braces");
}

const NESTING_AT_RULES = /^@(media|supports|layer|container|scope|document|starting-style)\b/;

function parse(css: string): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < css.length) {
    const open = css.indexOf("{", i);
    const semicolon = css.indexOf(";", i);
    if (open < 0) break;
    if (semicolon >= 0 && semicolon < open && css.slice(i, semicolon).trim().startsWith("@")) {
      blocks.push({ prelude: css.slice(i, semicolon + 1).trim() });
      i = semicolon + 1;
      continue;
    }
    const close = closingBrace(css, open);
    const prelude = css.slice(i, open).trim();
    const inner = css.slice(open + 1, close);
    blocks.push(NESTING_AT_RULES.test(prelude) ? { prelude, children: parse(inner) } : { prelude, body: inner });
    i = close + 1;
  }
  return blocks;
}

function print(blocks: Block[]): string {
  return blocks
    .map((b) => (b.children ? `${b.prelude}{${print(b.children)}}` : b.body === undefined ? b.prelude : `${b.prelude}{${b.body}}`))
    .join("");
}

/** Splits declarations at the semicolons outside parentheses and strings. */
function declarations(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch === '"' || ch === "'") i = body.indexOf(ch, i + 1);
    else if (ch === "(") depth++;
    else if (ch === ")") depth--;
    else if (ch === ";" && depth === 0) {
      out.push(body.slice(start, i));
      start = i + 1;
    }
  }
  out.push(body.slice(start));
  return out.map((d) => d.trim()).filter(Boolean);
}

function walk(blocks: Block[], visit: (block: Block) => void) {
  for (const block of blocks) {
    visit(block);
    if (block.children) walk(block.children, visit);
  }
}

/** `var(` ... matching `)`, with its name and fallback, found from `from` on. */
function nextVar(text: string, from: number): { at: number; end: number; name: string; fallback?: string } | null {
  const at = text.indexOf("var(", from);
  if (at < 0) return null;
  let depth = 1;
  let end = at + 4;
  for (; end < text.length && depth > 0; end++) {
    if (text[end] === "(") depth++;
    else if (text[end] === ")") depth--;
  }
  const inner = text.slice(at + 4, end - 1);
  const comma = inner.indexOf(",");
  return { at, end, name: (comma < 0 ? inner : inner.slice(0, comma)).trim(), fallback: comma < 0 ? undefined : inner.slice(comma + 1).trim() };
}

/** Variables only wind4 sets (in its rules), never the product's markup. */
const WIND4_VARIABLE = /^--(un|default)-/;
/** The selector wind4 sets its registered properties' defaults on, where @property is missing. */
const isPropertyDefaults = (b: Block) => b.prelude.startsWith("@supports ((-webkit-hyphens: none)");
/** wind4 states every theme colour twice: mixed in sRGB, then again in Oklab for browsers that can. */
const isOklabRestatement = (b: Block) => b.prelude.replace(/\s+/g, " ") === "@supports (color: color-mix(in lab, red, red))";
const isTheme = (b: Block) => b.body !== undefined && /^:root\s*,\s*:host$/.test(b.prelude);
const propertyName = (b: Block) => /^@property\s+(--[\w-]+)$/.exec(b.prelude)?.[1];

/**
 * UnoCSS's wind4 output in fewer bytes, drawing the same:
 *
 * - theme variables (`:root{--colors-panel-DEFAULT:#1e293b}`, never set elsewhere) are written
 *   in place of their `var()`, and calc() of a length by a number is worked out
 *   (`calc(0.25rem * 4)` -> `1rem`);
 * - a wind4 variable that no rule sets is always its registered initial value
 *   (`@property --un-text-opacity`, 100%) or, with none, its `var()`'s fallback: written in
 *   place too. A colour mixed with `transparent` is that colour at the mixed alpha, in sRGB and
 *   in Oklab alike: `color-mix(in srgb, #4c3a8f 70%, transparent)` is `rgb(76 58 143/.7)`, and
 *   wind4's Oklab restatement of each theme colour is dropped;
 * - a declaration that a later one of the same rule always overrides (`outline-style:var(...)`
 *   before `outline-style:solid`) is dropped, then the wind4 variables no `var()` reads, with
 *   their @property and default;
 * - rules with the same declarations are written once, when nothing between them sets those
 *   properties; @keyframes no rule names are dropped, and numbers and whitespace written short;
 * - with `elements` (the element names the page can have), the selectors of the reset that
 *   name another element (`hr`, `abbr:where([title])`, `table`) are dropped.
 */
export function compactCss(input: string, { elements }: { elements?: Set<string> } = {}): string {
  const prune = (list: Block[]): Block[] =>
    list.filter((b) => !isOklabRestatement(b)).map((b) => (b.children ? { ...b, children: prune(b.children) } : b));
  const blocks = prune(parse(input)).flatMap((b) => (elements ? onlyPresent(b, elements) : [b]));

  // Inside the property defaults' @supports, every block states defaults only.
  const insideDefaults = new Set<Block>();
  walk(blocks.filter(isPropertyDefaults), (b) => insideDefaults.add(b));
  const styleRules: Block[] = [];
  walk(blocks, (b) => {
    if (b.body !== undefined && !b.prelude.startsWith("@") && !isTheme(b) && !insideDefaults.has(b)) styleRules.push(b);
  });

  // What each variable is: a theme value, a registered property's initial value, or set by a rule.
  const theme = new Map<string, string>();
  const registered = new Map<string, string | undefined>();
  const setByRules = new Set<string>();
  walk(blocks, (b) => {
    const registeredName = propertyName(b);
    if (registeredName) registered.set(registeredName, /initial-value:\s*([^;]+)/.exec(b.body ?? "")?.[1]?.trim());
    else if (isTheme(b)) for (const [name, value] of declared(b.body!)) theme.set(name, value);
  });
  for (const rule of styleRules) for (const [name] of declared(rule.body!)) if (name.startsWith("--")) setByRules.add(name);

  const valueOf = (name: string, fallback: string | undefined): string | undefined => {
    if (setByRules.has(name)) return undefined;
    if (theme.has(name)) return substitute(theme.get(name)!);
    const initial = registered.get(name);
    if (initial !== undefined) return initial;
    // Unset, with no initial value: the fallback applies.
    if (WIND4_VARIABLE.test(name) && fallback !== undefined) return substitute(fallback);
    return undefined;
  };
  function substitute(text: string): string {
    let out = "";
    let from = 0;
    for (let v = nextVar(text, 0); v; v = nextVar(text, from)) {
      const value = valueOf(v.name, v.fallback);
      out += text.slice(from, v.at) + (value ?? (v.fallback === undefined ? `var(${v.name})` : `var(${v.name},${substitute(v.fallback)})`));
      from = v.end;
    }
    return out + text.slice(from);
  }

  for (const rule of styleRules) {
    const list = declared(rule.body!).map(([name, value]): [string, string] => {
      const written = shortValue(substitute(value));
      // A value left empty would drop the declaration at parse time instead of at computed time.
      return [name, written === "" ? value : written];
    });
    // An earlier declaration of a property is dead when a later one always parses: it holds a
    // var() (checked at computed time), or a plain number, length or keyword.
    const live = list.filter(([name], i) => name.startsWith("--") || !list.slice(i + 1).some(([other, value]) => other === name && ALWAYS_PARSES.test(value)));
    rule.body = live.map(([name, value]) => `${name}:${value}`).join(";");
  }

  // wind4 variables that no var() reads any more: their declarations go, until none is left.
  let read = new Set<string>();
  for (;;) {
    read = new Set(styleRules.flatMap((r) => [...r.body!.matchAll(/var\((--[\w-]+)/g)].map((m) => m[1]!)));
    let removed = false;
    for (const rule of styleRules) {
      const list = declared(rule.body!);
      const live = list.filter(([name]) => !(WIND4_VARIABLE.test(name) && !read.has(name)));
      if (live.length === list.length) continue;
      removed = true;
      rule.body = live.map(([name, value]) => `${name}:${value}`).join(";");
    }
    if (!removed) break;
  }

  const animations = styleRules.flatMap((r) => declared(r.body!).filter(([name]) => name === "animation" || name === "animation-name").map(([, v]) => v)).join(" ");
  const keep = (b: Block): Block | null => {
    const registeredName = propertyName(b);
    if (registeredName) return read.has(registeredName) ? b : null;
    if (isTheme(b) || (insideDefaults.has(b) && b.body !== undefined)) {
      const body = declared(b.body!).filter(([name]) => read.has(name));
      return body.length > 0 ? { ...b, body: body.map(([n, v]) => `${n}:${v}`).join(";") } : null;
    }
    const frames = /^@(?:-webkit-)?keyframes\s+([\w-]+)$/.exec(b.prelude)?.[1];
    if (frames && !new RegExp(`(^|[\\s,])${frames}([\\s,]|$)`).test(animations)) return null;
    if (b.body !== undefined && !b.prelude.startsWith("@") && b.body === "") return null;
    if (!b.children) return b;
    const children = mergeSame(b.children.map(keep).filter((c): c is Block => c !== null));
    return children.length > 0 ? { ...b, children } : null;
  };
  return squeeze(print(mergeSame(blocks.map(keep).filter((b): b is Block => b !== null))));
}

/**
 * A top-level style rule without the selectors whose subject is an element the page cannot
 * have; none when no selector is left. Only selectors that start their subject with an element
 * name count: `.x`, `*`, `::placeholder` and `[hidden]` stay.
 */
function onlyPresent(block: Block, elements: Set<string>): Block[] {
  if (block.body === undefined || block.prelude.startsWith("@")) return [block];
  const selectors = splitSelectors(block.prelude);
  const kept = selectors.filter((selector) => {
    const subject = selector.trim().split(/\s*[\s>+~]\s*(?![^(]*\))/).pop() ?? "";
    const name = /^[a-z][a-z0-9]*/.exec(subject)?.[0];
    return name === undefined || elements.has(name);
  });
  if (kept.length === selectors.length) return [block];
  return kept.length > 0 ? [{ ...block, prelude: kept.join(",") }] : [];
}

/** A selector list split at its top-level commas (not those inside `:is(a, b)`). */
function splitSelectors(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    if (list[i] === "(" || list[i] === "[") depth++;
    else if (list[i] === ")" || list[i] === "]") depth--;
    else if (list[i] === "," && depth === 0) {
      out.push(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(list.slice(start).trim());
  return out;
}

/** Property and value of each declaration of a rule's body. */
function declared(body: string): [string, string][] {
  return declarations(body).flatMap((d): [string, string][] => {
    const colon = d.indexOf(":");
    return colon < 0 ? [] : [[d.slice(0, colon).trim(), d.slice(colon + 1).trim()]];
  });
}

/** Values every browser parses: a var() (checked only at computed time), a number or length, a common keyword. */
const ALWAYS_PARSES = /var\(|^-?(\d*\.)?\d+(px|rem|em|%|ms|s)?$|^(none|solid|auto|normal|inherit|initial|unset|transparent)$/;

const hexToRgb = (hex: string) => {
  const h = hex.length === 4 ? [...hex.slice(1)].map((c) => c + c).join("") : hex.slice(1);
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)).join(" ");
};
const shortNumber = (n: number) => String(+n.toFixed(6)).replace(/^(-?)0\./, "$1.");

/** A value with its arithmetic done, its colours mixed with `transparent` written as such, and its numbers short. */
function shortValue(value: string): string {
  return value
    .replace(/calc\((-?\d*\.?\d+)(rem|em|px) \* (-?\d*\.?\d+)\)/g, (_, a: string, unit: string, b: string) => `${shortNumber(Number(a) * Number(b))}${unit}`)
    .replace(/color-mix\(in srgb,\s*(#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3}|[a-zA-Z]+) 100%,\s*transparent\)/g, "$1")
    .replace(/color-mix\(in srgb,\s*(#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3}) (\d+(?:\.\d+)?)%,\s*transparent\)/g, (_, hex: string, p: string) => `rgb(${hexToRgb(hex)}/${shortNumber(Number(p) / 100)})`)
    .replace(/(^|[\s,(/:+*-])0\.(\d)/g, "$1.$2")
    .replace(/^0(rem|px|em)$/, "0")
    .trim();
}

/** The pseudo-classes and pseudo-elements of a selector: a browser that lacks one drops a whole selector list. */
const pseudoSignature = (selector: string) => (selector.match(/::?[\w-]+/g) ?? []).sort().join("");

/**
 * Style rules of one list with the same declarations become one rule with both selectors, at
 * the first one's place, when no rule between them sets any of those properties (so none of
 * them could have won or lost against it) and the selectors use the same pseudo-classes (a
 * list is dropped whole by a browser that does not know one of them).
 */
function mergeSame(list: Block[]): Block[] {
  const out: Block[] = [];
  const propertiesOf = (b: Block): string[] =>
    b.children ? b.children.flatMap(propertiesOf) : b.body === undefined || b.prelude.startsWith("@") ? [] : declared(b.body).map(([name]) => name);
  for (const block of list) {
    if (block.body !== undefined && !block.prelude.startsWith("@") && block.body !== "") {
      const props = new Set(propertiesOf(block));
      let merged = false;
      for (let i = out.length - 1; i >= 0; i--) {
        const earlier = out[i]!;
        if (earlier.body === block.body && !earlier.prelude.startsWith("@")) {
          if (pseudoSignature(earlier.prelude.split(",")[0]!) === pseudoSignature(block.prelude) && earlier.prelude.split(",").every((s) => pseudoSignature(s) === pseudoSignature(block.prelude))) {
            out[i] = { ...earlier, prelude: `${earlier.prelude},${block.prelude}` };
            merged = true;
          }
          break;
        }
        if (propertiesOf(earlier).some((p) => props.has(p))) break;
      }
      if (merged) continue;
    }
    out.push(block);
  }
  return out;
}

/** Whitespace that carries no meaning, outside strings: around braces, semicolons and commas. */
function squeeze(css: string): string {
  return css
    .split(/("[^"]*"|'[^']*')/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/\s+/g, " ").replace(/\s*([{};,])\s*/g, "$1").replace(/;}/g, "}")))
    .join("");
}
