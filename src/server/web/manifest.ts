import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** What scripts/build.ts writes to public/build/manifest.json: URLs of the hashed files. */
export interface Manifest {
  css: string[];
  /** The vanilla landing island (no React). */
  landing: { entry: string; preload: string[] };
  /** The dashboard app: entry plus the chunks it imports statically (modulepreload hints). */
  app: { entry: string; preload: string[] };
}

export const PUBLIC_DIR = join(import.meta.dir, "../../../public");
export const MANIFEST_FILE = join(PUBLIC_DIR, "build", "manifest.json");

/**
 * Reads the build manifest once at start. Missing (tests, or a server started without
 * `bun run build`): pages still render as complete HTML, only without styles and scripts.
 */
export function loadManifest(file = MANIFEST_FILE, warn: (m: string) => void = console.warn): Manifest | null {
  if (!existsSync(file)) {
    warn(`No client build at ${file}; run \`bun run build\`. Pages are served without styles and scripts.`);
    return null;
  }
  return JSON.parse(readFileSync(file, "utf8")) as Manifest;
}
