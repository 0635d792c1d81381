/**
 * `bun run build`: the client bundles, the CSS and the manifest the server reads.
 *
 * - JS: Bun.build with code splitting and minification into public/build/, content-hashed
 *   names. Two entries: the dashboard app (routes are React.lazy chunks) and the landing
 *   island (plain DOM code, no React).
 * - CSS (./css.ts): the dashboard's, one hashed file the app shells link; and each
 *   server-rendered page's own (landing, /how-it-works, not found), only the classes its sources
 *   use, compacted, which the server inlines in that page.
 * - Each JS/CSS file gets a .gz twin that the server sends to gzip-capable clients.
 * - Files of earlier builds stay for an hour: a page opened before a rebuild can still load
 *   its lazy chunks. Older leftovers are removed.
 * - Budgets (gzip) are checked on the static import graph; the build fails when one is over.
 *
 * `--quiet` (the start path, `bun start`): prints nothing unless a budget is over; the table of
 * sizes and budgets is for `bun run build`.
 */
import { mkdirSync, readdirSync, statSync, unlinkSync } from "node:fs";
import { basename, join, relative } from "node:path";
import type { Manifest } from "../src/server/web/manifest";
import { appCss, PAGE_CSS, pageCss, type PageName } from "./css";

const ROOT = join(import.meta.dir, "..");
const OUT = join(ROOT, "public", "build");
const URL_BASE = "/build/";
const ENTRIES = { app: "src/client/app/main.tsx", landing: "src/client/landing/island.ts" } as const;
const KB = 1024;
const KEEP_OLD_BUILDS_MS = 60 * 60 * 1000;
// The dashboard's first load was 120 KB until 2026-11-26; it now carries the API contract's decoding
// of the session (zod/mini, about 9 KB gzip: every answer checked, money read as exact cents), so
// its budget is 125 KB. Pages, their schemas and the admin drawer stay out of it (lazy).
const BUDGETS = { landingOwn: 10 * KB, landingAll: 80 * KB, appFirstLoad: 125 * KB };

const gzipSize = (bytes: Uint8Array<ArrayBuffer>) => Bun.gzipSync(bytes, { level: 9 }).byteLength;
const kb = (n: number) => `${(n / KB).toFixed(1)} KB`;

async function buildJs() {
  const result = await Bun.build({
    entrypoints: Object.values(ENTRIES).map((e) => join(ROOT, e)),
    outdir: OUT,
    target: "browser",
    format: "esm",
    splitting: true,
    minify: true,
    sourcemap: "linked",
    metafile: true,
    naming: { entry: "[name]-[hash].[ext]", chunk: "chunk-[hash].[ext]", asset: "asset-[hash].[ext]" },
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
  });
  if (!result.success || !result.metafile) {
    for (const log of result.logs) console.error(log);
    throw new Error("JavaScript build failed");
  }
  return result.metafile;
}

/** Writes `css` under a content-hashed name; the name. */
async function writeCss(prefix: string, css: string): Promise<string> {
  const hash = new Bun.CryptoHasher("sha256").update(css).digest("hex").slice(0, 10);
  const name = `${prefix}-${hash}.css`;
  await Bun.write(join(OUT, name), css);
  return name;
}

/** The dashboard's stylesheet and each server-rendered page's own: file names. */
async function buildCss(): Promise<{ app: string; pages: Record<PageName, string> }> {
  const pageNames = Object.keys(PAGE_CSS) as PageName[];
  const [app, ...pages] = await Promise.all([
    appCss().then((css) => writeCss("styles", css)),
    ...pageNames.map((page) => pageCss(page).then(({ css }) => writeCss(`page-${page}`, css))),
  ]);
  return { app: app!, pages: Object.fromEntries(pageNames.map((page, i) => [page, pages[i]!])) as Record<PageName, string> };
}

type Outputs = NonNullable<Bun.BuildOutput["metafile"]>["outputs"];

