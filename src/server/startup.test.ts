import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TEST_DATABASE_URL } from "../testing/db";
import { freePort } from "../testing/serverProcesses";

/**
 * A server that cannot start says why on one line, `The server did not start: <reason>`, and ends
 * with code 1: no uncaught exception and its stack trace.
 */

const ROOT = join(import.meta.dir, "../..");
const scratch = mkdtempSync(join(tmpdir(), "matrix-startup-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The server's environment: `extra` over the shell's, without the variables of the shell that would change it. */
function envFor(extra: Record<string, string>) {
  const env: Record<string, string | undefined> = { ...process.env, DATABASE_URL: "", DATA_DIR: join(scratch, crypto.randomUUID()), ...extra };
  for (const name of ["JWT_SECRET", "ADMIN_EMAIL", "ADMIN_PASSWORD", "PORT", "WORKERS", "ADMIN_REQUIRE_2FA", "CORS_ORIGINS", "SMTP_URL", "MAIL_FROM", "PUBLIC_URL", "VERIFIED_EMAIL_TO_WITHDRAW"]) if (!(name in extra)) delete env[name];
  return env;
}

function startServer(extra: Record<string, string>, args: string[] = [], command = ["bun", "src/server/index.ts"]) {
  const done = Bun.spawnSync([...command, ...args], { cwd: ROOT, env: envFor(extra), stdout: "pipe", stderr: "pipe", timeout: 30_000 });
  return { code: done.exitCode, out: done.stdout.toString(), err: done.stderr.toString() };
}

/** Its stderr is one line, `The server did not start: ...` containing `reason`, and it ended with code 1. */
function refused(started: ReturnType<typeof startServer>, reason: string) {
  expect(started.err.trimEnd().split("\n")).toEqual([expect.stringContaining(`The server did not start: ${reason}`)]);
  expect(started.code).toBe(1);
  expect(started.out).not.toContain("Listening on");
}

describe("a start that fails says why on one line and ends with code 1", () => {
  test("bad configuration", () => {
    refused(startServer({ PORT: "abc" }), "PORT must be a port number (0 to 65535), got abc");
    // An SMTP_URL that does not parse: one line, and its text (which may hold the password) not repeated.
    const smtp = startServer({ SMTP_URL: "mail.example.com with hunter2" });
    refused(smtp, "SMTP_URL must be an smtp:// or smtps:// URL with a host");
    expect(smtp.err).not.toContain("hunter2");
  }, 60_000);

  test("a database that refuses the connection, or a DATABASE_URL that is no URL", () => {
    const closed = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    const port = closed.port;
    closed.stop(true);
    refused(startServer({ PORT: "0", DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/postgres`, WORKERS: "1" }), `connect ECONNREFUSED 127.0.0.1:${port}`);
    refused(startServer({ PORT: "0", DATABASE_URL: "not a url", WORKERS: "1" }), "Invalid URL");
  }, 60_000);

  test.skipIf(!TEST_DATABASE_URL)("a database that does not exist, and a role that does not exist (Postgres; the supervisor too)", () => {
    const url = new URL(TEST_DATABASE_URL!);
    url.pathname = "/no_such_db_xyz";
    for (const WORKERS of ["1", "2"]) refused(startServer({ PORT: "0", DATABASE_URL: url.toString(), WORKERS }), 'database "no_such_db_xyz" does not exist');
    const role = new URL(TEST_DATABASE_URL!);
    role.username = "no_such_role_xyz";
    refused(startServer({ PORT: "0", DATABASE_URL: role.toString(), WORKERS: "1" }), 'role "no_such_role_xyz" does not exist');
  }, 60_000);

  test("a port another server holds: refused before the database is touched, so a first start does not create the admin whose password it could not print", async () => {
    const other = Bun.serve({ port: await freePort(), fetch: () => new Response("the other server") });
    try {
      const dataDir = join(scratch, "never-made");
      refused(startServer({ PORT: String(other.port), DATA_DIR: dataDir }), `port ${other.port} is in use`);
      // Before: the database was made and the admin created, then Bun.serve threw.
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      await other.stop(true);
    }
  }, 60_000);
});

describe("command-line flags", () => {
  test("the server refuses a flag it does not know (a misspelt --reset-admin-password started the server), without touching the database", () => {
    const dataDir = join(scratch, "flags-server");
    const started = startServer({ PORT: "0", DATA_DIR: dataDir }, ["--reset-admin-pasword"]);
    expect(started.err.trimEnd().split("\n")).toEqual([expect.stringContaining("Unknown option --reset-admin-pasword")]);
    expect(started.code).toBe(2);
    expect(started.out).toBe("");
    expect(existsSync(dataDir)).toBe(false);
  }, 60_000);

  test("bun run admin:reset-password --help prints its usage; an unknown flag is refused; neither resets anything", () => {
    const dataDir = join(scratch, "flags-reset");
    const script = ["bun", "scripts/admin-reset-password.ts"];
    const help = startServer({ DATA_DIR: dataDir }, ["--help"], script);
    expect(help.code).toBe(0);
    expect(help.out).toContain("Usage: bun run admin:reset-password [--disable-2fa]");
    expect(help.out).not.toContain("was reset");
    const bad = startServer({ DATA_DIR: dataDir }, ["--disable-2fa", "--dry-run"], script);
    expect(bad.err.trimEnd().split("\n")).toEqual([expect.stringContaining("Unknown option --dry-run: the password was not reset")]);
    expect(bad.code).toBe(2);
    expect(bad.out).not.toContain("was reset");
    // Before: both made the database and reset the admin's password.
    expect(existsSync(dataDir)).toBe(false);
  }, 60_000);
});
