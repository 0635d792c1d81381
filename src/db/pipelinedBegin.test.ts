import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { createApp } from "../server/app";
import { onPostgres, TEST_DATABASE_URL } from "../testing/db";
import { testDeps, withHarness } from "../testing/harness";
import { matrixHelpers } from "../testing/matrix";
import { pgRelay } from "../testing/pgRelay";
import { openDatabase, rowsOf, type Db } from "./client";
import { inBlock, transactionBegunWithFirst } from "./pipelinedBegin";
import * as schema from "./schema";

const BEGIN = "BEGIN DEFERRABLE";
/** What the relay sends in its place: a statement that fails, so no transaction is begun. */
const FAILING = "SELECT 1/0";

/**
 * A relay in front of Postgres that turns every BEGIN sent with a first statement into a
 * statement that fails: Postgres answers it with an error, and the statement behind it, already
 * sent, runs outside any transaction.
 */
function failingBegins(target: { host: string; port: number }) {
  let rewritten = 0;
  const relay = pgRelay(target, {
    message(type, message) {
      if (type !== "Q" || message.subarray(5, -1).toString() !== BEGIN) return undefined;
      rewritten++;
      const text = Buffer.from(`${FAILING}\0`);
      const failing = Buffer.concat([Buffer.from("Q"), Buffer.alloc(4), text]);
      failing.writeInt32BE(4 + text.length, 1);
      return failing;
    },
  });
  return { rewritten: () => rewritten, ...relay };
}

