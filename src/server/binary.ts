/**
 * Entry of the single executable built by `bun run compile` (scripts/compile.ts): the same
 * server as `bun start`, with public/ (client bundles, CSS, favicon...) served from files
 * embedded in the binary. Migrations and PGlite's wasm/data are embedded by their own imports.
 */
import { main } from "./main";
import { mountWeb } from "./web";
import type { Manifest } from "./web/manifest";
import { embedPublicFiles } from "./web/publicFiles";
// Written by scripts/compile.ts (gitignored); embedded-assets.gen.d.ts stands in for the typecheck.
import { files } from "./web/embedded-assets.gen";

embedPublicFiles(files);
const manifestFile = files["/build/manifest.json"];
if (!manifestFile) throw new Error("The binary was built without public/build/manifest.json");
const manifest = (await Bun.file(manifestFile).json()) as Manifest;

await main((app) => mountWeb(app, { manifest }));
