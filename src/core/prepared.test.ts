import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { readLaneOf, rowsOf, type Database } from "../db/client";
import { users } from "../db/schema";
import { ADMIN, onPostgres } from "../testing/db";
import { useDatabase } from "../testing/useHarness";
import { PgDialect } from "drizzle-orm/pg-core";
import { gathered, pairsAtOnce, preparedRaw, rawQuery, runPrepared, statementOnce } from "./prepared";

let database: Database;
useDatabase((made) => (database = made));

test("a raw prepared statement refuses a call without its placeholder's value, and fails as drizzle does on a database error", async () => {
  const run = preparedRaw(database.db, "raw_test_missing", sql`SELECT id FROM users WHERE email = ${sql.placeholder("email")}`);
  expect(run({})).rejects.toThrow('No value for placeholder "email" was provided');
  expect(await run({ email: ADMIN.email })).toHaveLength(1);
  const broken = preparedRaw(database.db, "raw_test_error", sql`SELECT 1 / (${sql.placeholder("zero")}::int) AS n`);
  const error = await broken({ zero: 0 }).catch((e: unknown) => e);
  expect(String((error as Error).message)).toContain("Failed query");
  expect(String(((error as Error).cause as Error)?.message)).toContain("division by zero");
});

test("a statement made once runs on a handle and in a transaction, each placeholder filled wherever it appears, with each call's values", async () => {
  const statement = statementOnce<{ same: boolean; email: string }>(
    "once_test",
    sql`SELECT ${sql.placeholder("email")}::text = email AS same, ${sql.placeholder("email")}::text AS email FROM users WHERE email = ${sql.placeholder("email")}`,
  );
  expect(await statement(database.db, { email: ADMIN.email })).toEqual([{ same: true, email: ADMIN.email }]);
  expect(await statement(database.db, { email: "nobody@example.com" })).toEqual([]);
  const inside = await database.db.transaction((tx) => statement(tx, { email: ADMIN.email }));
  expect(inside).toEqual([{ same: true, email: ADMIN.email }]);
});

describe("gathered", () => {
  /** A `many` that records each call's inputs and answers when told to. */
  function recorder() {
    const calls: { inputs: number[]; answer: () => void; fail: (error: Error) => void }[] = [];
    const many = (inputs: number[]) =>
      new Promise<string[]>((resolve, reject) => {
        calls.push({ inputs, answer: () => resolve(inputs.map((n) => `answer ${n}`)), fail: reject });
      });
    return { calls, many };
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  test("a call made while a turn is free goes at once and alone; calls made while all are busy wait, and the next free turn answers them together, each its own", async () => {
    const { calls, many } = recorder();
    const one = gathered(many, { inFlight: 2, max: 3, minBehind: 1 });
    const answers = [1, 2, 3, 4, 5, 6, 7].map((n) => one(n));
    expect(calls.map((c) => c.inputs)).toEqual([[1], [2]]);
    calls[1]!.answer();
    await settle();
    // The free turn takes the waiting ones, in order, at most `max`.
    expect(calls.map((c) => c.inputs)).toEqual([[1], [2], [3, 4, 5]]);
    calls[0]!.answer();
    await settle();
    expect(calls.map((c) => c.inputs)).toEqual([[1], [2], [3, 4, 5], [6, 7]]);
    calls[2]!.answer();
    calls[3]!.answer();
    expect(await Promise.all(answers)).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => `answer ${n}`));
    // Quiet again: the next call goes at once.
    const later = one(8);
    expect(calls.at(-1)!.inputs).toEqual([8]);
    calls.at(-1)!.answer();
    expect(await later).toBe("answer 8");
  });

  test("beside a running call, another starts only once `minBehind` inputs wait; once none runs, whatever waits goes", async () => {
    const { calls, many } = recorder();
    const one = gathered(many, { inFlight: 3, max: 10, minBehind: 3 });
    const answers = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => one(n));
    // 1 alone; 2 and 3 wait for a third; 5 to 7 likewise; 8 finds three running.
    expect(calls.map((c) => c.inputs)).toEqual([[1], [2, 3, 4], [5, 6, 7]]);
    calls[0]!.answer();
    await settle();
    // One input waits beside two running calls: not enough to go behind them.
    expect(calls).toHaveLength(3);
    calls[1]!.answer();
    await settle();
    expect(calls).toHaveLength(3);
    calls[2]!.answer();
    await settle();
    // None runs: it goes, alone.
    expect(calls.map((c) => c.inputs)).toEqual([[1], [2, 3, 4], [5, 6, 7], [8]]);
    calls[3]!.answer();
    expect(await Promise.all(answers)).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => `answer ${n}`));
  });

  test("the next call of `many` is sent before the ended one's callers hear their answers", async () => {
    const { calls, many } = recorder();
    const one = gathered(many, { inFlight: 1, max: 10, minBehind: 1 });
    let sentWhenAnswered: number[][] | undefined;
    const first = one(1).then((answer) => {
      sentWhenAnswered = calls.map((c) => c.inputs);
      return answer;
    });
    const waiting = [one(2), one(3)];
    calls[0]!.answer();
    expect(await first).toBe("answer 1");
    expect(sentWhenAnswered).toEqual([[1], [2, 3]]);
    calls[1]!.answer();
    expect(await Promise.all(waiting)).toEqual(["answer 2", "answer 3"]);
  });

  test("when `many` fails, the calls it was answering fail with its error, and the others do not", async () => {
    const { calls, many } = recorder();
    const one = gathered(many, { inFlight: 1, max: 10, minBehind: 1 });
    const first = one(1);
    const waiting = [one(2), one(3)];
    calls[0]!.answer();
    await settle();
    expect(calls[1]!.inputs).toEqual([2, 3]);
    calls[1]!.fail(new Error("the database is gone"));
    expect(await first).toBe("answer 1");
    for (const call of waiting) await expect(call).rejects.toThrow("the database is gone");
    await settle();
    const next = one(4);
    expect(calls.at(-1)!.inputs).toEqual([4]);
    calls.at(-1)!.answer();
    expect(await next).toBe("answer 4");
  });
});

