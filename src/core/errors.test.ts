import { expect, test } from "bun:test";
import { DrizzleQueryError } from "drizzle-orm/errors";
import { withoutQueryParams } from "./errors";

test("an error for the log keeps the statement and the database's message, never the statement's parameters", () => {
  const cause = Object.assign(new Error('duplicate key value violates unique constraint "users_email_lower_uq"'), {
    code: "23505",
    severity: "ERROR",
    constraint: "users_email_lower_uq",
    detail: "Key (lower(email))=(ada@example.com) already exists.",
  });
  const logged = withoutQueryParams(new DrizzleQueryError("insert into users (email, password_hash) values ($1, $2)", ["ada@example.com", "$argon2id$secret-hash"], cause));
  const text = `${(logged as Error).message}\n${(logged as Error).stack}`;
  expect(text).toContain("Failed query: insert into users (email, password_hash) values ($1, $2)");
  expect(text).toContain("ERROR 23505");
  expect(text).toContain("constraint: users_email_lower_uq");
  for (const secret of ["ada@example.com", "secret-hash"]) expect(text).not.toContain(secret);
  // Anything else is logged as it is.
  const plain = new Error("the node did not answer");
  expect(withoutQueryParams(plain)).toBe(plain);
  expect(withoutQueryParams("text")).toBe("text");
});
