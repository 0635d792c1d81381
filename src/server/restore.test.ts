import { afterAll, describe, expect, spyOn, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { backupName, listBackups } from "../db/backup";
import { type Db, LOCK_FILE, lockDataDir, openDatabase, rowsOf } from "../db/client";
import { migrations } from "../db/migrations.gen";
import { onPostgres, TEST_DATABASE_URL } from "../testing/db";
import type { Harness } from "../testing/harness";
import { expectLedgerInvariants, expectTreeInvariants } from "../testing/invariants";
import { matrixHelpers } from "../testing/matrix";
import { useMoneyHarness } from "../testing/useHarness";
import { CommandRefused } from "./backups";
import { loadConfig } from "./config";
import { restoreCommand, restoreFromMachine } from "./restore";

/**
 * Restoring backups (`bun run restore FILE`, the binary's `--restore FILE`) and the machine-side
 * backup (`bun run backup`): a backup taken while members buy and gift restores to a state the
 * source went through, whole; what was in the data folder is moved aside; a running server, a
 * file that is no backup, a ledger that does not add up are refused. On Postgres: pg_dump.
 */

const ROOT = join(import.meta.dir, "../..");
const scratch = mkdtempSync(join(tmpdir(), "matrix-restore-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let h: Harness;
useMoneyHarness((made) => (h = made));

/** A configuration of the embedded database in `dataDir`, whatever the surrounding shell sets. */
const embedded = (dataDir: string) => loadConfig({ DATA_DIR: dataDir });
const quiet = { print: () => {} };

/** A command of this repository as the operator runs it, with only the given variables of ours set. */
function run(args: string[], vars: Record<string, string>) {
  const env: Record<string, string | undefined> = { ...process.env, DATABASE_URL: "", ...vars };
  for (const name of ["BACKUP_DIR", "BACKUP_KEEP", "BACKUP_INTERVAL_HOURS", "DATA_DIR"]) if (!(name in vars)) delete env[name];
  const done = Bun.spawnSync(["bun", ...args], { cwd: ROOT, env, stdout: "pipe", stderr: "pipe" });
  // `bun run` echoes the command it runs first.
  const err = done.stderr.toString().replace(/^\$ bun scripts\/.*\n/, "");
  return { code: done.exitCode, out: done.stdout.toString(), err };
}

async function takeBackup(): Promise<string> {
  const res = await h.call("POST", "/api/admin/backups", { token: h.adminToken });
  expect(res.status).toBe(201);
  return join(h.deps.config.backupDir, res.body.file);
}

/** Every transfer, with the transaction that wrote it (xmin: a physical copy keeps it). */
async function ledger(db: Db) {
  return rowsOf<Record<string, string | null>>(
    await db.execute(sql`
      SELECT id::text AS id, xmin::text AS tx, from_account, to_account, amount::text AS amount, kind,
             from_balance_after::text AS from_after, to_balance_after::text AS to_after, request_id, program, level::text AS level, created_at::text AS at
      FROM transfers ORDER BY transfers.id`),
  );
}

async function balances(db: Db) {
  return rowsOf<{ id: string; balance: string; held: string }>(await db.execute(sql`SELECT id, balance::text AS balance, held::text AS held FROM accounts ORDER BY id`));
}

async function withDatabase<T>(dataDir: string, use: (db: Db) => Promise<T>): Promise<T> {
  const database = await openDatabase({ dataDir });
  try {
    return await use(database.db);
  } finally {
    await database.close();
  }
}

/**
 * Every file under `dir` with its size and modification time: equal before and after, nothing
 * was written there. The lock file aside, which whoever looks whether a server runs writes to.
 */
function fingerprint(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => name !== LOCK_FILE)
    .sort()
    .map((name) => {
      const stat = statSync(join(dir, name));
      return `${name} ${stat.isDirectory() ? "dir" : stat.size} ${stat.mtimeMs}`;
    });
}

/** Folders beside `dataDir` whose names start with its own (the restore's staging and moved-aside folders). */
const siblings = (dataDir: string) => readdirSync(dirname(dataDir)).filter((name) => name.startsWith(`${dataDir.split("/").pop()}.`));

describe.skipIf(onPostgres)("a backup taken while members buy and gift", () => {
  const dataDir = join(scratch, "fresh", "data");
  let during = "";
  /** The ledger restored from `during`. */
  let restoredLedger: Awaited<ReturnType<typeof ledger>> = [];
  let source: { ledger: Awaited<ReturnType<typeof ledger>>; balances: Awaited<ReturnType<typeof balances>> };

  test("restored into a fresh folder: the ledger up to one moment, whole transactions only, every balance as it was then, and the invariants hold", async () => {
    const m = matrixHelpers(h);
    const members: Awaited<ReturnType<typeof m.member>>[] = [];
    for (let i = 0; i < 6; i++) members.push(await m.member(undefined, 300));
    const [{ top }] = rowsOf<{ top: string }>(await h.db.execute(sql`SELECT coalesce(max(id), 0)::text AS top FROM transfers`)) as [{ top: string }];
    const before = BigInt(top);

    // Six members buy their next level in either program and gift each other, 15 steps each; the
    // backup is asked for after 30 steps, so it queues behind at most one step of each member and
    // some 50 come after it.
    let done = 0;
    const statuses = new Set<number>();
    const work = members.map(async (me, i) => {
      const next = { "3p": 1, "6p": 1 };
      for (let step = 0; step < 15; step++) {
        const program = step % 2 === 0 ? "3p" : "6p";
        // A gift every third step, and whenever there is no level left to buy: every step waits for an answer.
        if (step % 3 === 2 || next[program] > 4) {
          const to = members[(i + 1 + (step % 5)) % members.length]!;
          const res = await h.call("POST", "/api/user/gift", { token: me.token, body: { amount: ((step % 7) + 1) / 4, recipientEmail: to.email } });
          statuses.add(res.status);
        } else {
          const res = await m.buy(me, program, next[program]++);
          statuses.add(res.status);
        }
        done++;
        // In process, app.request answers through promises alone: a turn of the event loop lets
        // the timers and the answer of the backup's compression (a worker's message) in, as sockets would.
        await new Promise((turn) => setImmediate(turn));
      }
    });
    while (done < 30) await Bun.sleep(1);
    [during] = await Promise.all([takeBackup(), ...work]);
    expect([...statuses]).toEqual([200]);

    source = { ledger: await ledger(h.db), balances: await balances(h.db) };
    const printed: string[] = [];
    const restored = await restoreFromMachine(embedded(dataDir), during, { print: (line) => printed.push(line) });
    expect(restored.movedAside).toBeUndefined();
    expect(readdirSync(dirname(dataDir))).toEqual(["data"]);

    await withDatabase(dataDir, async (db) => {
      const copy = await ledger(db);
      const cut = BigInt(copy.at(-1)!.id!);
      // Taken while the members were at work: some of their transfers are in it, some came after.
      expect(cut).toBeGreaterThan(before);
      expect(cut).toBeLessThan(BigInt(source.ledger.at(-1)!.id!));
      // The source's ledger up to the cut, row for row.
      expect(copy).toEqual(source.ledger.filter((t) => BigInt(t.id!) <= cut));
      // No transaction cut in two: every transaction in the copy is there with all its transfers.
      const inCopy = new Set(copy.map((t) => t.tx));
      expect(source.ledger.filter((t) => inCopy.has(t.tx))).toHaveLength(copy.length);
      // Every balance is what the source's ledger says it was at the cut.
      const then = new Map(source.balances.map((a) => [a.id, "0"]));
      for (const t of copy) {
        then.set(t.from_account!, t.from_after!);
        then.set(t.to_account!, t.to_after!);
      }
      expect(await balances(db)).toEqual(source.balances.map((a) => ({ id: a.id, balance: then.get(a.id)!, held: "0" })));
      await expectLedgerInvariants(db);
      await expectTreeInvariants(db);
      expect(printed).toEqual([
        `Restored ${during}, taken ${restored.takenAt!.toISOString()}, into ${dataDir}: ${restored.members} members, ${copy.length} ledger entries; the ledger invariants hold. Start the server.`,
      ]);
      expect(restored.ledgerEntries).toBe(copy.length);
      restoredLedger = copy;
    });
    expect(restored.members).toBeGreaterThanOrEqual(members.length);
    expect(restored.migrated).toBe(0);
  });

  test("restored again over it: the data folder that was there is moved aside whole, never deleted, and the new one is in place", async () => {
    const later = await takeBackup();
    const restored = await restoreFromMachine(embedded(dataDir), later, quiet);
    expect(restored.movedAside).toMatch(new RegExp(`^${dataDir}\\.before-restore-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}-\\d{3}Z$`));
    expect(siblings(dataDir)).toEqual([restored.movedAside!.split("/").pop()!]);
    expect(await withDatabase(restored.movedAside!, ledger)).toEqual(restoredLedger);
    expect(await withDatabase(dataDir, ledger)).toEqual(await ledger(h.db));
    // Back as the first restore left it, for the tests below.
    rmSync(dataDir, { recursive: true });
    renameSync(restored.movedAside!, dataDir);
  });

  test("a backup whose ledger does not add up is not put in place: exit code 1, the data folder as it was, the restored copy beside it", async () => {
    const member = await h.signUp();
    await h.fund(member.token, 10);
    await h.db.execute(sql`UPDATE accounts SET balance = balance + 7 WHERE id = ${member.id}`);
    let broken: string;
    try {
      broken = await takeBackup();
    } finally {
      await h.db.execute(sql`UPDATE accounts SET balance = balance - 7 WHERE id = ${member.id}`);
    }
    const kept = fingerprint(dataDir);
    const errors: string[] = [];
    const spy = spyOn(console, "error").mockImplementation((line: string) => void errors.push(line));
    try {
      expect(await restoreCommand(broken, () => embedded(dataDir))).toBe(1);
    } finally {
      spy.mockRestore();
    }
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(`The restore failed: The restored database breaks the ledger invariants (ledger sum is 7, not 0; account ${member.id}: stored 1007, transfers say 1000)`);
    const [staging] = siblings(dataDir);
    expect(staging).toMatch(/^data\.restoring-/);
    expect(errors[0]).toContain(`Nothing was replaced: the data folder is as it was, and the restored copy is in ${join(dirname(dataDir), staging!)} to look at.`);
    expect(fingerprint(dataDir)).toEqual(kept);
    rmSync(join(dirname(dataDir), staging!), { recursive: true });
  });

  test("refused, changing nothing (exit code 2, one line): a running server's folder, no file, a file that is no backup, a Postgres dump, DATABASE_URL set", async () => {
    const backup = during;
    const kept = fingerprint(dataDir);

    // The server holds the folder's lock (here, this process): another process is refused.
    const lock = lockDataDir(dataDir);
    try {
      const refused = run(["run", "restore", backup], { DATA_DIR: dataDir });
      expect(refused.code).toBe(2);
      expect(refused.err.trim().split("\n")).toEqual([`The backup was not restored: The data folder ${dataDir} is in use by a running server (pid ${process.pid}): stop it first.`]);
      await expect(restoreFromMachine(embedded(dataDir), backup, quiet)).rejects.toThrow(CommandRefused);
    } finally {
      lock.release();
    }

    const text = join(scratch, "notes.tar.gz");
    writeFileSync(text, "not a tarball");
    const noDatabase = join(scratch, "other.tar.gz");
    writeFileSync(noDatabase, await new Bun.Archive({ "hello.txt": "a tarball of something else" }, { compress: "gzip" }).bytes());
    const dump = join(scratch, backupName(new Date(), "postgres"));
    writeFileSync(dump, "PGDMP\x01\x0e\x00...");
    const cases: [string, string][] = [
      [join(scratch, "missing.tar.gz"), `No backup file at ${join(scratch, "missing.tar.gz")}.`],
      [scratch, `No backup file at ${scratch}.`],
      [text, `${text} is not a backup of the embedded database (a .tar.gz of its data folder, written by the server or bun run backup).`],
      [noDatabase, `${noDatabase} is not a backup of the embedded database`],
      [dump, `${dump} is a Postgres dump (pg_dump): restore it with pg_restore into the database DATABASE_URL names (docs/operations.md#backups).`],
    ];
    const errors: string[] = [];
    const spy = spyOn(console, "error").mockImplementation((line: string) => void errors.push(line));
    try {
      for (const [bad] of cases) expect(await restoreCommand(bad, () => embedded(dataDir))).toBe(2);
      expect(await restoreCommand(undefined, () => embedded(dataDir))).toBe(2);
      expect(await restoreCommand(backup, () => loadConfig({ DATA_DIR: dataDir, DATABASE_URL: "postgres://x@127.0.0.1/matrix" }))).toBe(2);
      expect(await restoreCommand(backup, () => loadConfig({ DATA_DIR: dataDir, BACKUP_KEEP: "0" }))).toBe(2);
    } finally {
      spy.mockRestore();
    }
    cases.forEach(([, reason], i) => expect(errors[i]).toStartWith(`The backup was not restored: ${reason}`));
    expect(errors.slice(cases.length)).toEqual([
      "The backup was not restored: Name the backup to restore: --restore FILE (bun run restore FILE).",
      "The backup was not restored: DATABASE_URL is set: a Postgres database is restored with pg_restore (docs/operations.md#backups); this command restores the embedded database.",
      "The backup was not restored: BACKUP_KEEP must be 1 or more (the newest backups kept), got 0",
    ]);
    expect(siblings(dataDir)).toEqual([]);
    expect(fingerprint(dataDir)).toEqual(kept);

    // The server's own entry (and so the binary) takes --restore FILE instead of starting.
    const flag = run(["src/server/index.ts", "--restore", join(scratch, "missing.tar.gz")], { DATA_DIR: dataDir, PORT: "0" });
    expect([flag.code, flag.err.trim(), flag.out]).toEqual([2, `The backup was not restored: No backup file at ${join(scratch, "missing.tar.gz")}.`, ""]);
    const bare = run(["src/server/index.ts", "--restore"], { DATA_DIR: dataDir, PORT: "0" });
    expect([bare.code, bare.err.trim()]).toEqual([2, "The backup was not restored: Name the backup to restore: --restore FILE (bun run restore FILE)."]);
  });

  test("bun run restore in a fresh folder, then bun run backup of it: refused while a server holds the folder or there is no database, else written", async () => {
    const file = during;
    const target = join(scratch, "command", "data");
    const backups = join(scratch, "command", "backups");
    const restored = run(["run", "restore", file], { DATA_DIR: target });
    expect(restored.err).toBe("");
    expect(restored.code).toBe(0);
    expect(restored.out).toContain(`Restored ${file}, taken `);
    expect(restored.out).toContain("; the ledger invariants hold. Start the server.");

    expect(run(["run", "backup"], { DATA_DIR: join(scratch, "command", "empty"), BACKUP_DIR: backups })).toMatchObject({
      code: 2,
      err: `No backup was taken: There is no embedded database in ${join(scratch, "command", "empty")} (DATA_DIR) to back up.\n`,
    });
    const lock = lockDataDir(target);
    try {
      const refused = run(["run", "backup"], { DATA_DIR: target, BACKUP_DIR: backups });
      expect(refused.code).toBe(2);
      expect(refused.err).toStartWith(`No backup was taken: A server is running on ${target} (pid ${process.pid}): take the backup through it, POST /api/admin/backups as the admin`);
    } finally {
      lock.release();
    }
    expect(existsSync(backups)).toBe(false);
    const written = run(["run", "backup"], { DATA_DIR: target, BACKUP_DIR: backups, BACKUP_KEEP: "1" });
    expect(written.code).toBe(0);
    const [made] = listBackups(backups);
    expect(written.out.trim()).toBe(`Backup written: ${join(backups, made!.file)} (${made!.bytes} bytes; the newest 1 are kept)`);
  });
});

describe.skipIf(onPostgres)("backups of other releases", () => {
  test("a backup of an older release gets this release's migrations before it is checked; one of a newer release is refused", async () => {
    const backup = await takeBackup();
    // This release, played with one migration more than the backup's (it creates a table).
    const next = [...migrations, { hash: "a-migration-after-the-backup", folderMillis: Date.now(), sql: ["CREATE TABLE restore_test_marker (id int)"] }];
    const dataDir = join(scratch, "older", "data");
    const printed: string[] = [];
    const restored = await restoreFromMachine(embedded(dataDir), backup, { print: (line) => printed.push(line), migrations: next });
    expect(restored.migrated).toBe(1);
    expect(printed[0]).toContain("; the ledger invariants hold. 1 migrations of this release applied. Start the server.");
    const applied = await withDatabase(dataDir, async (db) => {
      await db.execute(sql`SELECT * FROM restore_test_marker`);
      return rowsOf<{ hash: string }>(await db.execute(sql`SELECT hash FROM drizzle.__drizzle_migrations ORDER BY id`)).map((r) => r.hash);
    });
    expect(applied).toEqual(next.map((m) => m.hash));

    // The release before the backup's: refused, and nothing is left of the attempt.
    await expect(restoreFromMachine(embedded(join(scratch, "newer", "data")), backup, { ...quiet, migrations: migrations.slice(0, -1) })).rejects.toThrow(
      `${backup} comes from a newer release (1 migrations this one does not have): restore it with that release or a later one.`,
    );
    expect(readdirSync(join(scratch, "newer"))).toEqual([]);
  });
});

/** pg_dump is on every machine that runs the Postgres tests in CI; elsewhere its absence skips them. */
const pgDump = Bun.which("pg_dump");

describe.if(onPostgres && (Boolean(pgDump) || Boolean(process.env.CI)))("bun run backup on Postgres", () => {
  test("pg_dump --format=custom into BACKUP_DIR, BACKUP_KEEP kept; pg_restore of it gives the same balances and ledger", async () => {
    expect(pgDump, "pg_dump must be on the PATH").toBeTruthy();
    const m = matrixHelpers(h);
    const [a, b] = [await m.member(undefined, 50), await m.member(undefined, 50)];
    await m.bought(a, "3p", 1);
    expect((await h.call("POST", "/api/user/gift", { token: b.token, body: { amount: 2.5, recipientEmail: a.email } })).status).toBe(200);

    const [{ name }] = rowsOf<{ name: string }>(await h.db.execute(sql`SELECT current_database() AS name`)) as [{ name: string }];
    const urlOf = (database: string) => Object.assign(new URL(TEST_DATABASE_URL!), { pathname: `/${database}` }).toString();
    const backups = join(scratch, "postgres");
    const first = run(["run", "backup"], { DATABASE_URL: urlOf(name), BACKUP_DIR: backups, BACKUP_KEEP: "1" });
    expect(first.err).toBe("");
    expect(first.code).toBe(0);
    const second = run(["run", "backup"], { DATABASE_URL: urlOf(name), BACKUP_DIR: backups, BACKUP_KEEP: "1" });
    expect(second.code).toBe(0);
    const listed = listBackups(backups);
    expect(listed).toHaveLength(1);
    expect(listed[0]!.file).toEndWith(".dump");
    expect(second.out.trim()).toBe(`Backup written: ${join(backups, listed[0]!.file)} (${listed[0]!.bytes} bytes; the newest 1 are kept)`);
    expect(readdirSync(backups)).toEqual([listed[0]!.file]);

    const copy = `restored_${process.pid}_${Date.now().toString(36)}`;
    const admin = postgres(TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${copy}`);
    try {
      const restore = Bun.spawnSync(["pg_restore", "--no-owner", `--dbname=${urlOf(copy)}`, join(backups, listed[0]!.file)], { stdout: "pipe", stderr: "pipe" });
      expect(restore.stderr.toString()).toBe("");
      expect(restore.exitCode).toBe(0);
      const restored = await openDatabase({ databaseUrl: urlOf(copy), max: 1 });
      try {
        // Row for row, but for the writing transactions: pg_restore writes them all again.
        const rows = async (db: Db) => (await ledger(db)).map(({ tx: _, ...row }) => row);
        expect(await rows(restored.db)).toEqual(await rows(h.db));
        expect(await balances(restored.db)).toEqual(await balances(h.db));
        await expectLedgerInvariants(restored.db);
      } finally {
        await restored.close();
      }
    } finally {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${copy} WITH (FORCE)`);
      await admin.end();
    }
  });
});
