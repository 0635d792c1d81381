// PGlite's wasm and data files, imported as files so that `bun build --compile` embeds them
// (PGlite would otherwise look for them next to its own module, which a binary does not have).
import pgliteWasm from "@electric-sql/pglite/pglite.wasm" with { type: "file" };
import initdbWasm from "@electric-sql/pglite/initdb.wasm" with { type: "file" };
import pgliteData from "@electric-sql/pglite/pglite.data" with { type: "file" };
import type { PGliteOptions } from "@electric-sql/pglite";

// PGliteOptions' own names: a misspelt one would be ignored and PGlite would read the files
// next to its module instead (which works from source, and fails in the binary).
type Assets = Required<Pick<PGliteOptions, "pgliteWasmModule" | "initdbWasmModule" | "fsBundle">>;
let compiled: Promise<Assets> | undefined;

/** Compiled once per process and shared by every PGlite instance (tests open many). */
export function pgliteAssets(): Promise<Assets> {
  compiled ??= (async () => {
    const [pgliteWasmModule, initdbWasmModule] = await Promise.all([
      WebAssembly.compile(await Bun.file(pgliteWasm).arrayBuffer()),
      WebAssembly.compile(await Bun.file(initdbWasm).arrayBuffer()),
    ]);
    return { pgliteWasmModule, initdbWasmModule, fsBundle: Bun.file(pgliteData) };
  })();
  return compiled;
}
