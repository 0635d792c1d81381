import { expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { tokenUser } from "../core/sessions";
import { openDatabase, rowsOf } from "./client";
import { migrate } from "./migrate";
import { migrateUpTo } from "../testing/db";

test("migration 0012 moves each session generation from settings onto its user: tokens of the current one still work, older ones still do not", async () => {
  const database = await openDatabase({});
  try {
    await migrateUpTo(database, 'ADD COLUMN "session_generation"');
    const { db } = database;
    for (const id of ["u1", "u2"]) {
      await db.execute(sql`INSERT INTO users (id, name, email, password_hash, referral_id, chain_id) VALUES (${id}, ${id}, ${`${id}@test.local`}, 'x', ${`REF-${id}`}, ${id})`);
    }
    // u1 signed out everywhere once (generation g1); u2 never did. Other settings stay.
    await db.execute(sql`INSERT INTO settings (key, value) VALUES ('session_generation:u1', 'g1'), ('jwt_secret', 'kept')`);
    await migrate(database);

    const users = rowsOf<{ id: string; session_generation: string | null }>(await db.execute(sql`SELECT id, session_generation FROM users ORDER BY id`));
    expect(users).toEqual([
      { id: "u1", session_generation: "g1" },
      { id: "u2", session_generation: null },
    ]);
    const settings = rowsOf<{ key: string }>(await db.execute(sql`SELECT key FROM settings ORDER BY key`));
    expect(settings.map((s) => s.key)).toEqual(["jwt_secret"]);

    const claims = (sub: string, gen?: string) => ({ sub, jti: `jti-${sub}-${gen}`, exp: Date.now() / 1000 + 60, gen });
    expect(await tokenUser(db, claims("u1", "g1"))).toEqual({ id: "u1", role: "user" });
    expect(await tokenUser(db, claims("u1"))).toBeNull(); // made before the sign-out
    expect(await tokenUser(db, claims("u1", "g0"))).toBeNull();
    expect(await tokenUser(db, claims("u2"))).toEqual({ id: "u2", role: "user" });
  } finally {
    await database.close();
  }
});
