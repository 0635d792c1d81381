import { expect, test } from "bun:test";
import type { Database } from "../db/client";
import { ADMIN, testHasher } from "../testing/db";
import { useDatabase } from "../testing/useHarness";
import { Refusal } from "./errors";
import { login, type PasswordHasher } from "./sessions";

let database: Database;
useDatabase((made) => (database = made));

/** Wraps a hasher and remembers every hash it was asked to verify against. */
function recordingHasher(inner: PasswordHasher) {
  const made: string[] = [];
  const verified: string[] = [];
  const hasher: PasswordHasher = {
    hash: async (password) => {
      const hash = await inner.hash(password);
      made.push(hash);
      return hash;
    },
    verify: (password, hash) => {
      verified.push(hash);
      return inner.verify(password, hash);
    },
  };
  return { hasher, made, verified };
}

test("login checks an unknown email against a hash made with the same costs as real ones, so timing does not tell which emails exist", async () => {
  const { hasher, made, verified } = recordingHasher(testHasher);
  const refusal = await login(database.db, hasher, "nobody@test.local", "whatever").catch((e) => e);
  expect(refusal).toBeInstanceOf(Refusal);
  expect(refusal.msg).toBe("Invalid email or password.");
  expect(verified).toHaveLength(1);
  expect(made).toContain(verified[0]!);

  // A real account is checked against its own hash, made by the same hasher.
  expect(await login(database.db, hasher, ADMIN.email, ADMIN.password)).toMatchObject({ id: expect.any(String) });
  expect(verified[1]).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,/);
  expect(verified[0]).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,/);
});
