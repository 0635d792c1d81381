import { describe, expect, test } from "bun:test";
import { dirname, join, relative, resolve } from "node:path";

/*
 * Imports go one way. Every .ts/.tsx file under src/ is read, its import specifiers collected
 * (static imports and re-exports, type-only ones included, and dynamic import("x")), relative ones
 * resolved to a path from the repository root, and each edge checked against the rules below.
 * A failure lists every offending `file -> import` with the rule it breaks.
 */

const ROOT = join(import.meta.dir, "..");

/** Static `import ... from "x"` / `export ... from "x"` (type-only too: the transpiler drops those). */
const STATIC_FROM = /^[ \t]*(?:import|export)\s+[\w$*{}\s,]*?\bfrom\s*["']([^"'\n]+)["']/gm;
/** `import "x";` for its effects. */
const SIDE_EFFECT = /^[ \t]*import\s*["']([^"'\n]+)["']/gm;
/** `import("x")`, also in type positions (`typeof import("x")`), which the transpiler erases. */
const DYNAMIC = /\bimport\(\s*["']([^"'\n]+)["']\s*\)/g;
/** Whole-line comments, so an import mentioned in a comment is not taken for one. */
const COMMENT_LINE = /^[ \t]*(?:\/\/|\/\*|\*).*$/gm;

const transpilers = { ts: new Bun.Transpiler({ loader: "ts" }), tsx: new Bun.Transpiler({ loader: "tsx" }) };

/** Every import specifier of a source text, each once. */
function importSpecifiers(source: string, loader: "ts" | "tsx" = "tsx"): string[] {
  const found = new Set<string>();
  // The transpiler parses the code for real (comments, strings, JSX): value imports of every kind.
  for (const { path } of transpilers[loader].scan(source).imports) found.add(path);
  const code = source.replace(COMMENT_LINE, "");
  for (const pattern of [STATIC_FROM, SIDE_EFFECT, DYNAMIC]) {
    for (const match of code.matchAll(pattern)) found.add(match[1]!);
  }
  return [...found];
}

interface Edge {
  /** The importing file, from the repository root: "src/core/users.ts". */
  from: string;
  /** The specifier as written. */
  specifier: string;
  /** A relative specifier resolved from the repository root ("src/core/util"); bare ones as written. */
  target: string;
}

const isRelative = (specifier: string) => specifier.startsWith("./") || specifier.startsWith("../");
const within = (path: string, dir: string) => path === dir || path.startsWith(`${dir}/`);
const isTest = (file: string) => /\.test\.tsx?$/.test(file);
const isHono = (specifier: string) => specifier === "hono" || specifier.startsWith("hono/");

function featureOf(path: string): string | undefined {
  const match = /^src\/client\/features\/([^/]+)\//.exec(path);
  return match?.[1];
}

interface Rule {
  name: string;
  /** Whether the rule looks at imports of this file. */
  applies: (file: string) => boolean;
  /** Whether the edge breaks the rule. */
  breaks: (edge: Edge) => boolean;
}

const importsAny = (dirs: string[]) => (edge: Edge) => isRelative(edge.specifier) && dirs.some((dir) => within(edge.target, dir));

const RULES: Rule[] = [
  {
    name: "src/core imports no hono and nothing from src/server, src/client, src/ui",
    applies: (file) => within(file, "src/core"),
    breaks: (edge) => isHono(edge.specifier) || importsAny(["src/server", "src/client", "src/ui"])(edge),
  },
  {
    name: "src/shared imports nothing from src/core, src/server, src/client, src/db, src/ui",
    applies: (file) => within(file, "src/shared"),
    breaks: importsAny(["src/core", "src/server", "src/client", "src/db", "src/ui"]),
  },
  {
    name: "src/server/web imports nothing from src/client",
    applies: (file) => within(file, "src/server/web"),
    breaks: importsAny(["src/client"]),
  },
  {
    name: "src/ui imports nothing from src/client, src/server, src/core, src/db",
    applies: (file) => within(file, "src/ui"),
    breaks: importsAny(["src/client", "src/server", "src/core", "src/db"]),
  },
  {
    name: "src/client imports nothing from src/server, src/core, src/db",
    applies: (file) => within(file, "src/client"),
    breaks: importsAny(["src/server", "src/core", "src/db"]),
  },
  {
    // The index holds every area's schemas; a page imports its own area (contract/member.ts...),
    // so the dashboard's first load carries only contract/session.ts.
    name: "src/client imports the contract by area, never src/shared/contract/index",
    applies: (file) => within(file, "src/client"),
    breaks: (edge) => isRelative(edge.specifier) && (edge.target === "src/shared/contract" || edge.target === "src/shared/contract/index"),
  },
  {
    name: "a client feature uses another feature only through its api/ folder (tests exempt)",
    applies: (file) => featureOf(file) !== undefined && !isTest(file),
    breaks: (edge) => {
      if (!isRelative(edge.specifier)) return false;
      const other = featureOf(`${edge.target}/`);
      if (other === undefined || other === featureOf(edge.from)) return false;
      return !within(edge.target, `src/client/features/${other}/api`);
    },
  },
];

