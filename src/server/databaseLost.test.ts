import { expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { DrizzleQueryError } from "drizzle-orm/errors";
import { sign } from "hono/jwt";
import { createApp } from "./app";
import { APPLICATION_NAME, openDatabase, rowsOf } from "../db/client";
import { connectionLostCode, isConnectionLost } from "../db/connectionLost";
import { MSG } from "../shared/messages";
import { onPostgres } from "../testing/db";
import { TEST_JWT_SECRET, testDeps, withHarness } from "../testing/harness";

const failed = (code: string) => new DrizzleQueryError("SELECT 1", [], Object.assign(new Error("failed"), { code }));

test("a lost, refused or read-only connection is told apart from a statement's own failure, under drizzle's wrapping too", () => {
  for (const code of ["CONNECTION_CLOSED", "CONNECTION_DESTROYED", "CONNECT_TIMEOUT", "ECONNRESET", "ECONNREFUSED", "EPIPE", "57P01", "57P03", "08006", "08001", "25006"]) {
    expect(connectionLostCode(failed(code))).toBe(code);
  }
  for (const code of ["23505", "40001", "40P01", "22P02", "55P03", "08", "080000", "P0001"]) expect(isConnectionLost(failed(code))).toBe(false);
  expect(isConnectionLost(new Error("no code"))).toBe(false);
  expect(isConnectionLost(undefined)).toBe(false);
});

test("with no database to reach, requests answer 503 database_unavailable with Retry-After, not 500, and the log says why in one line", async () => {
  // Nothing listens on port 1 of loopback: every connection is refused at once.
  const database = await openDatabase({ databaseUrl: "postgres://postgres@127.0.0.1:1/none", max: 2 });
  const logged: string[] = [];
  const app = createApp(testDeps(database.db, { log: (message) => logged.push(message) }));
  try {
    const login = await app.request("/api/auth/login", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "a@example.com", password: "secret-password" }) });
    expect(login.status).toBe(503);
    expect(login.headers.get("Retry-After")).toBe("3");
    expect(await login.json()).toEqual({ msg: MSG.databaseUnavailable, code: "database_unavailable" });

    // The token check reads on the read lane, which tries again before it gives up.
    const token = await sign({ sub: crypto.randomUUID(), jti: crypto.randomUUID(), iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 600 }, TEST_JWT_SECRET, "HS256");
    const me = await app.request("/api/auth", { headers: { "x-auth-token": token } });
    expect(me.status).toBe(503);
    expect((await me.json()).code).toBe("database_unavailable");
    expect(logged).toEqual(["POST /api/auth/login: database unavailable (ECONNREFUSED)", "GET /api/auth: database unavailable (ECONNREFUSED)"]);
  } finally {
    await database.close();
  }
});

test.skipIf(!onPostgres)("on Postgres, every connection of the server ended from outside: the next reads and money operations go through on new ones", async () => {
  await withHarness(async (h) => {
    const giver = await h.signUp();
    const receiver = await h.signUp();
    await h.fund(giver.token, 50);
    const ended = async () => {
      const rows = rowsOf<{ ended: boolean }>(
        await h.db.execute(sql`SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
          WHERE application_name = ${APPLICATION_NAME} AND datname = current_database() AND pid <> pg_backend_pid()`),
      );
      return rows.length;
    };
    for (let round = 0; round < 3; round++) {
      expect(await ended()).toBeGreaterThan(0);
      const [me, gift] = await Promise.all([
        h.call("GET", "/api/auth", { token: giver.token }),
        h.call("POST", "/api/user/gift", { token: giver.token, body: { recipientEmail: receiver.email, amount: 5 } }),
      ]);
      expect(me.status).toBe(200);
      expect(gift.status).toBe(200);
    }
    expect(await h.account(receiver.id)).toMatchObject({ balance: 1500n });
    await h.checkLedger();
  });
});
