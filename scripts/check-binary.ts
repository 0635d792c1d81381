/**
 * CI check of the compiled binary (`bun run compile` -> dist/matrix-usdt) on its own: copied
 * to an empty temporary folder and started there with a clean environment (no DATABASE_URL,
 * only PORT), so nothing can come from the source tree.
 *
 * `--help` lists the variables; the first start creates ./data, migrates, seeds the admin
 * (password printed once) and serves the pages (the landing with its own stylesheet inline),
 * a client asset of the manifest and the API;
 * a user registers and logs in; after a restart (no new admin) both still log in;
 * `--reset-admin-password` prints a new admin password that works, and the old one no longer does;
 * the admin takes a backup (POST /api/admin/backups), a user registers after it, and
 * `--restore FILE` (server stopped) brings the data back to the backup: that user is gone, the
 * first one still logs in, and the folder that was there is kept aside.
 *
 * Usage: bun scripts/check-binary.ts [path/to/binary]   (exit 1 on any failure)
 */
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { CONFIG_HELP } from "../src/server/config";

const SOURCE = resolve(process.argv[2] ?? join(import.meta.dir, "../dist/matrix-usdt"));
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;
/** How long the output stays quiet once the server listens before its start-up lines count as all printed. */
const QUIET_MS = 1_000;

const dir = mkdtempSync(join(tmpdir(), "matrix-binary-"));
const binary = join(dir, "matrix-usdt");
let running: Bun.Subprocess | undefined;

function check(ok: unknown, what: string): asserts ok {
  if (!ok) throw new Error(what);
  console.log(`  ok  ${what}`);
}

function freePort(): number {
  const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

/** Starts the binary in `dir`; resolves once it logs "Listening on", with its output so far. */
async function start(port: number): Promise<{ output: () => string; ms: number }> {
  const started = performance.now();
  const proc = Bun.spawn([binary], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", PORT: String(port) },
    stdout: "pipe",
    stderr: "pipe",
  });
  running = proc;
  let text = "";
  let lastChunkAt = Date.now();
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      text += decoder.decode(chunk, { stream: true });
      lastChunkAt = Date.now();
    }
  };
  void drain(proc.stdout);
  void drain(proc.stderr);
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!/Listening on /.test(text)) {
    if (proc.exitCode !== null || Date.now() > deadline) {
      throw new Error(`the binary did not start (exit ${proc.exitCode}):\n${text}`);
    }
    await Bun.sleep(25);
  }
  const ms = performance.now() - started;
  // The lines printed after "Listening on" (the chains, the first admin's box) may come in later
  // chunks: the start-up output is whole once it has been quiet for a moment.
  while (Date.now() - lastChunkAt < QUIET_MS && Date.now() < deadline) await Bun.sleep(25);
  return { output: () => text, ms };
}

async function stop() {
  const proc = running!;
  proc.kill("SIGTERM");
  const code = await Promise.race([proc.exited, Bun.sleep(STOP_TIMEOUT_MS).then(() => "timeout" as const)]);
  if (code === "timeout") proc.kill("SIGKILL");
  running = undefined;
  check(code === 0, `stops on SIGTERM with exit 0 (got ${code})`);
}

