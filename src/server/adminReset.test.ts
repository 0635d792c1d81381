import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Secret, TOTP } from "otpauth";
import postgres from "postgres";
import { argon2Hasher, login, resetAdminPassword } from "../core/sessions";
import { openDatabase } from "../db/client";
import { ADMIN, TEST_DATABASE_URL, testHasher } from "../testing/db";
import { type Harness } from "../testing/harness";
import { useMoneyHarness } from "../testing/useHarness";
import { firstAdminBanner } from "./banner";

/**
 * Resetting the admin's password from the server's machine (`bun run admin:reset-password`,
 * the binary's `--reset-admin-password`), and the first start's boxed password.
 */

const ROOT = join(import.meta.dir, "../..");

let h: Harness;
useMoneyHarness((made) => (h = made));

describe("resetAdminPassword", () => {
  test("sets a new random password, revokes every token of the admin, and the old password stops working", async () => {
    const before = await h.login(ADMIN.email, ADMIN.password);
    const member = await h.signUp();
    const reset = await resetAdminPassword(h.db, testHasher);
    expect(reset).toMatchObject({ email: ADMIN.email, generated: true, twoFactorOff: false });
    expect(reset.password).toMatch(/^[A-Za-z0-9_-]{16}$/);
    for (const token of [before, h.adminToken]) expect(await h.call("GET", "/api/auth", { token })).toMatchObject({ status: 401, body: { code: "bad_token" } });
    expect((await h.call("POST", "/api/auth/login", { body: ADMIN })).status).toBe(400);
    const after = await h.login(ADMIN.email, reset.password);
    expect((await h.me(after)).role).toBe("admin");
    // Members are not signed out.
    expect((await h.call("GET", "/api/auth", { token: member.token })).status).toBe(200);
    // Put back for the other tests.
    expect(await resetAdminPassword(h.db, testHasher, { password: ADMIN.password })).toMatchObject({ generated: false, password: ADMIN.password });
    expect((await h.call("GET", "/api/auth", { token: after })).status).toBe(401);
    h.adminToken = await h.login(ADMIN.email, ADMIN.password);
  });

  test("with several admins, ADMIN_EMAIL picks which; without it, the first admin, the tree's root; an email of no admin is refused, naming the admins", async () => {
    const second = await h.signUp({ password: "second-admin-password" });
    await h.promote(second.id);
    const picked = await resetAdminPassword(h.db, testHasher, { email: second.email.toUpperCase() });
    expect(picked.email).toBe(second.email);
    expect((await h.call("GET", "/api/auth", { token: second.token })).status).toBe(401);
    expect((await h.call("GET", "/api/auth", { token: h.adminToken })).status).toBe(200);
    // An email that names no admin is refused (before: the first admin's password was reset).
    await expect(resetAdminPassword(h.db, testHasher, { email: "nobody@test.local", password: "typo-password" })).rejects.toThrow(
      `No admin has the email nobody@test.local (ADMIN_EMAIL). The admins: ${ADMIN.email}, ${second.email}.`,
    );
    // A member's email names no admin either.
    const member = await h.signUp();
    await expect(resetAdminPassword(h.db, testHasher, { email: member.email, password: "typo-password" })).rejects.toThrow("No admin has the email");
    expect((await h.call("GET", "/api/auth", { token: h.adminToken })).status).toBe(200);
    expect((await resetAdminPassword(h.db, testHasher, { password: ADMIN.password })).email).toBe(ADMIN.email);
    h.adminToken = await h.login(ADMIN.email, ADMIN.password);
  });

  test("a login ticket got with the old password before the reset cannot finish after it, even with a good second factor", async () => {
    const token = await h.login(ADMIN.email, ADMIN.password);
    const currentPassword = ADMIN.password;
    const { secret } = (await h.call("POST", "/api/auth/2fa/setup", { token, body: { currentPassword } })).body;
    const enabled = await h.call("POST", "/api/auth/2fa/enable", { token, body: { code: new TOTP({ secret: Secret.fromBase32(secret) }).generate(), currentPassword } });
    expect(enabled.status).toBe(200);
    const started = await h.call("POST", "/api/auth/login", { body: ADMIN });
    expect(started.body.twoFactorRequired).toBe(true);
    await resetAdminPassword(h.db, testHasher, { password: ADMIN.password });
    const finished = await h.call("POST", "/api/auth/login/2fa", { body: { ticket: started.body.ticket, code: enabled.body.recoveryCodes[0] } });
    expect(finished.status).toBe(400);
    expect(finished.body.token).toBeUndefined();
    // Put back for the other tests: the second factor off, the admin signed in.
    await resetAdminPassword(h.db, testHasher, { password: ADMIN.password, disableTwoFactor: true });
    h.adminToken = await h.login(ADMIN.email, ADMIN.password);
  });

  test("with disableTwoFactor, the admin's second factor goes too (a lost phone)", async () => {
    const token = await h.login(ADMIN.email, ADMIN.password);
    const currentPassword = ADMIN.password;
    const { secret } = (await h.call("POST", "/api/auth/2fa/setup", { token, body: { currentPassword } })).body;
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate();
    expect((await h.call("POST", "/api/auth/2fa/enable", { token, body: { code, currentPassword } })).status).toBe(200);
    expect((await h.call("POST", "/api/auth/login", { body: ADMIN })).body.twoFactorRequired).toBe(true);
    expect(await resetAdminPassword(h.db, testHasher, { password: ADMIN.password, disableTwoFactor: true })).toMatchObject({ twoFactorOff: true });
    h.adminToken = await h.login(ADMIN.email, ADMIN.password);
    expect((await h.call("GET", "/api/auth/2fa", { token: h.adminToken })).body.enabled).toBe(false);
  });
});

