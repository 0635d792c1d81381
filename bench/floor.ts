/**
 * The floors of bench/http.ts: what the same Bun does with nothing of the product in the way.
 *
 *   bun bench/floor.ts page <port> <file> [<content-encoding>]
 *       a bare Hono app answering GET / with the bytes of <file> (the landing page exactly as
 *       the server sent it, in the encoding it chose) as text/html; anything else 404.
 *   bun bench/floor.ts db <port> <database-url>
 *       a bare Hono + postgres.js app answering GET /api/auth with one trivial query
 *       (SELECT 1, prepared) per request, as a small JSON body; a pool as large as the server's.
 *
 * Prints "ready" once listening.
 */
import { Hono } from "hono";
import postgres from "postgres";

const [mode, portText, arg, encoding] = process.argv.slice(2);
const port = Number(portText);
const app = new Hono();

if (mode === "page") {
  const body = await Bun.file(arg!).bytes();
  const headers: Record<string, string> = { "Content-Type": "text/html; charset=UTF-8" };
  if (encoding) headers["Content-Encoding"] = encoding;
  app.get("/", (c) => c.body(body, 200, headers));
} else if (mode === "db") {
  const sql = postgres(arg!, { max: 10, onnotice: () => {} });
  app.get("/api/auth", async (c) => {
    const [row] = await sql`SELECT 1 AS one`;
    return c.json({ ok: row!.one === 1 });
  });
} else {
  console.error("usage: bun bench/floor.ts page <port> <file> [<encoding>] | db <port> <database-url>");
  process.exit(2);
}

Bun.serve({ port, fetch: app.fetch });
console.log("ready");
