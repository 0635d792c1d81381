import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { settings } from "../db/schema";
import { withHarness } from "../testing/harness";
import { announce, publish, publishing } from "./liveEvents";
import { inTransaction } from "./tx";

/** The read of the announced events (liveEvents.ts `announced`), not their announcement. */
const isEventsRead = (text: string) => /current_setting\('matrix\.live_events'/.test(text) && !/set_config/.test(text);

describe("inTransaction", () => {
  test("a failed read of the announced events fails the transaction, though it went out with the commit", async () => {
    await withHarness(async (h) => {
      // The read is the one statement that fails: the database handle answers it with an error.
      const failing = watched(h.db, (text) => (isEventsRead(text) ? new Error("the events read failed") : undefined));
      const attempt = inTransaction(
        failing,
        async (tx) => {
          await tx.insert(settings).values({ key: "tx-test", value: "written" });
          await announce(tx, { t: "p" });
          return "done";
        },
        { attempts: 1 },
      );
      await expect(attempt).rejects.toThrow("the events read failed");
    });
  });

  test("the work's answer comes back once its writes are committed, and the events it announced are published", async () => {
    await withHarness(async (h) => {
      const sent: { text: string; params: unknown[] }[] = [];
      const db = watched(h.db, (text, params) => void sent.push({ text, params }));
      const answer = await inTransaction(db, async (tx) => {
        await tx.insert(settings).values({ key: "tx-test", value: "written" });
        await announce(tx, { t: "p" });
        return "done";
      });
      expect(answer).toBe("done");
      expect(await h.db.select({ value: settings.value }).from(settings).where(eq(settings.key, "tx-test"))).toEqual([{ value: "written" }]);
      // Read inside the transaction (after its commit the setting is gone) and published after it.
      await Bun.sleep(50);
      // The publish's parameter is the batch: a JSON list of the events, each a JSON text.
      const published = sent.filter((s) => s.text.includes("pg_notify")).flatMap((s) => s.params.filter((p) => typeof p === "string" && p.startsWith("[")).flatMap((p) => JSON.parse(p as string) as string[]));
      expect(published.map((e) => JSON.parse(e))).toContainEqual({ t: "p" });
    });
  });
});

/** Waits until `done()` holds, looking every 5 ms, for at most `ms`. */
async function until(done: () => boolean, ms: number) {
  for (let waited = 0; !done() && waited < ms; waited += 5) await Bun.sleep(5);
}

describe("publish", () => {
  test("an event after a quiet spell goes at once; those within the gap after it wait and go together in one statement", async () => {
    await withHarness(async (h) => {
      const batches: string[][] = [];
      const db = watched(h.db, (text, params) => {
        if (text.includes("pg_notify")) batches.push(JSON.parse(params.find((p) => typeof p === "string" && p.startsWith("[")) as string) as string[]);
        return undefined;
      });
      const gap = publishing.gapMs;
      publishing.gapMs = 1_000;
      try {
        publish(db, ['{"t":"p","n":1}']);
        await until(() => batches.length > 0, 500);
        expect(batches).toEqual([['{"t":"p","n":1}']]);
        await Bun.sleep(20); // its statement done: nothing is on its way
        // Three more, each published alone: without the gap the first would go at once, by itself.
        for (const n of [2, 3, 4]) publish(db, [`{"t":"p","n":${n}}`]);
        await Bun.sleep(200);
        expect(batches).toHaveLength(1);
        await until(() => batches.length > 1, 2_000);
        expect(batches).toEqual([['{"t":"p","n":1}'], ['{"t":"p","n":2}', '{"t":"p","n":3}', '{"t":"p","n":4}']]);
      } finally {
        publishing.gapMs = gap;
      }
    });
  });
});

/**
 * `db` with every statement of drizzle's prepared-query path shown to `see` first (its text and
 * parameters); an Error `see` answers is that statement's failure, and the statement is not run.
 * Statements go through drizzle, not straight to postgres.js, so that all of them pass here.
 */
function watched(db: Db, see: (text: string, params: unknown[]) => Error | undefined): Db {
  const wrap = <T extends Db>(handle: T): T => {
    const session = new Proxy(handle._.session, {
      get(target, key, receiver) {
        if (key === "client") return undefined;
        if (key !== "prepareQuery") return Reflect.get(target, key, receiver);
        return (query: { sql: string; params: unknown[] }, ...rest: unknown[]) => {
          const failure = see(query.sql, query.params);
          return failure ? { execute: () => Promise.reject(failure) } : (target.prepareQuery as (...args: unknown[]) => unknown).call(target, query, ...rest);
        };
      },
    });
    return new Proxy(handle, {
      get(target, key, receiver) {
        if (key === "_") return { ...target._, session };
        if (key === "transaction") return (work: (tx: Db) => Promise<unknown>, config?: unknown) => target.transaction((tx) => work(wrap(tx as unknown as Db)), config as never);
        return Reflect.get(target, key, receiver);
      },
    });
  };
  return wrap(db);
}
