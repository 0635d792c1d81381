import type { Subprocess } from "bun";
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { decimalWhole } from "./envValues";
import { metricsRelay } from "./metricsAcrossWorkers";

/*
 * Several server processes on one port, so that every core serves (docs/performance.md). On Postgres
 * the process started by `bun start` (or the binary) is a small supervisor: it migrates and seeds
 * once, then starts WORKERS server processes (default: one per CPU) that listen on the same port
 * (SO_REUSEPORT: the kernel spreads connections over them) once it has checked that no other
 * server holds that port, starts another when one dies (again and again while the new one dies
 * before listening), replaces them one by one on SIGHUP, and stops them all on SIGINT/SIGTERM.
 * They share nothing but the database (docs/rules.md#several-processes). The embedded database
 * (PGlite) belongs to one process: there the server stays a single process whatever WORKERS says.
 */

/** Set in a worker's environment (its number): the process serves, quietly, and never supervises. */
export const WORKER_ENV = "MATRIX_USDT_WORKER";

/** How many server processes: WORKERS, default the number of CPUs, on Postgres; always 1 on the embedded database. */
export function workerCount(env: Record<string, string | undefined>, databaseUrl: string | undefined): number {
  if (!databaseUrl) return 1;
  const raw = env.WORKERS?.trim();
  if (!raw) return availableParallelism();
  const n = decimalWhole(raw);
  if (n === undefined || n < 1) throw new Error(`WORKERS must be a whole number of 1 or more, got ${env.WORKERS}`);
  return n;
}

/** Whether this process is a worker started by the supervisor. */
export const isWorker = (env: Record<string, string | undefined> = process.env) => env[WORKER_ENV] !== undefined;

/** In a worker, once listening: tells the supervisor the port (it may have been 0). */
export function workerReady(port: number): void {
  process.send?.({ listening: port });
}

/**
 * In a worker, from its first moment: makes this process end with its supervisor, however that
 * one ends (SIGKILL included) and whatever the worker is doing then, starting or serving: the
 * worker's stdin is a pipe from the supervisor, and reads its end when the supervisor is gone.
 * (Watched only once listening, a worker the supervisor had just started again when it was
 * killed outlived it, still trying to reach its database.)
 */
export function endWithSupervisor(): void {
  void (async () => {
    try {
      for await (const _ of Bun.stdin.stream()) {
        // The supervisor never writes; only the end matters.
      }
    } catch {}
    process.exit(0);
  })();
}

/** The command that starts this same server again: the binary alone, or bun with its flags and the script. */
function ownCommand(): string[] {
  const compiled = Bun.main.startsWith("/$bunfs/");
  return compiled ? [process.execPath, ...process.argv.slice(2)] : [process.execPath, ...process.execArgv, ...process.argv.slice(1)];
}

/**
 * Whether `port` is taken, found by binding it as a lone server does (without SO_REUSEPORT) and
 * letting it go at once. The workers bind with SO_REUSEPORT, which the workers of another server
 * already on that port (an older release still running, a start run twice) accept without a
 * word, and the kernel would then split the connections between the two servers: the supervisor
 * asks this before it starts them. PORT=0 is never taken (the first worker picks a free port).
 */
export async function portTaken(port: number): Promise<boolean> {
  if (port === 0) return false;
  let probe: ReturnType<typeof Bun.serve>;
  try {
    probe = Bun.serve({ port, fetch: () => new Response(null, { status: 503 }) });
  } catch (error) {
    if ((error as { code?: string }).code === "EADDRINUSE") return true;
    throw error;
  }
  await probe.stop(true);
  return false;
}

/** A worker that dies within this long of its start is started again after a growing pause (a crash loop does not spin). */
const STEADY_MS = 10_000;
const FIRST_PAUSE_MS = 500;
const MAX_PAUSE_MS = 30_000;
/** How long a worker has to stop on SIGTERM before it is killed: its drain (src/server/shutdown.ts), then its database's close. */
const STOP_MS = 15_000;

