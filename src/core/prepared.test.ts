import { expect, test } from "bun:test";
import { and, eq, gt, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { accounts, users } from "../db/schema";
import { ADMIN } from "../testing/db";
import { useDatabase } from "../testing/useHarness";
import { hot } from "./prepared";

let database: Database;
useDatabase((made) => (database = made));

// Columns of several kinds: text, a timestamp (drizzle decodes it to a Date), bigint cents (to
// bigint), a boolean and a count from SQL, with a placeholder compared to a column (drizzle may
// wrap it with the column's encoder) and a fixed parameter.
const build = (db: Database["db"], name: string) =>
  db
    .select({
      id: users.id,
      email: users.email,
      createdAt: users.createdAt,
      balance: accounts.balance,
      isAdmin: sql<boolean>`${users.role} = 'admin'`,
      partners: sql<number>`(SELECT count(*) FROM users u WHERE u.referrer_id = ${users.id})`.mapWith(Number),
    })
    .from(users)
    .innerJoin(accounts, eq(accounts.id, users.id))
    .where(and(eq(users.email, sql.placeholder("email")), gt(accounts.balance, -1n)))
    .prepare(name);

test("a hot select answers what drizzle's execute answers, decoded the same way, on either database", async () => {
  const query = build(database.db, "hot_test_select");
  const viaDrizzle = await query.execute({ email: ADMIN.email });
  const run = hot(query);
  // On postgres.js it goes to the driver itself; on the embedded database through drizzle.
  expect(run.direct).toBe(database.kind === "postgres");
  const viaHot = await run({ email: ADMIN.email });
  expect(viaDrizzle).toHaveLength(1);
  expect(viaHot).toEqual(viaDrizzle);
  const [row] = viaHot;
  expect(row!.createdAt).toBeInstanceOf(Date);
  expect(typeof row!.balance).toBe("bigint");
  expect(row!.isAdmin).toBe(true);
  expect(row!.partners).toBeGreaterThanOrEqual(0);
  // Run again (a prepared statement's later runs) and for no one.
  expect(await run({ email: ADMIN.email })).toEqual(viaDrizzle);
  expect(await run({ email: "nobody@test.local" })).toEqual([]);
});

test("a hot select refuses a call without its placeholder's value, and fails as drizzle does on a database error", async () => {
  const run = hot(build(database.db, "hot_test_missing"));
  expect(run({})).rejects.toThrow('No value for placeholder "email" was provided');
  const broken = hot(database.db.select({ n: sql<number>`1 / (${sql.placeholder("zero")}::int)` }).from(users).prepare("hot_test_error"));
  const error = await broken({ zero: 0 }).catch((e: unknown) => e);
  expect(String((error as Error).message)).toContain("Failed query");
  expect(String(((error as Error).cause as Error)?.message)).toContain("division by zero");
});