async function main() {
  check(existsSync(SOURCE), `binary exists: ${SOURCE}`);
  copyFileSync(SOURCE, binary);
  chmodSync(binary, 0o755);
  console.log(`  ..  running it in ${dir}`);

  const help = Bun.spawnSync([binary, "--help"], { cwd: dir, env: { PATH: process.env.PATH ?? "" } });
  const helpText = help.stdout.toString();
  check(help.exitCode === 0 && CONFIG_HELP.every(([name]) => helpText.includes(name)), "--help lists every variable");
  check(!existsSync(join(dir, "data")), "--help leaves no data folder");

  const port = freePort();
  const base = `http://127.0.0.1:${port}`;
  const get = (path: string, headers: Record<string, string> = {}) => fetch(base + path, { headers });
  const post = (path: string, body: unknown) =>
    fetch(base + path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const login = async (email: string, password: string) => {
    const res = await post("/api/auth/login", { email, password });
    const body = (await res.json().catch(() => ({}))) as { token?: string };
    return res.status === 200 && body.token ? body.token : null;
  };

  // First start: empty folder.
  const first = await start(port);
  console.log(`  ..  first start: listening after ${Math.round(first.ms)} ms`);
  check(existsSync(join(dir, "data")), "creates ./data");
  const adminPassword = /FIRST START[\s\S]*?email: +admin@localhost[\s\S]*?password: +(\S+)/.exec(first.output())?.[1];
  check(adminPassword, "prints the first admin's password, boxed");

  for (const path of ["/", "/login", "/userDashboard/package", "/favicon.svg"]) {
    const res = await get(path);
    check(res.status === 200, `GET ${path} -> 200 (got ${res.status})`);
  }
  const manifest = (await (await get("/build/manifest.json")).json()) as { css: string[]; pageCss: { landing: string }; app: { entry: string } };
  const shell = await (await get("/userDashboard/package")).text();
  check(shell.includes(manifest.app.entry) && shell.includes(manifest.css[0]!), "the dashboard page names the manifest's entry and CSS");
  // The landing's own stylesheet is read from the binary and inlined: nothing linked.
  const landingCss = await (await get(manifest.pageCss.landing)).text();
  const landing = await (await get("/")).text();
  check(landingCss.length > 1000 && landing.includes(`<style>${landingCss}</style>`) && !landing.includes('rel="stylesheet"'), "the landing carries its own stylesheet inline");
  for (const asset of [manifest.app.entry, manifest.css[0]!]) {
    const res = await get(asset, { "Accept-Encoding": "gzip" });
    const body = await res.arrayBuffer();
    check(res.status === 200 && body.byteLength > 0, `GET ${asset} -> 200, ${body.byteLength} bytes (got ${res.status})`);
  }
  const levels = await get("/api/programs/3p/levels");
  const levelList = await levels.json();
  check(levels.status === 200 && Array.isArray(levelList) && levelList.length > 0, "GET /api/programs/3p/levels -> 200, levels");

  const { referralId } = (await (await get("/api/auth/admin-referral-id")).json()) as { referralId: string };
  check(referralId, "GET /api/auth/admin-referral-id");
  const user = { name: "Binary Check", email: "binary-check@example.com", password: "binary-check-pw", referralId };
  const registered = await post("/api/auth/register", user);
  check(registered.status === 201, `POST /api/auth/register -> 201 (got ${registered.status})`);
  const token = await login(user.email, user.password);
  check(token, "the new user logs in");
  const me = (await (await get("/api/auth", { "x-auth-token": token })).json()) as { email?: string };
  check(me.email === user.email, "GET /api/auth answers the new user");
  await stop();

  // Restart on the same folder: the data is still there, the admin is not created again.
  const second = await start(port);
  console.log(`  ..  restart: listening after ${Math.round(second.ms)} ms`);
  check(!second.output().includes("FIRST START"), "no new admin on restart");
  check(await login(user.email, user.password), "after the restart the user still logs in");
  check(await login("admin@localhost", adminPassword), "after the restart the admin logs in with the printed password");
  await stop();

  // The admin password reset of the binary, with the server stopped.
  const reset = Bun.spawnSync([binary, "--reset-admin-password"], { cwd: dir, env: { PATH: process.env.PATH ?? "" } });
  const newPassword = /password: +(\S+)/.exec(reset.stdout.toString())?.[1];
  check(reset.exitCode === 0 && newPassword && newPassword !== adminPassword, "--reset-admin-password prints a new admin password");
  await start(port);
  const adminToken = await login("admin@localhost", newPassword);
  check(adminToken, "the admin logs in with the new password");
  check(!(await login("admin@localhost", adminPassword)), "the old admin password no longer works");

  // A backup through the API, then a change after it, then --restore with the server stopped.
  const backup = await fetch(`${base}/api/admin/backups`, { method: "POST", headers: { "x-auth-token": adminToken } });
  const { file } = (await backup.json()) as { file: string };
  check(backup.status === 201 && existsSync(join(dir, "backups", file)), `POST /api/admin/backups -> 201, backups/${file}`);
  const late = { ...user, name: "After Backup", email: "after-backup@example.com" };
  check((await post("/api/auth/register", late)).status === 201, "a user registers after the backup");
  await stop();
  const restore = Bun.spawnSync([binary, "--restore", join("backups", file)], { cwd: dir, env: { PATH: process.env.PATH ?? "" } });
  check(restore.exitCode === 0 && restore.stdout.toString().includes("the ledger invariants hold"), `--restore backups/${file} -> exit 0 (${restore.exitCode}: ${restore.stderr.toString().trim()})`);
  check(readdirSync(dir).some((name) => name.startsWith("data.before-restore-")), "the data folder that was there is kept aside");
  await start(port);
  check(await login(user.email, user.password), "after the restore the user of before the backup logs in");
  check(!(await login(late.email, late.password)), "the user registered after the backup is gone");
  await stop();
}

try {
  await main();
  console.log("binary check passed");
} catch (error) {
  console.error(`binary check FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  if (running) {
    running.kill("SIGKILL");
    await running.exited;
  }
  rmSync(dir, { recursive: true, force: true });
}