export interface Workers {
  /** The port they all listen on (PORT, or the one the first worker was given for PORT=0). */
  port: number;
  /** SIGTERM to every worker, and waits for them (SIGKILL after STOP_MS). */
  stop(): Promise<void>;
  /**
   * A rolling restart (SIGHUP to the supervisor): each worker in turn is replaced by a new one,
   * which listens before the old one is told to stop (it lets the port go and answers what it
   * has in flight first): the port always has a listener. A replacement that cannot start stops
   * the round, and the workers left are kept. Asked again during a round: ignored.
   */
  replace(): Promise<void>;
}

/**
 * Starts `count` workers on `port` and keeps them running: the first alone (with PORT=0 it picks
 * the port the others then share), then the rest; resolves once all are listening. Rejects when a
 * worker cannot start at first (the port taken, the database unreachable: the worker's own message
 * is on stderr before). Afterwards a worker that exits is started again (logged on stderr), and so
 * is a new one that exits before listening (the database refusing connections for a while, during
 * a Postgres restart): after a pause that grows while they keep dying early, for as long as the
 * workers are not stopped. A slot is never given up, so the supervisor never ends up running nothing.
 */
export async function startWorkers(count: number, port: number, log: (line: string) => void = console.error): Promise<Workers> {
  const command = ownCommand();
  const slots: (Subprocess | undefined)[] = Array.from({ length: count }, () => undefined);
  const pauses = Array.from({ length: count }, () => FIRST_PAUSE_MS);
  /** Workers replaced by a rolling restart, still finishing their requests: not started again when they exit. */
  const retiring = new Set<Subprocess>();
  const running = () => [...slots.filter((c): c is Subprocess => c !== undefined), ...retiring];
  // A scrape of /metrics reaching one worker gathers every worker's figures through here.
  const relay = metricsRelay(running);
  let stopping = false;
  let shared = port;

  /** The pause before slot `n` is started again, growing while its workers keep dying early. */
  function nextPause(n: number, steady: boolean): number {
    const pause = steady ? FIRST_PAUSE_MS : pauses[n]!;
    pauses[n] = steady ? FIRST_PAUSE_MS : Math.min(pause * 2, MAX_PAUSE_MS);
    return pause;
  }

  /** Starts slot `n` again after `pause`, and again until a worker is running there (unless stopping). */
  function again(n: number, pause: number) {
    setTimeout(() => {
      // A rolling restart may have filled the slot meanwhile.
      if (stopping || slots[n]) return;
      // A restart's promise never rejects on an exit (onExit schedules the next one); it rejects
      // only when the process could not be spawned at all (too many processes, no memory).
      spawn(n, false).catch((error) => {
        const next = nextPause(n, false);
        log(`Worker ${n + 1} could not be started (${(error as Error).message}); trying again in ${next} ms`);
        again(n, next);
      });
    }, pause);
  }

  /** Slot `n`'s worker; resolves with its port once it listens. Only a first start (`first`) rejects when it exits before. */
  function spawn(n: number, first: boolean): Promise<number> {
    return new Promise((resolve, reject) => {
      let listening = false;
      const startedAt = Date.now();
      const child = Bun.spawn(command, {
        env: { ...process.env, [WORKER_ENV]: String(n + 1), PORT: String(shared) },
        stdin: "pipe",
        stdout: "inherit",
        stderr: "inherit",
        serialization: "json",
        ipc(message, from) {
          if (relay(message, from)) return;
          const said = message as { listening?: number };
          if (typeof said?.listening === "number" && !listening) {
            listening = true;
            resolve(said.listening);
          }
        },
        onExit(_proc, code, signal) {
          if (retiring.delete(child)) return;
          if (slots[n] === child) slots[n] = undefined;
          const how = signal ?? `code ${code}`;
          if (!listening && first) return reject(new Error(`worker ${n + 1} exited before listening (${how})`));
          if (stopping) return;
          // One that never listened was not steady, however long it tried.
          const pause = nextPause(n, listening && Date.now() - startedAt >= STEADY_MS);
          log(`Worker ${n + 1} (pid ${child.pid}) exited ${listening ? "" : "before listening "}(${how}); starting another in ${pause} ms`);
          again(n, pause);
        },
      });
      slots[n] = child;
    });
  }

  /** SIGTERM to `children`, SIGKILL to those still running after STOP_MS; resolves once all have exited. */
  async function end(children: Subprocess[]) {
    for (const child of children) child.kill("SIGTERM");
    const timer = setTimeout(() => {
      for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }, STOP_MS);
    await Promise.all(children.map((child) => child.exited));
    clearTimeout(timer);
  }

  async function stop() {
    stopping = true;
    await end(running());
  }

  let replacing: Promise<void> | undefined;
  function replace(): Promise<void> {
    if (stopping || replacing) return replacing ?? Promise.resolve();
    replacing = (async () => {
      log(`Replacing the ${count} workers one by one`);
      if (!acceptQueuesMigrate()) {
        log("net.ipv4.tcp_migrate_req is 0: a connection that arrives in the instant a worker lets the port go may be reset. Set it to 1 (Linux 5.14 or later) for restarts without any.");
      }
      for (let n = 0; n < count && !stopping; n++) {
        const old = slots[n];
        if (old) retiring.add(old);
        try {
          await spawn(n, true);
        } catch (error) {
          const oldRuns = old !== undefined && old.exitCode === null && old.signalCode === null;
          if (old) retiring.delete(old);
          // The old one is kept; one that died meanwhile was not started again (it was retiring): now it is.
          if (oldRuns) slots[n] = old;
          else again(n, FIRST_PAUSE_MS);
          log(`Worker ${n + 1}'s replacement did not start (${(error as Error).message}); the workers not replaced yet are kept`);
          return;
        }
        if (old) await end([old]);
      }
      log("Workers replaced");
    })().finally(() => (replacing = undefined));
    return replacing;
  }

  try {
    shared = await spawn(0, true);
    await Promise.all(Array.from({ length: count - 1 }, (_, i) => spawn(i + 1, true)));
  } catch (error) {
    await stop();
    throw error;
  }
  return { port: shared, stop, replace };
}

