import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { ServerProcess } from "../../scripts/chaos/servers";
import { TEST_DATABASE_URL } from "../testing/db";
import { TRON_SENDER } from "../testing/chainIds";
import { api, freePort } from "../testing/serverProcesses";

/*
 * Live events across server processes: two real servers (bun src/server/index.ts) on one
 * Postgres. An event caused through one reaches a member streaming from the other within a
 * second (Postgres LISTEN/NOTIFY), and a stream resumed with Last-Event-ID on either receives
 * what it missed. Postgres only: CI runs it in its Postgres pass.
 */

const skip = !TEST_DATABASE_URL;
const ADMIN = { email: "admin@events.test", password: "admin-events-password" };

let dbName: string;
const servers: ServerProcess[] = [];

/** A stream of `server`'s GET /api/user/events, read event by event (comments skipped). */
async function stream(server: ServerProcess, token: string, lastEventId?: string) {
  const abort = new AbortController();
  const res = await fetch(`${server.url}/api/user/events`, {
    headers: { "x-auth-token": token, ...(lastEventId ? { "Last-Event-ID": lastEventId } : {}) },
    signal: abort.signal,
  });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  async function next(timeoutMs: number): Promise<{ event: string; id?: string; data: any }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const end = buffer.indexOf("\n\n");
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const fields: Record<string, string> = {};
        for (const line of block.split("\n")) if (line && !line.startsWith(":")) fields[line.slice(0, line.indexOf(": "))] = line.slice(line.indexOf(": ") + 2);
        if (fields.event) return { event: fields.event, id: fields.id, data: JSON.parse(fields.data ?? "null") };
        continue;
      }
      const left = deadline - Date.now();
      const chunk = left > 0 ? await Promise.race([reader.read(), Bun.sleep(left).then(() => null)]) : null;
      if (!chunk) throw new Error("no event in time");
      if (chunk.done) throw new Error("stream ended");
      buffer += decoder.decode(chunk.value, { stream: true });
    }
  }
  /** The next event named `name`, others skipped. */
  async function nextOf(name: string, timeoutMs: number) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const e = await next(Math.max(1, deadline - Date.now()));
      if (e.event === name) return e;
    }
  }
  return { next, nextOf, close: () => abort.abort() };
}

describe.skipIf(skip)("live events, two server processes on one Postgres", () => {
  beforeAll(async () => {
    dbName = `events_${process.pid}_${crypto.randomUUID().replaceAll("-", "").slice(0, 10)}`;
    const admin = postgres(TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const url = new URL(TEST_DATABASE_URL!);
    url.pathname = `/${dbName}`;
    const env = {
      DATABASE_URL: url.toString(),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      JWT_SECRET: "events-processes-secret-long-enough-for-hs256",
      SIGNUP_LIMIT: "0",
    };
    for (let i = 0; i < 2; i++) {
      const server = new ServerProcess(await freePort(), env);
      await server.start();
      servers.push(server);
    }
  }, 60_000);

  afterAll(async () => {
    for (const server of servers) await server.stop();
    if (dbName) {
      const admin = postgres(TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
      await admin.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await admin.end();
    }
  });

  test("a gift sent through one process reaches the recipient streaming from the other within 1 s; a resumed stream gets what it missed", async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const adminToken = (await api(a, "POST", "/auth/login", undefined, ADMIN)).body.token as string;
    const referralId = (await api(a, "GET", "/auth/admin-referral-id")).body.referralId;
    const member = async (name: string) => {
      const email = `${name.toLowerCase()}@events.test`;
      expect((await api(a, "POST", "/auth/register", undefined, { name, email, password: "member-password", referralId })).status).toBe(201);
      return { email, token: (await api(b, "POST", "/auth/login", undefined, { email, password: "member-password" })).body.token as string };
    };
    const sender = await member("Sender");
    const recipient = await member("Recipient");
    const me = (await api(a, "GET", "/auth", sender.token)).body;
    expect((await api(a, "POST", `/admin/users/${me._id}/gift`, adminToken, { amount: 50 })).status).toBe(200);

    const live = await stream(b, recipient.token);
    const adminLive = await stream(b, adminToken);
    try {
      const started = Date.now();
      expect((await api(a, "POST", "/user/gift", sender.token, { amount: 2, recipientEmail: recipient.email })).status).toBe(200);
      const note = await live.nextOf("notification", 1000);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(note.data).toMatchObject({ kind: "gift_received", text: "Sender sent you a gift of 2 USDT." });
      // A deposit request through one process: the admin streaming from the other hears it.
      const tx = "ab".repeat(32);
      expect((await api(a, "POST", "/user/deposit", recipient.token, { address: TRON_SENDER, transactionId: tx, amount: 5 })).status).toBe(201);
      expect((await adminLive.nextOf("notification", 1000)).data).toMatchObject({ kind: "pending_request" });
      expect(await adminLive.nextOf("pending", 1000)).toMatchObject({ event: "pending" });

      // Disconnected, the recipient misses two gifts; resumed on the other process, gets them.
      live.close();
      for (const amount of [3, 4]) expect((await api(b, "POST", "/user/gift", sender.token, { amount, recipientEmail: recipient.email })).status).toBe(200);
      const resumed = await stream(a, recipient.token, note.id);
      try {
        expect((await resumed.nextOf("notification", 1000)).data.text).toBe("Sender sent you a gift of 3 USDT.");
        expect((await resumed.nextOf("notification", 1000)).data.text).toBe("Sender sent you a gift of 4 USDT.");
      } finally {
        resumed.close();
      }
    } finally {
      live.close();
      adminLive.close();
    }
  }, 30_000);
});
