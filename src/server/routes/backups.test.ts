import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { backupName, listBackups } from "../../db/backup";
import { ERRORS } from "../../shared/errors";
import { onPostgres } from "../../testing/db";
import type { Harness } from "../../testing/harness";
import { useMoneyHarness } from "../../testing/useHarness";
import { startBackupSchedule } from "../backups";
import { loadConfig } from "../config";

/**
 * The owner's backups through the API (POST and GET /api/admin/backups), the schedule of the
 * embedded database, and the BACKUP_* variables. The admin is the owner.
 */

const KEEP = 2;
let h: Harness;
useMoneyHarness((made) => (h = made), { config: { backupKeep: KEEP } });

const take = (token = h.adminToken) => h.call("POST", "/api/admin/backups", { token });
const list = (token = h.adminToken) => h.call("GET", "/api/admin/backups", { token });
const folder = () => h.deps.config.backupDir;
/** The names in the backup folder; none before the first backup made it. */
const filesIn = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

describe.skipIf(onPostgres)("POST and GET /api/admin/backups on the embedded database", () => {
  test("POST answers 201 {file, bytes, createdAt}: a whole tarball of the data folder, named by its time; GET lists it", async () => {
    const before = Date.now();
    const res = await take();
    expect(res.status).toBe(201);
    const { file, bytes, createdAt } = res.body;
    expect(Object.keys(res.body).sort()).toEqual(["bytes", "createdAt", "file"]);
    expect(file).toBe(backupName(new Date(createdAt), "embedded"));
    expect(new Date(createdAt).getTime()).toBeGreaterThanOrEqual(before);
    const written = Bun.file(join(folder(), file));
    expect(written.size).toBe(bytes);
    // A data folder, gzipped: PGlite opens it (src/server/restore.test.ts restores one).
    const archive = new Bun.Archive(await written.bytes());
    expect((await (await archive.files("/PG_VERSION")).get("/PG_VERSION")!.text()).trim()).toMatch(/^\d+$/);
    expect((await list()).body).toContainEqual({ file, bytes, createdAt });
  });

  test("GET lists newest first and the folder keeps BACKUP_KEEP: each new backup removes the oldest beyond it", async () => {
    const taken: string[] = [];
    for (let i = 0; i < KEEP + 2; i++) taken.push((await take()).body.file);
    const listed = (await list()).body as { file: string; createdAt: string }[];
    expect(listed.map((b) => b.file)).toEqual(taken.slice(-KEEP).reverse());
    expect(listed.map((b) => b.createdAt)).toEqual([...listed.map((b) => b.createdAt)].sort().reverse());
    expect(filesIn(folder()).sort()).toEqual(taken.slice(-KEEP).sort());
  });

  test("no listing ever shows a backup that is not whole: a file under a backup's name has its final size from the moment it appears", async () => {
    const seen = new Map<string, Set<number>>();
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        for (const name of filesIn(folder())) {
          const size = Bun.file(join(folder(), name)).size;
          if (!seen.has(name)) seen.set(name, new Set());
          seen.get(name)!.add(size);
        }
        await Bun.sleep(0);
      }
    })();
    const made = [(await take()).body, (await take()).body];
    watching = false;
    await watcher;
    for (const { file, bytes } of made) expect([...(seen.get(file) ?? [bytes])]).toEqual([bytes]);
    // Whatever else was seen was a temporary name, never listed.
    const others = [...seen.keys()].filter((name) => !listBackups(folder()).some((b) => b.file === name) && !name.startsWith("backup-"));
    for (const name of others) expect(name).toMatch(/^\.backup-.*\.partial$/);
    expect(filesIn(folder()).filter((name) => name.endsWith(".partial"))).toEqual([]);
  });

  test("a member gets 403 from both, and nothing is written", async () => {
    const member = await h.signUp();
    const files = filesIn(folder());
    expect(await take(member.token)).toMatchObject({ status: 403, body: { code: "forbidden" } });
    expect(await list(member.token)).toMatchObject({ status: 403, body: { code: "forbidden" } });
    expect(filesIn(folder())).toEqual(files);
  });

  test("the schedule takes a backup when the newest is BACKUP_INTERVAL_HOURS old (or there is none), and not before", async () => {
    let now = new Date(Date.now() + 48 * 3_600_000);
    const printed: string[] = [];
    const deps = { ...h.deps, config: { ...h.deps.config, backupIntervalHours: 24 } };
    // Looks only when asked here: a first look a day away.
    const schedule = startBackupSchedule(deps, { firstMs: 86_400_000, now: () => now, print: (line) => printed.push(line) });
    try {
      // The newest backup (the tests above) is two days old at this `now`.
      const first = await schedule.runOnce();
      expect(first?.createdAt).toEqual(now);
      expect(printed).toEqual([`Backup written: ${join(folder(), first!.file)} (${first!.bytes} bytes)`]);
      now = new Date(now.getTime() + 23 * 3_600_000);
      expect(await schedule.runOnce()).toBeUndefined();
      now = new Date(now.getTime() + 3_600_000);
      expect((await schedule.runOnce())?.createdAt).toEqual(now);
      expect(listBackups(folder())).toHaveLength(KEEP);
    } finally {
      await schedule.stop();
    }
    // Off with 0.
    const off = startBackupSchedule({ ...h.deps, config: { ...h.deps.config, backupIntervalHours: 0 } }, { now: () => new Date(now.getTime() + 1e10) });
    expect(await off.runOnce()).toBeUndefined();
  });
});

