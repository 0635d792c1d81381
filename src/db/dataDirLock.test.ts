import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { DataDirInUse, LOCK_FILE, lockDataDir } from "./dataDirLock";

// The data-folder lock is the kernel's (flock): one holder at a time, whoever starts at the same
// moment, and released when its process dies, however it dies.

const folders: string[] = [];
const freshFolder = () => {
  const dir = mkdtempSync(join(tmpdir(), "matrix-flock-"));
  folders.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** A lock starter (src/testing/lockStarter.ts) driven over IPC: one message at a time. */
function starter() {
  let waiting: ((message: any) => void) | undefined;
  const queued: any[] = [];
  const proc: Subprocess = Bun.spawn([process.execPath, join(import.meta.dir, "../testing/lockStarter.ts")], {
    stdio: ["ignore", "ignore", "inherit"],
    serialization: "json",
    ipc(message) {
      if (waiting) {
        const resolve = waiting;
        waiting = undefined;
        resolve(message);
      } else queued.push(message);
    },
  });
  const answer = () => (queued.length ? Promise.resolve(queued.shift()) : new Promise<any>((resolve) => (waiting = resolve)));
  return {
    proc,
    ready: answer(),
    take: (dir: string, at: number) => {
      proc.send({ take: dir, at });
      return answer() as Promise<{ held: boolean; error?: string }>;
    },
    release: () => {
      proc.send({ release: true });
      return answer();
    },
  };
}

test("two starters released at the same moment on one folder, a hundred times: exactly one holds it each time, on a fresh folder and on a dead holder's leftover", async () => {
  const a = starter();
  const b = starter();
  try {
    await Promise.all([a.ready, b.ready]);
    const dead = Bun.spawn(["true"]);
    await dead.exited;
    const dir = freshFolder();
    let firstWins = 0;
    for (let round = 0; round < 100; round++) {
      // Every other round the folder holds what a killed server left: its pid, a process gone.
      if (round % 2 === 1) writeFileSync(join(dir, LOCK_FILE), `${dead.pid}\n123\n`);
      const at = Date.now() + 5;
      const [one, two] = await Promise.all([a.take(dir, at), b.take(dir, at)]);
      expect([one.held, two.held].filter(Boolean)).toHaveLength(1);
      expect((one.held ? two : one).error).toBe("DataDirInUse");
      if (one.held) firstWins++;
      await Promise.all([a.release(), b.release()]);
    }
    if (process.env.LOCK_RACE_REPORT) console.log(`two starters, 100 rounds: the first won ${firstWins}, the second ${100 - firstWins}`);
  } finally {
    a.proc.kill();
    b.proc.kill();
  }
}, 30_000);

test("a holder killed with SIGKILL leaves the lock to the next start: the kernel released it", async () => {
  const dir = freshFolder();
  const holder = starter();
  try {
    await holder.ready;
    expect((await holder.take(dir, 0)).held).toBe(true);
    let refused: unknown;
    try {
      lockDataDir(dir);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(DataDirInUse);
    expect((refused as DataDirInUse).pid).toBe(holder.proc.pid);
    holder.proc.kill("SIGKILL");
    await holder.proc.exited;
    // Its pid is still written there; it does not matter.
    expect(readFileSync(join(dir, LOCK_FILE), "utf8").split("\n")[0]).toBe(String(holder.proc.pid));
    lockDataDir(dir).release();
  } finally {
    holder.proc.kill("SIGKILL");
  }
});

test("what a file says never takes a lock away: a live pid without the kernel lock is only an older release's holder when its start time matches too", async () => {
  const dir = freshFolder();
  const live = Bun.spawn(["sleep", "30"]);
  try {
    // A leftover naming a live process (its pid reused, or seen from another PID namespace).
    writeFileSync(join(dir, LOCK_FILE), `${live.pid}\n\n`);
    lockDataDir(dir).release();
    writeFileSync(join(dir, LOCK_FILE), `${live.pid}\nnot-its-start-time\n`);
    lockDataDir(dir).release();
    // Exactly what a server of the release before writes while it runs (no flock): refused.
    const started = readFileSync(`/proc/${live.pid}/stat`, "utf8").split(") ")[1]!.split(" ")[19];
    writeFileSync(join(dir, LOCK_FILE), `${live.pid}\n${started}\n`);
    expect(() => lockDataDir(dir)).toThrow(DataDirInUse);
  } finally {
    live.kill();
    await live.exited;
  }
  lockDataDir(dir).release();
});

/** Whether this machine lets us start a process in a PID namespace of its own (root, unshare). */
const unshareWorks = Bun.spawnSync(["unshare", "--pid", "--fork", "true"], { stdout: "ignore", stderr: "ignore" }).exitCode === 0;

test.skipIf(!unshareWorks)("a holder in another PID namespace (a second container on the same volume) still holds the folder", async () => {
  const dir = freshFolder();
  const script = `const { lockDataDir } = await import(${JSON.stringify(join(import.meta.dir, "dataDirLock.ts"))}); lockDataDir(${JSON.stringify(dir)}); console.log("held"); await Bun.sleep(30000);`;
  const other = Bun.spawn(["unshare", "--pid", "--fork", "--kill-child", process.execPath, "-e", script], { stdout: "pipe", stderr: "inherit" });
  try {
    const reader = other.stdout.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain("held");
    // Its pid there is 1 or so, which names another process (or none) here: the pid file took that for a dead holder.
    expect(() => lockDataDir(dir)).toThrow(DataDirInUse);
  } finally {
    other.kill("SIGKILL");
    await other.exited;
  }
  // Gone: free again.
  for (let i = 0; i < 50; i++) {
    try {
      lockDataDir(dir).release();
      return;
    } catch {
      await Bun.sleep(20);
    }
  }
  lockDataDir(dir).release();
});