/** The entry's output file and every chunk it imports statically (what loads before it runs). */
function staticGraph(outputs: Outputs, entry: string): string[] {
  const start = Object.keys(outputs).find((key) => outputs[key]!.entryPoint?.endsWith(entry));
  if (!start) throw new Error(`No output for entry ${entry}`);
  const seen = new Set<string>([start]);
  const queue = [start];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const imp of outputs[current]!.imports) {
      if (imp.kind !== "import-statement") continue;
      const key = Object.keys(outputs).find((k) => basename(k) === basename(imp.path));
      if (key && !seen.has(key)) {
        seen.add(key);
        queue.push(key);
      }
    }
  }
  return [...seen];
}

const quiet = process.argv.includes("--quiet");
const say = (line: string) => {
  if (!quiet) console.log(line);
};

mkdirSync(OUT, { recursive: true });
const started = performance.now();
const [metafile, css] = await Promise.all([buildJs(), buildCss()]);
const emitted = [...Object.keys(metafile.outputs).map((key) => basename(key)), css.app, ...Object.values(css.pages)];

// Sizes of every emitted JS/CSS file, and its .gz twin for the server.
const sizes = new Map<string, { raw: number; gzip: number }>();
for (const file of emitted) {
  const bytes = await Bun.file(join(OUT, file)).bytes();
  const gz = Bun.gzipSync(bytes, { level: 9 });
  await Bun.write(join(OUT, `${file}.gz`), gz);
  sizes.set(file, { raw: bytes.byteLength, gzip: gzipSize(bytes) });
}
const gz = (files: string[]) => files.reduce((sum, f) => sum + (sizes.get(basename(f))?.gzip ?? 0), 0);
const url = (file: string) => URL_BASE + basename(file);

const appGraph = staticGraph(metafile.outputs, ENTRIES.app);
const landingGraph = staticGraph(metafile.outputs, ENTRIES.landing);
const landingOwn = landingGraph.filter((f) => !appGraph.includes(f));

const manifest: Manifest = {
  css: [URL_BASE + css.app],
  pageCss: { landing: URL_BASE + css.pages.landing, howItWorks: URL_BASE + css.pages.howItWorks, notFound: URL_BASE + css.pages.notFound },
  app: { entry: url(appGraph[0]!), preload: appGraph.slice(1).map(url) },
  landing: { entry: url(landingGraph[0]!), preload: landingGraph.slice(1).map(url) },
};
await Bun.write(join(OUT, "manifest.json"), JSON.stringify(manifest, null, 2));

const keep = new Set(["manifest.json", ...emitted.flatMap((f) => [f, `${f}.gz`, `${f}.map`])]);
for (const file of readdirSync(OUT)) {
  const path = join(OUT, file);
  if (!keep.has(file) && Date.now() - statSync(path).mtimeMs > KEEP_OLD_BUILDS_MS) unlinkSync(path);
}

say(`Built in ${Math.round(performance.now() - started)} ms -> ${relative(ROOT, OUT)}/\n`);
say(`${"file".padEnd(34)} ${"raw".padStart(10)} ${"gzip".padStart(10)}`);
for (const [file, s] of [...sizes].sort((a, b) => b[1].gzip - a[1].gzip)) {
  say(`${file.padEnd(34)} ${kb(s.raw).padStart(10)} ${kb(s.gzip).padStart(10)}`);
}

const checks = [
  { name: "landing-specific JS (island + chunks only it uses)", size: gz(landingOwn), budget: BUDGETS.landingOwn },
  { name: "all landing JS (island + static imports)", size: gz(landingGraph), budget: BUDGETS.landingAll },
  { name: "dashboard first load JS (entry + static imports)", size: gz(appGraph), budget: BUDGETS.appFirstLoad },
];
say(`\nCSS: dashboard ${kb(sizes.get(css.app)!.gzip)} gzip (a file); inlined in each page: ${Object.entries(css.pages).map(([page, file]) => `${page} ${kb(sizes.get(file)!.raw)} (${kb(sizes.get(file)!.gzip)} gzip)`).join(", ")}\nBudgets (gzip):`);
let over = false;
for (const c of checks) {
  const ok = c.size <= c.budget;
  over ||= !ok;
  if (!ok || !quiet) console.log(`  ${ok ? "ok  " : "OVER"} ${c.name.padEnd(52)} ${kb(c.size).padStart(9)} / ${kb(c.budget)}`);
}
if (over) {
  console.error("\nA bundle is over its budget; see above.");
  process.exit(1);
}