/** The Postgres backend a database handle's statement runs on. */
const pidOf = async (db: Database["db"]) => rowsOf<{ pid: number }>(await db.execute(sql`SELECT pg_backend_pid() AS pid`))[0]!.pid;

test.skipIf(!onPostgres)("on Postgres the pair reads go on the database's read lane: one connection, its statements queued behind each other, apart from the pool's", async () => {
  const lane = readLaneOf(database.db);
  expect(lane).not.toBe(database.db);
  const lanePid = await pidOf(lane);
  // Several statements sent at once on the lane: all on its one connection.
  const slow = await Promise.all([1, 2, 3].map(() => runPrepared<{ pid: number }>(lane, "lane_probe", sql`SELECT pg_backend_pid() AS pid, pg_sleep(0.02)`)));
  expect(new Set(slow.map(([row]) => row!.pid))).toEqual(new Set([lanePid]));
  // The pool's connections are others, and a pair read answers from the lane's.
  expect(await pidOf(database.db)).not.toBe(lanePid);
  const read = pairsAtOnce<{ pid: number; who: string }>("lane_pairs_probe", sql`SELECT pg_backend_pid() AS pid, ask.pair->>0 AS who`)(database.db);
  const rows = await Promise.all(["a", "b", "c"].map((who) => read([who, ""])));
  expect(rows.map((row) => [row!.who, row!.pid])).toEqual([["a", lanePid], ["b", lanePid], ["c", lanePid]]);
  // The lane's settings are the pool's (src/db/client.ts).
  const [setting] = rowsOf<{ mode: string }>(await lane.execute(sql`SELECT current_setting('plan_cache_mode') AS mode`));
  expect(setting!.mode).toBe("force_generic_plan");
});

test.skipIf(!onPostgres)("on Postgres the read lane comes back by itself after its connection was ended", async () => {
  const lane = readLaneOf(database.db);
  const read = pairsAtOnce<{ pid: number; who: string }>("lane_reconnect_probe", sql`SELECT pg_backend_pid() AS pid, ask.pair->>0 AS who`)(database.db);
  const before = (await read(["a", ""]))!.pid;
  // Ended from outside, as a restart of Postgres or an idle-connection killer would.
  await database.db.execute(sql`SELECT pg_terminate_backend(${before})`);
  const after = await read(["b", ""]);
  expect(after!.who).toBe("b");
  expect(after!.pid).not.toBe(before);
  expect(await pidOf(lane)).toBe(after!.pid);
});

describe("rawQuery", () => {
  const dialect = new PgDialect();
  const inner = (n: number) => sql`inner_${sql.raw(String(n))} AS (SELECT ${n}::int, ${null}::text, ${`it's ${n}`}::text)`;

  test("makes the text and parameters sqlToQuery makes, for text, nested statements, joins and values", () => {
    const query = sql`WITH ${sql.join([inner(1), inner(2)], sql`, `)}
      SELECT ${12_345_678_901_234n}::bigint, ${true}, ${"a"}, ${undefined} FROM inner_1, inner_2 WHERE ${sql`${7} = ${7}`}`;
    const built = rawQuery(query);
    const expected = dialect.sqlToQuery(query);
    expect(built).toEqual({ sql: expected.sql, params: expected.params });
    expect(built!.params).toEqual([1, null, "it's 1", 2, null, "it's 2", 12_345_678_901_234n, true, "a", 7, 7]);
  });

  test("leaves columns, tables, drizzle params, lists and inlined values to sqlToQuery", () => {
    for (const query of [
      sql`SELECT ${users.id} FROM users`,
      sql`SELECT 1 FROM ${users}`,
      sql`SELECT ${sql.param(1)}`,
      sql`SELECT 1 WHERE 1 IN ${[1, 2]}`,
      sql`SELECT ${sql`${1}`.inlineParams()}`,
      sql`SELECT ${sql.placeholder("p")}`,
    ]) {
      expect(rawQuery(query)).toBeUndefined();
    }
  });

  test("runPrepared answers the same rows either way it makes the text, on either database", async () => {
    const { db } = database;
    const made = sql`SELECT ${ADMIN.email}::text AS email, ${5n}::bigint::text AS cents, ${null}::text AS nothing`;
    const withColumn = sql`SELECT ${users.email} AS email, ${5n}::bigint::text AS cents, ${null}::text AS nothing FROM users WHERE ${users.email} = ${ADMIN.email}`;
    expect(rawQuery(made)).toBeDefined();
    expect(rawQuery(withColumn)).toBeUndefined();
    const rows = await runPrepared(db, "raw_query_test", made);
    expect(rows).toEqual([{ email: ADMIN.email, cents: "5", nothing: null }]);
    expect(await runPrepared(db, "raw_query_test_column", withColumn)).toEqual(rows);
  });
});