describe.if(onPostgres)("POST and GET /api/admin/backups on Postgres", () => {
  test("POST is refused 409 backup_unsupported, pointing at bun run backup and WAL archiving; GET lists what bun run backup wrote", async () => {
    const res = await take();
    expect(res).toMatchObject({ status: 409, body: { code: "backup_unsupported", msg: ERRORS.backup_unsupported.msg } });
    expect(res.body.msg).toContain("bun run backup");
    expect(res.body.msg).toContain("WAL");
    expect(await list()).toMatchObject({ status: 200, body: [] });
    const dump = backupName(new Date("2026-11-29T12:00:00.000Z"), "postgres");
    mkdirSync(folder(), { recursive: true });
    writeFileSync(join(folder(), dump), "PGDMP...");
    expect((await list()).body).toEqual([{ file: dump, bytes: 8, createdAt: "2026-11-29T12:00:00.000Z" }]);
    // No schedule on Postgres.
    expect(await startBackupSchedule(h.deps, { firstMs: 0 }).runOnce()).toBeUndefined();
  });
});

describe("BACKUP_DIR, BACKUP_INTERVAL_HOURS, BACKUP_KEEP", () => {
  test("defaults: the folder backups beside DATA_DIR, every 24 hours, 7 kept", () => {
    expect(loadConfig({})).toMatchObject({ backupDir: "backups", backupIntervalHours: 24, backupKeep: 7 });
    expect(loadConfig({ DATA_DIR: "/var/lib/matrix/data" }).backupDir).toBe("/var/lib/matrix/backups");
    expect(loadConfig({ BACKUP_DIR: " /srv/backups ", BACKUP_INTERVAL_HOURS: "0", BACKUP_KEEP: "30" })).toMatchObject({ backupDir: "/srv/backups", backupIntervalHours: 0, backupKeep: 30 });
  });

  test("a value the server cannot use stops the start, saying why", () => {
    for (const inside of ["/var/lib/matrix/data", "/var/lib/matrix/data/backups", "/var/lib/matrix/data/./x/.."]) {
      expect(() => loadConfig({ DATA_DIR: "/var/lib/matrix/data", BACKUP_DIR: inside })).toThrow(`BACKUP_DIR must be outside DATA_DIR (/var/lib/matrix/data), got ${inside}`);
    }
    expect(loadConfig({ DATA_DIR: "/var/lib/matrix/data", BACKUP_DIR: "/var/lib/matrix/data-backups" }).backupDir).toBe("/var/lib/matrix/data-backups");
    for (const bad of ["-1", "1.5", "daily", "8761"]) expect(() => loadConfig({ BACKUP_INTERVAL_HOURS: bad })).toThrow("BACKUP_INTERVAL_HOURS must be");
    for (const bad of ["0", "-2", "seven"]) expect(() => loadConfig({ BACKUP_KEEP: bad })).toThrow("BACKUP_KEEP must be");
  });
});
