import { sql } from "drizzle-orm";
import type { Hono } from "hono";
import { rowsOf } from "../db/client";
import { migrations } from "../db/migrations.gen";
import type { AppEnv } from "./env";

/** How long /readyz waits for the database before it says not ready. */
const READY_TIMEOUT_MS = 2000;

/**
 * Health checks for a load balancer or an orchestrator, with nothing in them but a word:
 * `/healthz` answers while the process does; `/readyz` only while the database answers and holds
 * every migration this build knows.
 */
export function healthRoutes(app: Hono<AppEnv>): void {
  const plain = (text: string, status: 200 | 503) => new Response(text, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
  app.get("/healthz", () => plain("ok", 200));
  app.get("/readyz", async (c) => {
    const check = (async () => {
      const applied = new Set(rowsOf<{ hash: string }>(await c.get("deps").db.execute(sql`SELECT hash FROM drizzle.__drizzle_migrations`)).map((r) => r.hash));
      return migrations.every((m) => applied.has(m.hash));
    })();
    check.catch(() => {});
    const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), READY_TIMEOUT_MS));
    const ready = await Promise.race([check, timeout]).catch(() => false);
    return ready ? plain("ready", 200) : plain("not ready", 503);
  });
}
