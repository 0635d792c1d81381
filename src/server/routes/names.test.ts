import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { users } from "../../db/schema";
import type { Harness } from "../../testing/harness";
import { useMoneyHarness } from "../../testing/useHarness";

// A member's name is shown to others: registration removes what cannot be seen and refuses what
// would pass for the platform.
let h: Harness;
useMoneyHarness((made) => (h = made));

const RESERVED = "Please choose another name: names that read as System, Admin, Administrator, Platform or Matrix USDT are reserved.";

const register = (name: string) =>
  h.call("POST", "/api/auth/register", {
    body: { name, email: `n-${crypto.randomUUID().slice(0, 8)}@names.test`, password: "secret-password", referralId: h.adminReferralId },
  });

test("registration removes control, bidi and invisible characters and collapses spaces; the name is stored and shown clean", async () => {
  const email = `clean-${crypto.randomUUID().slice(0, 8)}@names.test`;
  const res = await h.call("POST", "/api/auth/register", {
    body: { name: "\u202EAda\u200B\u00AD  \u2066Love\uFEFFlace\u2069\u0007 \u00A0", email, password: "secret-password", referralId: h.adminReferralId },
  });
  expect(res.status).toBe(201);
  const [row] = await h.db.select({ name: users.name }).from(users).where(eq(users.email, email));
  expect(row?.name).toBe("Ada Lovelace");
  const token = await h.login(email, "secret-password");
  expect((await h.me(token)).name).toBe("Ada Lovelace");
  // Nothing visible left: no name at all.
  expect(await register("\u200B\u202E\u2066\uFEFF \u3164")).toMatchObject({ status: 400, body: { msg: "Name is required.", code: "validation" } });
});

test("names that read as the platform are refused with 400 and a clear message, however they are written", async () => {
  for (const name of ["System", "Sys tem", "ADMIN", "S.y.s.t.e.m", "5ystem", "administrator", "Plat-form", "matrix usdt", "Admin\u200B", "\u0410dmin"]) {
    const res = await register(name);
    expect({ name, status: res.status, body: res.body }).toEqual({ name, status: 400, body: { msg: RESERVED, code: "validation" } });
  }
  expect((await register("Badminton Fan")).status).toBe(201);
});