async function sourceFiles(): Promise<string[]> {
  const files: string[] = [];
  for await (const file of new Bun.Glob("src/**/*.{ts,tsx}").scan({ cwd: ROOT })) files.push(file.replaceAll("\\", "/"));
  return files.sort();
}

async function importEdges(): Promise<Edge[]> {
  const edges: Edge[] = [];
  for (const from of await sourceFiles()) {
    const source = await Bun.file(join(ROOT, from)).text();
    for (const specifier of importSpecifiers(source, from.endsWith(".tsx") ? "tsx" : "ts")) {
      const target = isRelative(specifier) ? relative(ROOT, resolve(ROOT, dirname(from), specifier)).replaceAll("\\", "/") : specifier;
      edges.push({ from, specifier, target });
    }
  }
  return edges;
}

/** Every broken rule, as "file -> specifier (resolved)" lines under the rule's name. */
function violations(edges: Edge[], rules: Rule[] = RULES): string[] {
  const lines: string[] = [];
  for (const rule of rules) {
    const broken = edges.filter((edge) => rule.applies(edge.from) && rule.breaks(edge));
    if (broken.length === 0) continue;
    lines.push(`${rule.name}:`);
    for (const edge of broken) {
      const shown = edge.target === edge.specifier ? edge.specifier : `${edge.specifier} (${edge.target})`;
      lines.push(`  ${edge.from} -> ${shown}`);
    }
  }
  return lines;
}

describe("the import parser", () => {
  test("finds static, type-only, re-exported, side-effect and dynamic imports, not commented ones", () => {
    const source = [
      'import { a } from "./value";',
      'import type { T } from "./type-only";',
      'import { type U } from "./inline-type";',
      "import {",
      "  b,",
      "  type V,",
      '} from "../multi-line";',
      'import * as ns from "ns";',
      'import "./effects";',
      'export * from "./all";',
      'export type { W } from "./type-reexport";',
      'const lazy = () => import("./lazy");',
      'type M = typeof import("./type-position");',
      '// import { x } from "./commented";',
      '/* import { y } from "./block-commented"; */',
      'const text = "not an import from \\"./in-a-string\\"";',
      "export const c = a + b;",
    ].join("\n");
    expect(importSpecifiers(source, "ts").sort()).toEqual(
      [
        "../multi-line",
        "./all",
        "./effects",
        "./inline-type",
        "./lazy",
        "./type-only",
        "./type-position",
        "./type-reexport",
        "./value",
        "ns",
      ].sort(),
    );
  });

  test("reads imports of a TSX file past JSX text with quotes in it", () => {
    const source = ['import { A } from "./a";', "export const P = () => <p>Don't {\"stop\"}</p>;", 'const L = () => import("./later");'].join("\n");
    expect(importSpecifiers(source, "tsx").filter((s) => s.startsWith(".")).sort()).toEqual(["./a", "./later"]);
  });

  test("the rules catch what they are about", () => {
    const edge = (from: string, specifier: string): Edge => ({
      from,
      specifier,
      target: isRelative(specifier) ? relative(ROOT, resolve(ROOT, dirname(from), specifier)) : specifier,
    });
    const bad = [
      edge("src/core/x.ts", "hono/jwt"),
      edge("src/core/x.ts", "../server/env"),
      edge("src/shared/x.ts", "../db/schema"),
      edge("src/server/web/x.tsx", "../../client/lib/api"),
      edge("src/ui/x.tsx", "../core/users"),
      edge("src/client/lib/x.ts", "../../server/app"),
      edge("src/client/features/a/X.tsx", "../b/Widget"),
    ];
    const good = [
      edge("src/core/x.ts", "drizzle-orm"),
      edge("src/core/x.ts", "../db/schema"),
      edge("src/server/web/x.tsx", "../../ui/content"),
      edge("src/ui/x.tsx", "../shared/tokens"),
      edge("src/client/features/a/X.tsx", "../b/api/getB"),
      edge("src/client/features/a/X.tsx", "./api/getA"),
      edge("src/client/features/a/X.test.tsx", "../b/Widget"),
    ];
    expect(violations(bad).filter((line) => line.startsWith("  "))).toHaveLength(bad.length);
    expect(violations(good)).toEqual([]);
  });
});

test("imports go one way (core, shared, ui, server/web, client, features)", async () => {
  const edges = await importEdges();
  // Not vacuous: the files were found and their imports read.
  expect(edges.length).toBeGreaterThan(100);
  const layers = ["src/core", "src/shared", "src/server/web", "src/ui", "src/client", "src/client/features"];
  expect(layers.filter((dir) => !edges.some((e) => within(e.from, dir)))).toEqual([]);
  const broken = violations(edges);
  if (broken.length > 0) console.error(`Imports against the layering:\n${broken.join("\n")}`);
  expect(broken).toEqual([]);
});
