// Stands in for embedded-assets.gen.ts, which scripts/compile.ts writes (gitignored) before
// `bun build --compile`: every file of public/ imported `with { type: "file" }`.
/** URL path ("/build/main-x.js", "/favicon.svg") -> path of the file embedded in the binary. */
export declare const files: Record<string, string>;
