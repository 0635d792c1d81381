// PGlite's wasm and data files, imported as files so that `bun build --compile` embeds them
// (PGlite would otherwise look for them next to its own module, which a binary does not have).
import pgliteWasm from "@electric-sql/pglite/pglite.wasm" with { type: "file" };
import initdbWasm from "@electric-sql/pglite/initdb.wasm" with { type: "file" };
import pgliteData from "@electric-sql/pglite/pglite.data" with { type: "file" };

let compiled: Promise<{ wasmModule: WebAssembly.Module; initdbWasmModule: WebAssembly.Module; fsBundle: Blob }> | undefined;

/** Compiled once per process and shared by every PGlite instance (tests open many). */
export function pgliteAssets() {
  compiled ??= (async () => {
    const [wasmModule, initdbWasmModule] = await Promise.all([
      WebAssembly.compile(await Bun.file(pgliteWasm).arrayBuffer()),
      WebAssembly.compile(await Bun.file(initdbWasm).arrayBuffer()),
    ]);
    return { wasmModule, initdbWasmModule, fsBundle: Bun.file(pgliteData) };
  })();
  return compiled;
}
