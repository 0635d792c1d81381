import { dlopen, FFIType, read } from "bun:ffi";
import { closeSync, constants, ftruncateSync, mkdirSync, openSync, readFileSync, readSync, writeSync } from "node:fs";
import { join, resolve } from "node:path";

/*
 * One process per embedded data folder: PGlite has no lock of its own, and two of them writing
 * one folder corrupt it. The lock is the kernel's, `flock(LOCK_EX | LOCK_NB)` on
 * `<DATA_DIR>/.lock` through a descriptor kept open for the process's life: the kernel releases
 * it when the process ends, however it ends, and it holds between processes that cannot see each
 * other's pids (two containers on one volume). A pid file was fooled by both: a holder in another
 * PID namespace looked dead, and two starters on a stale file could both replace it. Bun has no
 * flock binding: libc's is called through bun:ffi.
 */

/** The file in a PGlite data folder that the running server holds locked (its pid written in it, for the message). */
export const LOCK_FILE = ".lock";

/** Thrown when another process (or this one) already has the data folder open. */
export class DataDirInUse extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The data folder ${dataDir} is already in use by another server process (pid ${pid}). ` +
        `Only one process may open an embedded database: stop that one first, or set DATA_DIR to another folder ` +
        `(or DATABASE_URL to share a Postgres). The lock ends with the process that holds it.`,
    );
    this.name = "DataDirInUse";
  }
}

const LOCK_EX = 2;
const LOCK_NB = 4;

/** libc's flock and errno, loaded at the first lock (Linux, glibc or musl; macOS). */
let libc: { flock(fd: number, operation: number): number; errno(): number; wouldBlock: number } | undefined;

function kernel() {
  if (libc) return libc;
  const mac = process.platform === "darwin";
  const names = mac ? ["libc.dylib", "libSystem.B.dylib"] : ["libc.so.6", "libc.musl-x86_64.so.1", "libc.musl-aarch64.so.1", "libc.so"];
  const errnoSymbol = mac ? "__error" : "__errno_location";
  let lastError: unknown;
  for (const name of names) {
    try {
      const lib = dlopen(name, {
        flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
        [errnoSymbol]: { args: [], returns: FFIType.ptr },
      });
      const errnoAt = lib.symbols[errnoSymbol] as () => number | null;
      libc = {
        flock: (fd, operation) => lib.symbols.flock(fd, operation) as number,
        errno: () => {
          const at = errnoAt();
          return at ? read.i32(at as never, 0) : 0;
        },
        // EWOULDBLOCK: EAGAIN, 11 on Linux, 35 on macOS.
        wouldBlock: mac ? 35 : 11,
      };
      return libc;
    } catch (error) {
      lastError = error;
    }
  }
  throw new Error(`The data folder lock needs libc's flock, which could not be loaded here (${lastError instanceof Error ? lastError.message : String(lastError)})`);
}

/** The start time of a process (field 22 of /proc/<pid>/stat), where /proc exists: tells a reused pid apart. */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Written after the pid and start time by a holder of the kernel lock: such a file is never an older release's. */
const FLOCK_MARK = "flock";

/**
 * Whether the file names a live server of a release before the kernel lock (it wrote its pid and
 * start time and never called flock, so the lock taken says nothing of it): only that exact
 * process, same pid and same start time, counts, so a crashed holder's leftover never stops a
 * start. A file a kernel-lock holder wrote is left to the kernel: its pid may be another
 * namespace's.
 */
function olderReleaseHolds(text: string): number | undefined {
  const [pidText = "", started = "", mark = ""] = text.split("\n");
  const pid = Number(pidText);
  if (mark === FLOCK_MARK || !Number.isInteger(pid) || pid <= 0 || pid === process.pid || !started || !isAlive(pid)) return undefined;
  return startTimeOf(pid) === started ? pid : undefined;
}

function contentOf(fd: number): string {
  const buffer = Buffer.alloc(64);
  const n = readSync(fd, buffer, 0, buffer.length, 0);
  return buffer.subarray(0, n).toString("utf8");
}

/** The pid the holder wrote; a holder that has just taken the lock may not have written it yet. */
function holderPid(fd: number): number {
  for (let attempt = 0; attempt < 10; attempt++) {
    const pid = Number.parseInt(contentOf(fd), 10);
    if (pid > 0) return pid;
    Bun.sleepSync(10);
  }
  return 0;
}

/**
 * Takes `<dataDir>/.lock` for this process: flock on a descriptor of its own, kept open until
 * `release()` or the process's end. Held by another process, or already by this one: DataDirInUse.
 * The file is never removed (a process that opened it just before the removal would lock a file
 * nobody else sees); released, it is emptied.
 */
export function lockDataDir(dataDir: string): { release(): void } {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, LOCK_FILE);
  const { flock, errno, wouldBlock } = kernel();
  // Opened close-on-exec (Bun's default): a child process does not inherit the lock.
  const fd = openSync(path, constants.O_RDWR | constants.O_CREAT, 0o600);
  try {
    if (flock(fd, LOCK_EX | LOCK_NB) !== 0) {
      const code = errno();
      if (code !== wouldBlock) throw new Error(`Could not lock ${path} (errno ${code})`);
      throw new DataDirInUse(dir, holderPid(fd));
    }
    const older = olderReleaseHolds(contentOf(fd));
    if (older !== undefined) throw new DataDirInUse(dir, older);
    ftruncateSync(fd, 0);
    writeSync(fd, `${process.pid}\n${startTimeOf(process.pid) ?? ""}\n${FLOCK_MARK}\n`, 0);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      try {
        ftruncateSync(fd, 0);
      } finally {
        // Closing the only descriptor of the open file releases the lock.
        closeSync(fd);
      }
    },
  };
}