/** A database of its own for a server process: a PGlite folder, or a Postgres database when the tests run on Postgres. */
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function freshTarget(): Promise<Record<string, string>> {
  if (TEST_DATABASE_URL) {
    const name = `reset_${process.pid}_${crypto.randomUUID().replaceAll("-", "").slice(0, 10)}`;
    const admin = postgres(TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${name}`);
    cleanups.push(async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    });
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `/${name}`;
    return { DATABASE_URL: url.toString() };
  }
  const dir = mkdtempSync(join(tmpdir(), "matrix-reset-"));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  return { DATA_DIR: dir, DATABASE_URL: "" };
}

/** The environment of a server process on `target`, without the variables of the surrounding shell that would change it. */
function envFor(target: Record<string, string>, extra: Record<string, string> = {}) {
  const env: Record<string, string | undefined> = { ...process.env, ...target, ...extra };
  for (const name of ["JWT_SECRET", "ADMIN_EMAIL", "ADMIN_PASSWORD", "PORT"]) if (!(name in extra)) delete env[name];
  return env;
}

function run(command: string[], env: Record<string, string | undefined>) {
  const done = Bun.spawnSync(command, { cwd: ROOT, env, stdout: "pipe", stderr: "pipe" });
  return { code: done.exitCode, out: done.stdout.toString(), err: done.stderr.toString() };
}

/** Whether `password` opens the admin account of `target`, checked on the database itself. */
async function adminLogsIn(target: Record<string, string>, email: string, password: string): Promise<boolean> {
  const database = await openDatabase({ databaseUrl: target.DATABASE_URL || undefined, dataDir: target.DATA_DIR, max: 1 });
  try {
    return await login(database.db, argon2Hasher(), email, password).then(
      () => true,
      () => false,
    );
  } finally {
    await database.close();
  }
}

const printedPassword = (text: string) => /password: +(\S+)/.exec(text)?.[1];

describe("bun run admin:reset-password", () => {
  test("against a fresh database: creates it, prints a new random password boxed, and that password opens the admin account", async () => {
    const target = await freshTarget();
    const first = run(["bun", "run", "admin:reset-password"], envFor(target));
    expect(first.err).not.toContain("not reset");
    expect(first.code).toBe(0);
    expect(first.out).toContain("╔");
    expect(first.out).toContain("The password of the admin admin@localhost was reset.");
    const password = printedPassword(first.out)!;
    expect(password).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(await adminLogsIn(target, "admin@localhost", password)).toBe(true);

    // With ADMIN_PASSWORD it sets that one, and does not print it.
    const second = run(["bun", "scripts/admin-reset-password.ts"], envFor(target, { ADMIN_PASSWORD: "chosen-admin-password" }));
    expect(second.code).toBe(0);
    expect(second.out).toContain("(the one in ADMIN_PASSWORD)");
    expect(second.out).not.toContain("chosen-admin-password");
    expect(await adminLogsIn(target, "admin@localhost", "chosen-admin-password")).toBe(true);
    expect(await adminLogsIn(target, "admin@localhost", password)).toBe(false);
  }, 120_000);

  test("the server's first start prints the admin's password last, boxed; --reset-admin-password of the same entry resets it without starting", async () => {
    const target = await freshTarget();
    const server = Bun.spawn(["bun", "src/server/index.ts"], { cwd: ROOT, env: envFor(target, { PORT: "0" }), stdout: "pipe", stderr: "pipe" });
    let out = "";
    const decoder = new TextDecoder();
    const reader = (async () => {
      for await (const chunk of server.stdout) out += decoder.decode(chunk, { stream: true });
    })();
    const deadline = Date.now() + 50_000;
    while (!out.includes("╝") && Date.now() < deadline && server.exitCode === null) await Bun.sleep(50);
    server.kill("SIGTERM");
    await server.exited;
    await reader;
    const listening = out.indexOf("Listening on");
    const box = out.indexOf("FIRST START");
    expect(listening).toBeGreaterThanOrEqual(0);
    expect(box).toBeGreaterThan(listening);
    expect(out.trimEnd().endsWith("╝")).toBe(true);
    const password = printedPassword(out)!;
    expect(out).toContain(firstAdminBanner("admin@localhost", password));
    expect(out).toContain("bun run admin:reset-password");

    const reset = run(["bun", "src/server/index.ts", "--reset-admin-password"], envFor(target));
    expect(reset.code).toBe(0);
    expect(reset.out).not.toContain("Listening on");
    const fresh = printedPassword(reset.out)!;
    expect(fresh).not.toBe(password);
    expect(await adminLogsIn(target, "admin@localhost", fresh)).toBe(true);
    expect(await adminLogsIn(target, "admin@localhost", password)).toBe(false);
  }, 120_000);
});
