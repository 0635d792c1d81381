import type { MiddlewareHandler } from "hono";
import { publicFile } from "./publicFiles";

const IMMUTABLE = "public, max-age=31536000, immutable";
const SHORT = "public, max-age=3600";
const COMPRESSIBLE = /\.(js|css|svg|json|txt|map)$/;

/**
 * Serves files under `root`. /build/* holds content-hashed names, so they are cached for a
 * year and marked immutable; anything else in public/ is cached for an hour. A `.gz` twin
 * written by the build is sent to clients that accept gzip. Files come through publicFile():
 * from disk, or from the compiled binary.
 */
export function servePublic(root: string): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return next();
    let path: string;
    try {
      path = decodeURIComponent(c.req.path);
    } catch {
      return next();
    }
    if (path.endsWith("/") || path.includes("\0") || path.split("/").some((part) => part.startsWith("."))) return next();
    const file = publicFile(root, path);
    if (!file || !(await file.exists())) return next();

    const headers = new Headers({
      "Content-Type": file.type,
      "Cache-Control": path.startsWith("/build/") ? IMMUTABLE : SHORT,
      "X-Content-Type-Options": "nosniff",
    });
    let body: Blob = file;
    if (COMPRESSIBLE.test(path)) {
      headers.set("Vary", "Accept-Encoding");
      const gz = publicFile(root, `${path}.gz`);
      if (gz && /\bgzip\b/.test(c.req.header("Accept-Encoding") ?? "") && (await gz.exists())) {
        headers.set("Content-Encoding", "gzip");
        body = gz;
      }
    }
    headers.set("Content-Length", String(body.size));
    return new Response(c.req.method === "HEAD" ? null : body, { headers });
  };
}