// Only postgres.js sends a BEGIN with a statement: on PGlite there is no wire.
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres bun test src/db/pipelinedBegin.test.ts
describe.skipIf(!onPostgres)("a transaction begun with its first statement, on Postgres", () => {
  test("a purchase whose BEGIN fails writes nothing and locks nothing, with a key and without; the member hears a server error", async () => {
    await withHarness(async (h) => {
      const m = matrixHelpers(h);
      const referrer = await m.member();
      await m.bought(referrer, "3p", 1);
      const buyer = await m.member(referrer);
      const balance = await m.balance(buyer);

      const [{ name }] = rowsOf<{ name: string }>(await h.db.execute(sql`SELECT current_database() AS name`)) as [{ name: string }];
      const url = new URL(TEST_DATABASE_URL!);
      const relay = failingBegins({ host: url.hostname, port: Number(url.port || 5432) });
      const client = postgres(`postgres://${url.username}@127.0.0.1:${relay.port}/${name}`, { max: 1, onnotice: () => {} });
      try {
        const app = createApp(testDeps(drizzle(client, { schema }) as unknown as Db, { log: () => {} }));
        for (const headers of [{ "Idempotency-Key": crypto.randomUUID() }, {}] as Record<string, string>[]) {
          const res = await app.request("/api/user/packages/purchase/3p/1", { method: "POST", headers: { "x-auth-token": buyer.token, ...headers } });
          expect(res.status).toBe(500);
          expect(await res.json()).toEqual({ msg: "Server error.", code: "server_error" });
        }
        expect(relay.rewritten()).toBe(2);
      } finally {
        await client.end({ timeout: 5 });
        relay.stop();
      }

      // The activations ran on their own, outside any transaction, and did nothing: no key kept,
      // no level, no money moved, and no row of the buyer's or the referrer's left locked.
      const count = async (query: ReturnType<typeof sql>) => Number(rowsOf<{ n: string }>(await h.db.execute(query))[0]!.n);
      expect(await count(sql`SELECT count(*) AS n FROM idempotency_keys WHERE user_id = ${buyer.id}`)).toBe(0);
      expect(await count(sql`SELECT count(*) AS n FROM user_levels WHERE user_id = ${buyer.id}`)).toBe(0);
      expect(await m.balance(buyer)).toBe(balance);
      await h.db.transaction(async (tx) => {
        await tx.execute(sql`SET LOCAL lock_timeout = '200ms'`);
        await tx.execute(sql`SELECT 1 FROM users WHERE id IN (${buyer.id}, ${referrer.id}) FOR UPDATE`);
        await tx.execute(sql`SELECT 1 FROM user_levels WHERE user_id = ${referrer.id} FOR UPDATE`);
      });
      // And the same purchase through a plain connection buys the level.
      await m.bought(buyer, "3p", 1);
    });
  });

  test("the first statement must check that it runs in the transaction, and a second one waits for the BEGIN's answer: otherwise neither is sent", async () => {
    await withHarness(async (h) => {
      const sent: string[] = [];
      const url = new URL(TEST_DATABASE_URL!);
      const [{ name }] = rowsOf<{ name: string }>(await h.db.execute(sql`SELECT current_database() AS name`)) as [{ name: string }];
      const client = postgres(`postgres://${url.username}@${url.host}/${name}`, { max: 1, onnotice: () => {}, debug: (_c, text) => void sent.push(text) });
      try {
        const db = drizzle(client, { schema }) as unknown as Db;
        // Connected first: postgres.js reads the array types when it opens a connection.
        await client`SELECT 1`;
        sent.length = 0;
        const failure = (attempt: Promise<unknown>) =>
          attempt.then(
            () => "committed",
            (error: Error) => String((error.cause as Error | undefined)?.message ?? error.message),
          );
        expect(await failure(transactionBegunWithFirst(db, (tx) => tx.execute(sql`SELECT 1`)))).toContain("must check its BEGIN's mark");
        expect(sent).toEqual([]);

        const checked = (tx: Db) => tx.execute(sql`SELECT ${inBlock} AS mark`);
        expect(await failure(transactionBegunWithFirst(db, (tx) => Promise.all([checked(tx), checked(tx)])))).toContain("before its BEGIN was answered");
        // The BEGIN and the first statement went out, and were rolled back; the second did not.
        expect(sent.filter((text) => text.includes("AS mark"))).toHaveLength(1);

        // In order, the first statement sees the BEGIN's mark, and the transaction commits.
        const marks = await transactionBegunWithFirst(db, async (tx) => [rowsOf<{ mark: string }>(await checked(tx))[0]!.mark, rowsOf<{ mark: string }>(await checked(tx))[0]!.mark]);
        expect(marks).toEqual(["on", "on"]);
        expect(sent.slice(-1)).toEqual(["COMMIT"]);
        // Outside it, and in a transaction begun alone, there is no mark.
        expect(rowsOf<{ mark: string }>(await checked(db))[0]!.mark).toBe("off");
        expect(await db.transaction(async (tx) => rowsOf<{ mark: string }>(await checked(tx))[0]!.mark)).toBe("off");
      } finally {
        await client.end({ timeout: 5 });
      }
    });
  });

  test("the app's pool reads no mark outside such a transaction, even where the database's default is DEFERRABLE", async () => {
    await withHarness(async (h) => {
      const [{ name }] = rowsOf<{ name: string }>(await h.db.execute(sql`SELECT current_database() AS name`)) as [{ name: string }];
      await h.db.execute(sql.raw(`ALTER DATABASE "${name}" SET default_transaction_deferrable = on`));
      const url = new URL(TEST_DATABASE_URL!);
      url.pathname = `/${name}`;
      const unpinned = postgres(url.toString(), { max: 1, onnotice: () => {} });
      const database = await openDatabase({ databaseUrl: url.toString(), max: 1 });
      try {
        const mark = async (db: Db) => rowsOf<{ mark: string }>(await db.execute(sql`SELECT ${inBlock} AS mark`))[0]!.mark;
        expect(await mark(drizzle(unpinned, { schema }) as unknown as Db)).toBe("on");
        expect(await mark(database.db)).toBe("off");
      } finally {
        await unpinned.end({ timeout: 5 });
        await database.close();
        await h.db.execute(sql.raw(`ALTER DATABASE "${name}" RESET default_transaction_deferrable`));
      }
    });
  });
});
