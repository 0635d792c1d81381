import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { freshDatabase, onPostgres } from "../testing/db";
import { credit, joinUnder, run } from "../testing/domain";
import { genericPlan, readWhole } from "../testing/plans";
import { purchaseLevel, unfreezeLevel } from "./matrix";
import { madeStatements } from "./prepared";
import { tokenUser } from "./sessions";
import { memberForToken } from "./users";

// On Postgres only (PGlite plans nothing of interest here):
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres bun test src/core/plans.test.ts

/** Tables that grow with the members and their activity: never read whole on a busy path. */
const GROWING = [
  "users",
  "user_levels",
  "accounts",
  "team_counts",
  "notification_settings",
  "notifications",
  "revoked_tokens",
  "idempotency_keys",
  "transfers",
  "placements",
  "missed_earnings",
] as const;

/** The statements made once of the busy paths (the purchase's, the unfreeze's, every signed-in request's, GET /api/auth's). */
const BUSY = /^(purchase_|receiver_|ledger_transfer|missed_record|notify_|idempotency_reserve|unfreeze_|live_events_|token_users|current_members)/;

describe.skipIf(!onPostgres)("the statements made once, on the generic plans the server's connections run", () => {
  test("read the tables that grow with the members through their indexes, never whole, with a few hundred members or thousands", async () => {
    const own = await freshDatabase({ max: 2 });
    try {
      const { db } = own;
      // Purchases of every kind, so that every shape of the statements is made (some are made at
      // their first use): paid, passed up through a completed cycle and to system, a missed
      // earning (a referrer without the level), a frozen level unfrozen; and the token check and
      // GET /api/auth's member.
      const member = async (referrer: string | null) => {
        const id = await joinUnder(db, referrer);
        await credit(db, id, 100_000n);
        return id;
      };
      const buy = (id: string, program: "3p" | "6p" = "3p", level = 1) => run(db, (tx) => purchaseLevel(tx, id, program, level));
      const top = await member(null);
      await buy(top);
      await buy(top, "6p");
      const under: string[] = [];
      for (let i = 0; i < 6; i++) {
        under.push(await member(top));
        await buy(under.at(-1)!);
        await buy(under.at(-1)!, "6p");
      }
      // top's 3P level 1 completed two cycles (six slots) and froze.
      await run(db, (tx) => unfreezeLevel(tx, top, "3p", 1));
      const without = await member(top);
      await buy(await member(without));
      await tokenUser(db, { sub: top, jti: crypto.randomUUID(), exp: Math.floor(Date.now() / 1000) + 60 });
      await memberForToken(db, { sub: top, jti: crypto.randomUUID(), exp: Math.floor(Date.now() / 1000) + 60 });

      const statements = madeStatements().filter((statement) => BUSY.test(statement.name));
      // Not a test of nothing: the purchase's statements of every shape were made.
      const names = new Set(statements.map((statement) => statement.name));
      for (const name of ["purchase_activate", "purchase_activate_keyed", "receiver_lock", "receiver_walk", "missed_record", "ledger_transfer_purchase_one", "ledger_transfer_purchase", "token_users", "current_members"]) {
        expect(names).toContain(name);
      }

      // Then members more, with what members have: an account, levels, settings, notifications;
      // and revoked tokens; the statistics saying so, as autovacuum would. Looked at with a young
      // database's few hundred members, and again with thousands: a plan is made from the
      // statistics of the moment, and a join's plan can read a table whole only while it is
      // small enough, a cost that grows with it until the planner turns (the missed earnings'
      // record read every member up to about 4,000).
      let grown = 0;
      const growTo = async (members: number) => {
        const many = sql`generate_series(${grown + 1}::int, ${members}::int) g`;
        await db.execute(sql`INSERT INTO users (id, name, email, password_hash, referral_id, chain_id)
          SELECT 'many' || g, 'Many ' || g, 'many' || g || '@plans.test', 'x', 'MANY' || g, 'many' || g FROM ${many}`);
        await db.execute(sql`INSERT INTO accounts (id, kind) SELECT 'many' || g, 'user' FROM ${many}`);
        await db.execute(sql`INSERT INTO team_counts (user_id, direct) SELECT 'many' || g, 1 FROM ${many}`);
        await db.execute(sql`INSERT INTO user_levels (user_id, program, level, status, chain_id, depth)
          SELECT 'many' || g, p, l, CASE WHEN g % 7 = 0 THEN 'frozen' ELSE 'active' END, 'many' || g, 0
          FROM ${many}, (VALUES ('3p'), ('6p')) p(p), generate_series(1, 3) l`);
        await db.execute(sql`INSERT INTO notification_settings (user_id, muted) SELECT 'many' || g, '{}' FROM ${many}`);
        await db.execute(sql`INSERT INTO notifications (user_id, kind, event_key, text, read_at)
          SELECT 'many' || g, 'slot_taken', 'plans:' || n, 'A slot was taken.', CASE WHEN n % 3 = 0 THEN NULL ELSE now() END
          FROM ${many}, generate_series(1, 4) n`);
        await db.execute(sql`INSERT INTO revoked_tokens (jti, expires_at) SELECT 'jti' || g, now() + interval '1 day' FROM ${many}`);
        await db.execute(sql`ANALYZE`);
        grown = members;
      };
      for (const members of [300, 3_000]) {
        await growTo(members);
        const wholeReads: { name: string; tables: string[] }[] = [];
        for (const { name, text } of statements) {
          const tables = readWhole(await genericPlan(db, text), GROWING);
          if (tables.length > 0) wholeReads.push({ name, tables });
        }
        expect({ members, wholeReads }).toEqual({ members, wholeReads: [] });
      }
    } finally {
      await own.close();
    }
  });
});
