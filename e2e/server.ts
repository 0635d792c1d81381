/**
 * The real server for the browser tests: `bun src/server/index.ts` as a child process, on a
 * free loopback port, on a fresh embedded database in a temporary folder, with a known admin.
 * It builds nothing (CI runs `bun run build` first) unless the client build is missing. It can
 * be halted and started again on the same port and data (an outage, as the member sees it), and
 * its database read while it is halted.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");
const MANIFEST = join(ROOT, "public", "build", "manifest.json");
const START_TIMEOUT_MS = 60_000;

export interface TestServer {
  /** http://127.0.0.1:<port>, no trailing slash. */
  url: string;
  admin: { email: string; password: string };
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
  /** Lines of the server log that report a failed request (the global onError's 500s). */
  failures(): string[];
  /** The embedded database's folder; open it only while the server is halted (it locks it). */
  dataDir: string;
  /** Stops the process (SIGTERM, as a release or a crash-free restart does), keeping its data. */
  halt(): Promise<void>;
  /** Starts it again after `halt`, on the same port with the same data; resolves once it answers. */
  restart(): Promise<void>;
  /** Stops it for good and removes its data. */
  stop(): Promise<void>;
}

/** Builds the client once if no build exists; a server without it serves pages without scripts. */
export function ensureClientBuild() {
  if (existsSync(MANIFEST)) return;
  console.warn("e2e: no client build at public/build; running `bun run build` once.");
  const built = Bun.spawnSync(["bun", "run", "build"], { cwd: ROOT, stdout: "inherit", stderr: "inherit" });
  if (built.exitCode !== 0 || !existsSync(MANIFEST)) throw new Error("e2e: `bun run build` failed; see its output above.");
}

/** One GET through node:http (a test file may have replaced the global fetch with a DOM's). */
function get(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "GET", timeout: 2000 }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", reject);
    req.end();
  });
}

export interface ServerOptions {
  /** Settings of the server's own (chain settings, say), added to the environment it starts with. */
  env?: Record<string, string>;
}

export async function startServer({ env: extra = {} }: ServerOptions = {}): Promise<TestServer> {
  ensureClientBuild();
  const dataDir = mkdtempSync(join(tmpdir(), "matrix-e2e-"));
  const admin = { email: "admin@e2e.test", password: "admin-e2e-password" };
  const env: Record<string, string | undefined> = {
    ...process.env,
    PORT: "0", // Bun picks a free port; the server prints it
    DATA_DIR: dataDir,
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    // No scheduled backups: they would go beside the data folder, into the shared temporary one.
    BACKUP_INTERVAL_HOURS: "0",
    ...extra,
  };
  // Always the embedded database, whatever the surrounding shell points at.
  delete env.DATABASE_URL;
  delete env.JWT_SECRET;
  delete env.CORS_ORIGINS;

  const command = ["bun", "--preload", join(import.meta.dir, "server-preload.ts"), join(ROOT, "src/server/index.ts")];
  let child: ReturnType<typeof spawnServer> | null = null;
  let pumps: Promise<void>[] = [];
  function spawnServer(port: number) {
    return Bun.spawn(command, { cwd: ROOT, env: { ...env, PORT: String(port) }, stdout: "pipe", stderr: "pipe" });
  }

  let log = "";
  let onLog: () => void = () => {};
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      log += decoder.decode(chunk, { stream: true });
      onLog();
    }
  };

  const halt = async () => {
    const running = child;
    if (running && running.exitCode === null && running.signalCode === null) {
      running.kill("SIGTERM");
      const exited = await Promise.race([running.exited.then(() => true), Bun.sleep(5000).then(() => false)]);
      if (!exited) {
        running.kill("SIGKILL");
        await running.exited;
      }
    }
    await Promise.allSettled(pumps);
  };
  const stop = async () => {
    await halt();
    rmSync(dataDir, { recursive: true, force: true });
  };

  /** Starts the process on `port` (0: a free one) and resolves with its port once it answers. */
  async function launch(port: number): Promise<number> {
    const from = log.length;
    const started = spawnServer(port);
    child = started;
    pumps = [pump(started.stdout), pump(started.stderr)];
    const listening = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server did not start within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
      onLog = () => {
        const found = /Listening on http:\/\/[^:/\s]+:(\d+)/.exec(log.slice(from));
        if (found) {
          clearTimeout(timer);
          resolve(Number(found[1]));
        }
      };
      void started.exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`the server exited with code ${code} before listening`));
      });
    });
    const url = `http://127.0.0.1:${listening}`;
    // Listening is not answering: wait for a real API answer (database migrated and seeded).
    for (let tries = 0; ; tries++) {
      const status = await get(`${url}/api/auth/admin-referral-id`).catch(() => 0);
      if (status === 200) break;
      if (tries > 100) throw new Error(`the server at ${url} does not answer (last status ${status})`);
      await Bun.sleep(100);
    }
    return listening;
  }

  try {
    // The port the caller asked for (PORT in `env`: its mailed links name it), else a free one.
    const port = await launch(Number(env.PORT) || 0);
    const url = `http://127.0.0.1:${port}`;
    return {
      url,
      admin,
      output: () => log,
      failures: () => log.split("\n").filter((line) => / failed\b/.test(line) && /^(GET|POST|PUT|PATCH|DELETE) \//.test(line.trim())),
      dataDir,
      halt,
      restart: async () => {
        await halt();
        try {
          await launch(port);
        } catch (error) {
          await halt();
          throw new Error(`e2e: ${(error as Error).message}\n--- server output ---\n${log}`);
        }
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw new Error(`e2e: ${(error as Error).message}\n--- server output ---\n${log}`);
  }
}

/** One call to a test server's API; throws with the answer when it is not a success. */
export async function callApi<T>(base: string, method: string, path: string, { token, body }: { token?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(`${base}/api${path}`, {
    method,
    headers: { ...(token ? { "x-auth-token": token } : {}), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} /api${path} answered ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}
