import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freshDatabase, onPostgres } from "../testing/db";
import { backUpEmbedded, backupName, listBackups, pruneBackups, readBackupName, writeBackup } from "./backup";

/** The backup files themselves: names, listing, retention, the temporary name, and a clean stop. */

const scratch = mkdtempSync(join(tmpdir(), "matrix-backup-files-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let folders = 0;
const folder = () => join(scratch, String(++folders));

describe("names", () => {
  test("a backup's name says its time to the millisecond and its kind, and sorts by time as text", () => {
    const at = new Date("2026-11-29T12:00:00.123Z");
    expect(backupName(at, "embedded")).toBe("backup-2026-11-29T12-00-00-123Z.tar.gz");
    expect(backupName(at, "postgres")).toBe("backup-2026-11-29T12-00-00-123Z.dump");
    expect(readBackupName("backup-2026-11-29T12-00-00-123Z.tar.gz")).toEqual({ createdAt: at, kind: "embedded" });
    expect(readBackupName("backup-2026-11-29T12-00-00-123Z.dump")).toEqual({ createdAt: at, kind: "postgres" });
    for (const other of [".backup-2026-11-29T12-00-00-123Z.tar.gz.partial", "backup-2026-11-29T12-00-00Z.tar.gz", "notes.txt", "backup-2026-13-45T99-00-00-000Z.tar.gz"]) {
      expect(readBackupName(other)).toBeUndefined();
    }
    const times = ["2026-01-02T03:04:05.006Z", "2026-11-29T12:00:00.000Z", "2027-01-01T00:00:00.000Z", "2026-11-29T09:59:59.999Z"].map((t) => new Date(t));
    const names = times.map((t) => backupName(t, "embedded"));
    expect([...names].sort()).toEqual([...times].sort((a, b) => a.getTime() - b.getTime()).map((t) => backupName(t, "embedded")));
  });
});

describe("writing, listing and keeping", () => {
  test("a backup is written under a temporary name no listing shows, and appears under its own name only once whole", async () => {
    const dir = folder();
    let during: { listed: string[]; files: string[] } | undefined;
    const made = await writeBackup(
      dir,
      "embedded",
      async (temp) => {
        writeFileSync(temp, "half of it");
        during = { listed: listBackups(dir).map((b) => b.file), files: readdirSync(dir) };
        writeFileSync(temp, "the whole backup");
      },
      { keep: 3, now: () => new Date("2026-11-29T12:00:00.000Z") },
    );
    expect(during).toEqual({ listed: [], files: [".backup-2026-11-29T12-00-00-000Z.tar.gz.partial"] });
    expect(made).toEqual({ file: "backup-2026-11-29T12-00-00-000Z.tar.gz", bytes: "the whole backup".length, createdAt: new Date("2026-11-29T12:00:00.000Z") });
    expect(readdirSync(dir)).toEqual([made.file]);
    expect(listBackups(dir)).toEqual([made]);
    // The owner's alone: it holds every password hash and the token-signing secret.
    expect(statSync(join(dir, made.file)).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  test("a backup that fails leaves nothing: no file under its name, no temporary file, the older backups kept", async () => {
    const dir = folder();
    const first = await writeBackup(dir, "embedded", async (temp) => writeFileSync(temp, "first"), { keep: 1, now: () => new Date("2026-11-29T10:00:00.000Z") });
    const failed = writeBackup(
      dir,
      "embedded",
      async (temp) => {
        writeFileSync(temp, "half");
        throw new Error("disk full");
      },
      { keep: 1, now: () => new Date("2026-11-29T11:00:00.000Z") },
    );
    await expect(failed).rejects.toThrow("disk full");
    expect(readdirSync(dir)).toEqual([first.file]);
  });

  test("the newest BACKUP_KEEP of the kind are kept, newest first; the other kind, other files and a temporary file being written are left alone, a dead writer's is removed", async () => {
    const dir = folder();
    const at = (hour: number) => () => new Date(Date.UTC(2026, 10, 29, hour));
    for (const hour of [1, 2, 3, 4]) await writeBackup(dir, "embedded", async (temp) => writeFileSync(temp, `embedded ${hour}`), { keep: 10, now: at(hour) });
    await writeBackup(dir, "postgres", async (temp) => writeFileSync(temp, "a dump"), { keep: 10, now: at(0) });
    writeFileSync(join(dir, "README.txt"), "the operator's notes");
    const dead = join(dir, ".backup-2026-11-28T00-00-00-000Z.tar.gz.partial");
    const live = join(dir, ".backup-2026-11-29T05-00-00-000Z.dump.partial");
    writeFileSync(dead, "left by a writer that died");
    writeFileSync(live, "being written");
    utimesSync(dead, new Date(Date.now() - 2 * 3_600_000), new Date(Date.now() - 2 * 3_600_000));

    expect(pruneBackups(dir, "embedded", 2)).toEqual(["backup-2026-11-29T02-00-00-000Z.tar.gz", "backup-2026-11-29T01-00-00-000Z.tar.gz"]);
    expect(listBackups(dir).map((b) => b.file)).toEqual([
      "backup-2026-11-29T04-00-00-000Z.tar.gz",
      "backup-2026-11-29T03-00-00-000Z.tar.gz",
      "backup-2026-11-29T00-00-00-000Z.dump",
    ]);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(join(dir, "README.txt"))).toBe(true);
    // A new backup prunes its own kind as it is written.
    await writeBackup(dir, "embedded", async (temp) => writeFileSync(temp, "embedded 5"), { keep: 2, now: at(5) });
    expect(listBackups(dir).map((b) => b.file)).toEqual([
      "backup-2026-11-29T05-00-00-000Z.tar.gz",
      "backup-2026-11-29T04-00-00-000Z.tar.gz",
      "backup-2026-11-29T00-00-00-000Z.dump",
    ]);
    expect(listBackups(join(dir, "never-made"))).toEqual([]);
  });

  test("backups into one folder run one at a time: two asked at once are both written, whole", async () => {
    const dir = folder();
    const order: string[] = [];
    const slow = (name: string) => async (temp: string) => {
      order.push(`${name} starts`);
      await Bun.sleep(30);
      writeFileSync(temp, name);
      order.push(`${name} ends`);
    };
    const times = [new Date("2026-11-29T12:00:00.001Z"), new Date("2026-11-29T12:00:00.002Z")];
    const [a, b] = await Promise.all([
      writeBackup(dir, "embedded", slow("a"), { keep: 5, now: () => times[0]! }),
      writeBackup(dir, "embedded", slow("b"), { keep: 5, now: () => times[1]! }),
    ]);
    expect(order).toEqual(["a starts", "a ends", "b starts", "b ends"]);
    expect(listBackups(dir).map((x) => x.file)).toEqual([b!.file, a!.file]);
  });
});

describe.skipIf(onPostgres)("the embedded database's backup and a clean stop", () => {
  test("closing the database while a backup is being written waits for it: the file is whole", async () => {
    const database = await freshDatabase();
    const dir = folder();
    const work = backUpEmbedded(database.db, dir, { keep: 2 });
    await database.close();
    const made = await work;
    expect(listBackups(dir)).toEqual([made]);
    const archive = new Bun.Archive(await Bun.file(join(dir, made.file)).bytes());
    expect((await archive.files("/PG_VERSION")).size).toBe(1);
    expect(readdirSync(dir)).toEqual([made.file]);
  });
});
