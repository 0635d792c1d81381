import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { EVENTS_CHANNEL, type LiveEvent } from "../../core/notifications";
import { rowsOf, type Db } from "../../db/client";
import * as schema from "../../db/schema";
import { onPostgres, TEST_DATABASE_URL } from "../../testing/db";
import { testDeps, withHarness } from "../../testing/harness";
import { matrixHelpers } from "../../testing/matrix";
import { createApp } from "../app";

/**
 * A TCP relay in front of Postgres that counts what a client asks and waits for: each Sync or
 * simple Query it sends is a statement's answer, each Flush a statement described before it can
 * be bound (postgres.js does that for a statement with parameters that is not prepared yet on the
 * connection: a second round trip). `sends` counts the client's writes that ask for an answer:
 * statements sent together (pipelined) are one round trip.
 */
function waitCounter(target: { host: string; port: number }) {
  const counts = { answers: 0, describes: 0, sends: 0 };
  type Side = { buffered: Buffer; started: boolean; upstream?: import("bun").Socket<undefined>; pending: Buffer[] };
  const server = Bun.listen<Side>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      async open(socket) {
        socket.data = { buffered: Buffer.alloc(0), started: false, pending: [] };
        const upstream = await Bun.connect({
          hostname: target.host,
          port: target.port,
          socket: {
            data: (_up, chunk) => void socket.write(chunk),
            close: () => void socket.end(),
            error: () => void socket.end(),
          },
        });
        for (const chunk of socket.data.pending) upstream.write(chunk);
        socket.data.pending = [];
        socket.data.upstream = upstream;
      },
      data(socket, chunk) {
        const side = socket.data;
        side.buffered = Buffer.concat([side.buffered, chunk]);
        const answersBefore = counts.answers;
        for (;;) {
          // The startup message has no type byte; every later message is a type byte and a length.
          const header = side.started ? 1 : 0;
          if (side.buffered.length < header + 4) break;
          const length = side.buffered.readInt32BE(header);
          if (side.buffered.length < header + length) break;
          const type = side.started ? String.fromCharCode(side.buffered[0]!) : "";
          if (type === "S" || type === "Q") counts.answers++;
          if (type === "H") counts.describes++;
          side.buffered = side.buffered.subarray(header + length);
          side.started = true;
        }
        if (counts.answers > answersBefore) counts.sends++;
        if (side.upstream) side.upstream.write(chunk);
        else side.pending.push(Buffer.from(chunk));
      },
      close: (socket) => void socket.data.upstream?.end(),
    },
  });
  return { counts, port: server.port, stop: () => server.stop(true) };
}

// Only postgres.js talks to a server: on PGlite there is no wire to count.
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres bun test src/server/routes/packages.roundtrips.test.ts
describe.skipIf(!onPostgres)("the statements of one purchase through HTTP, on Postgres", () => {
  test("a purchase is the token check, begin, the activation (the key first, the first matrix entered), one per further matrix, the missed earnings when there may be some, the money with the rest, the events announced with the commit; each one round trip once prepared", async () => {
    await withHarness(async (h) => {
      const m = matrixHelpers(h);
      const referrer = await m.member();
      await m.bought(referrer, "3p", 1);
      const buyers = [await m.member(referrer), await m.member(referrer), await m.member(referrer)];

      const [{ name }] = rowsOf<{ name: string }>(await h.db.execute(sql`SELECT current_database() AS name`)) as [{ name: string }];
      const url = new URL(TEST_DATABASE_URL!);
      const relay = waitCounter({ host: url.hostname, port: Number(url.port || 5432) });
      // What the purchases announce at commit (notifications.ts), heard as the server's streams hear it.
      const listener = postgres(`postgres://${url.username}@${url.host}/${name}`, { max: 1, onnotice: () => {} });
      const heard: LiveEvent[] = [];
      await listener.listen(EVENTS_CHANNEL, (payload) => void heard.push(JSON.parse(payload) as LiveEvent));
      const statements: string[] = [];
      const seen = new Set<string>();
      let firstSeen = 0;
      let published = 0;
      // One connection, so that what the first purchase prepares is there for the next ones.
      const client = postgres(`postgres://${url.username}@127.0.0.1:${relay.port}/${name}`, {
        max: 1,
        onnotice: () => {},
        debug: (_connection, query) => {
          // The live events' publish after the commit (liveEvents.ts) is not the purchase's: it
          // is not waited for, and one carries the events of every operation committed meanwhile.
          if (query.includes("pg_notify")) return void published++;
          statements.push(query);
          if (!seen.has(query)) (seen.add(query), firstSeen++);
        },
      });
      try {
        const app = createApp(testDeps(drizzle(client, { schema }) as unknown as Db));
        const purchase = async (user: { token: string }, key?: string) => {
          statements.length = 0;
          firstSeen = 0;
          published = 0;
          relay.counts.answers = relay.counts.describes = relay.counts.sends = 0;
          const headers: Record<string, string> = { "x-auth-token": user.token, ...(key ? { "Idempotency-Key": key } : {}) };
          const res = await app.request("/api/user/packages/purchase/3p/1", { method: "POST", headers });
          expect(await res.json()).toEqual({ msg: "Level purchased successfully!" });
          // The publish of the previous purchase's events may come in this one's window: its answer is not this purchase's.
          await Bun.sleep(50);
          return { statements: statements.length, answers: relay.counts.answers - published, sends: relay.counts.sends - published, describes: relay.counts.describes, firstSeen };
        };
        await purchase(buyers[0]!, crypto.randomUUID());
        const keyed = await purchase(buyers[1]!, crypto.randomUUID());
        const bare = await purchase(buyers[2]!);

        // The keyed one is paid in the referrer's matrix (slot 2): 6 statements (the token
        // check, begin, the activation, which reserves the key first and makes the walk's first
        // step, the money, the events read, commit: the key is not read before the operation,
        // its reservation finds a used one; the referrer holds the level and no walk passed a
        // frozen user, so there is no missed earning to record). The other one completes its
        // cycle (slot 3) and is passed up to system: one step more, and no key: 7. Before they
        // were merged: 24 statements and 43 round trips, and 20 and 37.
        expect(keyed.statements).toBe(6);
        expect(bare.statements).toBe(7);
        for (const counted of [keyed, bare]) {
          // One answer waited for per statement, and a describe only for a statement this
          // connection had not run before (the transfer's statement has one text per direction,
          // debit or credit first, and per payee, a member or system): every statement that runs
          // again is prepared.
          expect(counted.answers).toBe(counted.statements);
          expect(counted.describes).toBeLessThanOrEqual(counted.firstSeen);
          // The read of the live events goes out with the COMMIT, in one write: one round trip
          // for the two (src/core/tx.ts).
          expect(counted.sends).toBe(counted.statements - 1);
        }
        // Each purchase told the referrer of the slot taken, live, and the balances changed.
        await Bun.sleep(200);
        const told = heard.filter((e) => e.t === "n" && e.u === referrer.id).map((e) => e.t === "n" && e.kind);
        expect(told).toEqual(["slot_taken", "slot_taken", "slot_taken"]);
        expect(heard.filter((e) => e.t === "b" && e.u.includes(buyers[1]!.id) && e.u.includes(referrer.id))).toHaveLength(1);
      } finally {
        await client.end({ timeout: 5 });
        await listener.end({ timeout: 5 });
        relay.stop();
      }
      // The three purchases took the referrer's slots 1 to 3: one cycle completed.
      expect((await m.matrix(referrer, "3p", 1)).cycles).toBe(1);
    });
  });
});
