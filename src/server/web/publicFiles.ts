import type { BunFile } from "bun";
import { join, normalize, sep } from "node:path";

/** URL path -> path of the file embedded in the compiled binary (set by src/server/binary.ts). */
let embedded: ReadonlyMap<string, string> | undefined;

/**
 * In the compiled binary: serve public/ from the files embedded in it (URL path, e.g.
 * "/build/main-x.js" -> embedded path), never from disk.
 */
export function embedPublicFiles(files: Record<string, string>): void {
  embedded = new Map(Object.entries(files));
}

/**
 * The one way the web layer reaches a file of public/: the file served at `urlPath` (already
 * decoded), from `root` on disk, or from the binary when files are embedded. `null` when the
 * path leaves `root` or (embedded) is not one of the files; a disk file may still not exist.
 */
export function publicFile(root: string, urlPath: string): BunFile | null {
  if (embedded) {
    const path = embedded.get(urlPath);
    return path ? Bun.file(path) : null;
  }
  const base = normalize(root + sep);
  const filePath = normalize(join(base, urlPath));
  return filePath.startsWith(base) ? Bun.file(filePath) : null;
}
