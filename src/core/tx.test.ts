import { describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { settings } from "../db/schema";
import { withHarness } from "../testing/harness";
import { announce } from "./liveEvents";
import { inTransaction } from "./tx";

describe("inTransaction", () => {
  test("work that swallowed a failed statement commits nothing: the commit became a rollback, and the transaction throws", async () => {
    await withHarness(async (h) => {
      const attempt = inTransaction(
        h.db,
        async (tx) => {
          await tx.insert(settings).values({ key: "tx-test", value: "written" });
          await announce(tx, { t: "p" });
          // A failed statement aborts the transaction, even when the work goes on as if nothing happened.
          await tx.execute(sql`SELECT 1 / 0`).catch(() => undefined);
          return "done";
        },
        1,
      );
      await expect(attempt).rejects.toThrow();
      expect(await h.db.select().from(settings).where(eq(settings.key, "tx-test"))).toEqual([]);
    });
  });

  test("the work's answer comes back once its writes are committed", async () => {
    await withHarness(async (h) => {
      const answer = await inTransaction(h.db, async (tx) => {
        await tx.insert(settings).values({ key: "tx-test", value: "written" });
        await announce(tx, { t: "p" });
        return "done";
      });
      expect(answer).toBe("done");
      expect(await h.db.select({ value: settings.value }).from(settings).where(eq(settings.key, "tx-test"))).toEqual([{ value: "written" }]);
    });
  });
});
