/**
 * The floors of bench/http.ts: what the same Bun does with nothing of the product in the way.
 *
 *   bun bench/floor.ts page <port> <file> [<content-encoding> [<headers.json>]]
 *       a bare Hono app answering GET / with the bytes of <file> (the landing page exactly as
 *       the server sent it, in the encoding it chose) as text/html; with <headers.json> (the
 *       headers the server sent with it), also, for the LCP, GET /landing: the same bytes with
 *       those headers, and GET /heading: a page of one heading (the landing's), compressed in
 *       the same encoding, with those headers. Anything else 404.
 *   bun bench/floor.ts db <port> <database-url>
 *       a bare Hono + postgres.js app answering GET /api/auth with one trivial query
 *       (SELECT 1, prepared) per request, as a small JSON body; a pool as large as the server's.
 *
 * Prints "ready" once listening.
 */
import { Hono } from "hono";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import postgres from "postgres";
import { brand, hero } from "../src/ui/content";

const [mode, portText, arg, encoding, headersFile] = process.argv.slice(2);
const port = Number(portText);
const app = new Hono();

if (mode === "page") {
  const body = await Bun.file(arg!).bytes();
  const headers: Record<string, string> = { "Content-Type": "text/html; charset=UTF-8" };
  if (encoding && encoding !== "identity") headers["Content-Encoding"] = encoding;
  app.get("/", (c) => c.body(body, 200, headers));
  if (headersFile) {
    // The LCP's floor: the least a page can paint, its heading, served as the landing is.
    const same: Record<string, string> = await Bun.file(headersFile).json();
    const heading = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${brand.name}</title></head><body><h1>${hero.title}</h1></body></html>`;
    const text = Buffer.from(heading);
    const encoded =
      encoding === "br"
        ? brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: text.byteLength } })
        : encoding === "gzip"
          ? gzipSync(text, { level: 9 })
          : text;
    app.get("/landing", (c) => c.body(body, 200, same));
    app.get("/heading", (c) => c.body(new Uint8Array(encoded), 200, same));
  }
} else if (mode === "db") {
  const sql = postgres(arg!, { max: 10, onnotice: () => {} });
  app.get("/api/auth", async (c) => {
    const [row] = await sql`SELECT 1 AS one`;
    return c.json({ ok: row!.one === 1 });
  });
} else {
  console.error("usage: bun bench/floor.ts page <port> <file> [<encoding> [<headers.json>]] | db <port> <database-url>");
  process.exit(2);
}

Bun.serve({ port, fetch: app.fetch });
console.log("ready");
