import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** What scripts/build.ts writes to public/build/manifest.json: URLs of the hashed files. */
export interface Manifest {
  /** The dashboard's stylesheet, linked by the app shells (a file, cached for a year). */
  css: string[];
  /**
   * Each server-rendered page's own stylesheet, only the rules its sources use: inlined in its
   * HTML, nothing to fetch before the first paint. Absent from builds before it: they link `css`.
   */
  pageCss?: { landing: string; howItWorks: string; notFound: string };
  /** The vanilla landing island (no React). */
  landing: { entry: string; preload: string[] };
  /** The dashboard app: entry plus the chunks it imports statically (modulepreload hints). */
  app: { entry: string; preload: string[] };
}

export const PUBLIC_DIR = join(import.meta.dir, "../../../public");
export const MANIFEST_FILE = join(PUBLIC_DIR, "build", "manifest.json");

/**
 * The current build manifest, re-read when the file changes, so `bun run build` next to a
 * running server takes effect without a restart (a stat per page, no parse). Missing: pages
 * still render as complete HTML, only without styles and scripts.
 */
export function manifestReader(file = MANIFEST_FILE, warn: (m: string) => void = console.warn): () => Manifest | null {
  let stamp = -1;
  let current: Manifest | null = null;
  return () => {
    let mtime = 0;
    try {
      mtime = statSync(file).mtimeMs;
    } catch {}
    if (mtime === stamp) return current;
    stamp = mtime;
    if (!mtime) {
      warn(`No client build at ${file}; run \`bun run build\`. Pages are served without styles and scripts.`);
      return (current = null);
    }
    try {
      current = JSON.parse(readFileSync(file, "utf8")) as Manifest;
    } catch {
      stamp = -1; // caught mid-write: keep the previous one and look again next time
    }
    return current;
  };
}
