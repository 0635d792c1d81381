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
import { pgRelay } from "../../testing/pgRelay";
import { createApp } from "../app";

/**
 * A relay in front of Postgres that counts what a client asks and waits for: each Sync or simple
 * Query it sends is a statement's answer, each Flush a statement described before it can be bound
 * (postgres.js does that for a statement with parameters that is not prepared yet on the
 * connection: a second round trip). `roundTrips` counts the client's writes that ask for an answer
 * while it has every answer it asked for (each ReadyForQuery answers one): the client waited for
 * the server before it. Statements sent together, in one write or in writes sent one after the
 * other without waiting (pipelined), are one round trip.
 */
function waitCounter(target: { host: string; port: number }) {
  const counts = { answers: 0, describes: 0, roundTrips: 0 };
  let outstanding = 0;
  const relay = pgRelay(target, {
    write(types) {
      const asked = types.filter((type) => type === "S" || type === "Q").length;
      counts.describes += types.filter((type) => type === "H").length;
      if (asked > 0 && outstanding === 0) counts.roundTrips++;
      counts.answers += asked;
      outstanding += asked;
    },
    answer: (type) => void (type === "Z" && (outstanding = Math.max(0, outstanding - 1))),
  });
  return { counts, ...relay };
}

// Only postgres.js talks to a server: on PGlite there is no wire to count.
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres bun test src/server/routes/packages.roundtrips.test.ts
describe.skipIf(!onPostgres)("the statements of one purchase through HTTP, on Postgres", () => {
  test("a purchase is the token check, begin, the activation (the key first, the first matrix entered), one per further matrix, the missed earnings when there may be some, the money with the rest and the events announced, the commit; each one round trip once prepared, but begin, which goes with the activation, and the commit, which goes with the money", async () => {
    await withHarness(async (h) => {
      const m = matrixHelpers(h);
      const referrer = await m.member();
      await m.bought(referrer, "3p", 1);
      const buyers: Awaited<ReturnType<typeof m.member>>[] = [];
      for (let i = 0; i < 6; i++) buyers.push(await m.member(referrer));

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
      let swept = 0;
      // One connection, so that what the first purchase prepares is there for the next ones.
      const client = postgres(`postgres://${url.username}@127.0.0.1:${relay.port}/${name}`, {
        max: 1,
        onnotice: () => {},
        debug: (_connection, query) => {
          // The live events' publish after the commit (liveEvents.ts) is not the purchase's: it
          // is not waited for, and one carries the events of every operation committed meanwhile.
          if (query.includes("pg_notify")) return void published++;
          // Nor is the sweep of old keys that one keyed call in a hundred makes after its answer
          // (src/server/transact.ts): a statement of its own, described first, when it comes.
          if (/^delete from "idempotency_keys"/.test(query)) return void swept++;
          statements.push(query);
          if (!seen.has(query)) (seen.add(query), firstSeen++);
        },
      });
      try {
        const app = createApp(testDeps(drizzle(client, { schema }) as unknown as Db));
        const purchase = async (user: { token: string }, key?: string) => {
          statements.length = 0;
          firstSeen = 0;
          published = swept = 0;
          relay.counts.answers = relay.counts.describes = relay.counts.roundTrips = 0;
          const headers: Record<string, string> = { "x-auth-token": user.token, ...(key ? { "Idempotency-Key": key } : {}) };
          const res = await app.request("/api/user/packages/purchase/3p/1", { method: "POST", headers });
          expect(await res.json()).toEqual({ msg: "Level purchased successfully!" });
          // The publish of the previous purchase's events may come in this one's window: its answer is not this purchase's.
          await Bun.sleep(50);
          const others = published + swept;
          return { statements: statements.length, answers: relay.counts.answers - others, roundTrips: relay.counts.roundTrips - others, describes: relay.counts.describes - swept, firstSeen };
        };
        // One of each kind first, so that every statement is prepared on the connection: with a
        // key and without, paid to the referrer (slots 1 and 2) and passed up to system (slot 3,
        // which completes the referrer's cycle). Then the same three again, counted (the last
        // completes the second cycle, which freezes the referrer's level: the same statements).
        await purchase(buyers[0]!, crypto.randomUUID());
        await purchase(buyers[1]!);
        await purchase(buyers[2]!);
        const keyed = await purchase(buyers[3]!, crypto.randomUUID());
        const bare = await purchase(buyers[4]!);
        const passedUp = await purchase(buyers[5]!, crypto.randomUUID());

        // A purchase paid in the referrer's matrix is 5 statements, with its key or without: the
        // token check, begin, the activation (which reserves the key first, and makes the walk's
        // first step), the money (which also reads the events announced), commit. The key is not
        // read before the operation (its reservation finds a used one); the referrer holds the
        // level and no walk passed a frozen user, so there is no missed earning to record. Passed
        // up to system: one step more, 6. Before they were merged: 24 statements and 43 round trips.
        expect([keyed.statements, bare.statements, passedUp.statements]).toEqual([5, 5, 6]);
        for (const counted of [keyed, bare, passedUp]) {
          // One answer waited for per statement, and no describe: every statement is prepared.
          expect(counted.answers).toBe(counted.statements);
          expect([counted.describes, counted.firstSeen]).toEqual([0, 0]);
          // Two statements go with others: the BEGIN with the activation
          // (src/db/pipelinedBegin.ts), the COMMIT with the money (sendWithCommit, src/core/tx.ts).
          expect(counted.roundTrips).toBe(counted.statements - 2);
        }
        // Each purchase told the referrer of the slot taken, live, and the balances changed.
        await Bun.sleep(200);
        const told = heard.filter((e) => e.t === "n" && e.u === referrer.id).map((e) => e.t === "n" && e.kind);
        // (The sixth completed the referrer's second cycle: the level froze.)
        expect(told).toEqual([...Array(6).fill("slot_taken"), "level_frozen"]);
        expect(heard.filter((e) => e.t === "b" && e.u.includes(buyers[4]!.id) && e.u.includes(referrer.id))).toHaveLength(1);
      } finally {
        await client.end({ timeout: 5 });
        await listener.end({ timeout: 5 });
        relay.stop();
      }
      // The six purchases took the referrer's slots 1 to 3 twice: two cycles completed, and the level froze.
      expect((await m.matrix(referrer, "3p", 1)).cycles).toBe(2);
    });
  });
});
