import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { runPrepared } from "../core/prepared";
import { TEST_DATABASE_URL } from "../testing/db";
import { DataDirInUse, LOCK_FILE, lockDataDir, openDatabase, rowsOf } from "./client";

// One process per embedded data folder: a second open (another server, or this process again)
// is refused before PGlite touches the folder, and the first keeps working on intact data. The
// lock itself (flock) is tested in ./dataDirLock.test.ts.

const folders: string[] = [];
const freshFolder = () => {
  const dir = mkdtempSync(join(tmpdir(), "matrix-lock-"));
  folders.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

const count = async (db: Awaited<ReturnType<typeof openDatabase>>["db"]) =>
  Number(rowsOf<{ n: number }>(await db.execute(sql`SELECT count(*)::int AS n FROM notes`))[0]!.n);

test("a second open of the same data folder fails with a clear message; the first still works and its data is intact", async () => {
  const dir = freshFolder();
  const first = await openDatabase({ dataDir: dir });
  try {
    await first.db.execute(sql`CREATE TABLE notes (id int PRIMARY KEY, text text NOT NULL)`);
    await first.db.execute(sql`INSERT INTO notes VALUES (1, 'kept')`);
    expect(readFileSync(join(dir, LOCK_FILE), "utf8").split("\n")[0]).toBe(String(process.pid));

    const second = await openDatabase({ dataDir: dir }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(second).toBeInstanceOf(DataDirInUse);
    expect((second as Error).message).toContain(`The data folder ${dir} is already in use by another server process (pid ${process.pid})`);
    // The same folder named another way is the same folder.
    expect(await openDatabase({ dataDir: join(dir, ".") }).catch((error: unknown) => error)).toBeInstanceOf(DataDirInUse);

    await first.db.execute(sql`INSERT INTO notes VALUES (2, 'after')`);
    expect(await count(first.db)).toBe(2);
  } finally {
    await first.close();
  }
  // Closed: the lock is released (its file stays, emptied), the folder opens again, with everything written.
  expect(readFileSync(join(dir, LOCK_FILE), "utf8")).toBe("");
  const again = await openDatabase({ dataDir: dir });
  try {
    expect(rowsOf(await again.db.execute(sql`SELECT id, text FROM notes ORDER BY id`))).toEqual([
      { id: 1, text: "kept" },
      { id: 2, text: "after" },
    ]);
  } finally {
    await again.close();
  }
});

test("a second server process on the same DATA_DIR exits at once with the message, and the data is untouched", async () => {
  const dir = freshFolder();
  const held = lockDataDir(dir); // this test process stands for the first server
  try {
    writeFileSync(join(dir, "marker"), "untouched");
    const child = Bun.spawn([process.execPath, join(import.meta.dir, "../server/index.ts")], {
      env: { ...process.env, DATA_DIR: dir, DATABASE_URL: "", PORT: "0" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const exited = await Promise.race([child.exited, Bun.sleep(20_000).then(() => "still running")]);
    if (exited === "still running") child.kill();
    expect(exited).toBe(1);
    const stderr = await new Response(child.stderr).text();
    expect(stderr).toContain(`The data folder ${dir} is already in use by another server process (pid ${process.pid})`);
    expect(stderr).not.toContain("Listening");
    // PGlite never ran there: the folder holds the lock and our file, nothing else.
    expect([...new Bun.Glob("*").scanSync({ cwd: dir, dot: true })].sort()).toEqual([LOCK_FILE, "marker"]);
    expect(readFileSync(join(dir, LOCK_FILE), "utf8").split("\n")[0]).toBe(String(process.pid));
  } finally {
    held.release();
  }
  expect(readFileSync(join(dir, LOCK_FILE), "utf8")).toBe("");
});

test.skipIf(!TEST_DATABASE_URL)("on Postgres every statement runs on its generic plan, planned once per connection, however the tables grow", async () => {
  const database = await openDatabase({ databaseUrl: TEST_DATABASE_URL, max: 1 });
  try {
    const { db } = database;
    await db.execute(sql`CREATE TEMP TABLE plan_probe (id int PRIMARY KEY, v text)`);
    const probe = (id: number) => runPrepared(db, "plan_probe", sql`SELECT v FROM plan_probe WHERE id = ${id}`);
    // Prepared while the table is empty...
    for (let i = 0; i < 8; i++) await probe(i);
    // ...then the table grows and is analyzed, as autovacuum would.
    await db.execute(sql`INSERT INTO plan_probe SELECT g, 'v' || g FROM generate_series(1, 20000) g`);
    await db.execute(sql`ANALYZE plan_probe`);
    for (let i = 0; i < 8; i++) await probe(i);
    const [plans] = rowsOf<{ generic: number; custom: number }>(
      await db.execute(sql`SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements WHERE statement LIKE '%FROM plan_probe WHERE id%'`),
    );
    // Postgres's own choice would plan the first five executions each (custom plans), and may go
    // on planning every execution once the table has grown (see PLAN_CACHE_MODE in client.ts).
    expect(plans).toEqual({ generic: 16, custom: 0 });
  } finally {
    await database.close();
  }
});

test.skipIf(!TEST_DATABASE_URL)("on Postgres a row is found through its key even in a table of one page (as a young database's are)", async () => {
  const database = await openDatabase({ databaseUrl: TEST_DATABASE_URL, max: 1 });
  try {
    const { db } = database;
    await db.execute(sql`CREATE TEMP TABLE page_probe (id int PRIMARY KEY, v text)`);
    await db.execute(sql`INSERT INTO page_probe SELECT g, 'v' FROM generate_series(1, 300) g`);
    await db.execute(sql`ANALYZE page_probe`);
    const [plan] = rowsOf<{ "QUERY PLAN": string }>(await db.execute(sql`EXPLAIN SELECT v FROM page_probe WHERE id = 7`));
    // With Postgres's default cost of a page read out of order, the one page is read whole
    // (see RANDOM_PAGE_COST in client.ts).
    expect(plan!["QUERY PLAN"]).toContain("Index Scan using page_probe_pkey");
  } finally {
    await database.close();
  }
});
