import { expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { testDeps, withHarness } from "../testing/harness";
import { createApp } from "./app";

test("/healthz answers while the process does; /readyz while the database answers with every migration applied, and says nothing else", async () => {
  await withHarness(async (h) => {
    for (const path of ["/healthz", "/readyz"]) {
      const res = await h.app.request(path);
      expect(res.status).toBe(200);
      expect(await res.text()).toMatch(/^(ok|ready)$/);
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
    // A migration of this build missing from the database: not ready.
    await h.db.execute(sql`UPDATE drizzle.__drizzle_migrations SET hash = 'gone' WHERE id = (SELECT max(id) FROM drizzle.__drizzle_migrations)`);
    expect((await h.app.request("/readyz")).status).toBe(503);
    expect((await h.app.request("/healthz")).status).toBe(200);
  });
});

test("/readyz says not ready when the database does not answer", async () => {
  await withHarness(async (h) => {
    const broken = { ...h.db, execute: () => Promise.reject(new Error("connection refused")) } as unknown as typeof h.db;
    const app = createApp(testDeps(broken));
    const res = await app.request("/readyz");
    expect(res.status).toBe(503);
    expect(await res.text()).toBe("not ready");
  });
});