/**
 * Whether the kernel moves the connections waiting in a closing listener's accept queue to
 * another listener of the port (net.ipv4.tcp_migrate_req, Linux 5.14+). Without it, those of a
 * worker letting the port go are reset: with SO_REUSEPORT each listener has a queue of its own.
 * Measured in rolling restarts under load (src/server/cluster.test.ts): 1 request in about
 * 9,500 reset with it off (a new connection), none with it on. Unknown (another system): taken as on.
 */
export function acceptQueuesMigrate(): boolean {
  try {
    return readFileSync("/proc/sys/net/ipv4/tcp_migrate_req", "utf8").trim() !== "0";
  } catch {
    return true;
  }
}

/** How often a server process looks whether it has gone idle. */
const IDLE_TICK_MS = 3_000;

/**
 * `fetch`, counting requests; when a process that served requests has seen none for a tick, it
 * runs one full garbage collection and shrinks its heap (some 25 ms, while nobody waits). After a
 * burst of load the memory is mostly garbage the allocators keep otherwise: at rest each process
 * goes back near its size at start (docs/performance.md: memory).
 */
export function collectWhenIdle<S, R>(fetch: (request: Request, server: S) => R): (request: Request, server: S) => R {
  let served = 0;
  let seen = 0;
  let collected = 0;
  const timer = setInterval(() => {
    if (served !== seen) seen = served;
    else if (seen !== collected) {
      collected = seen;
      Bun.gc(true);
      // Hands the freed heap back (deprecated in Bun's types, hence looked up): some 30 MB more.
      (Bun as { shrink?: () => void }).shrink?.();
    }
  }, IDLE_TICK_MS);
  timer.unref();
  return (request, server) => {
    served++;
    return fetch(request, server);
  };
}
