import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { withHarness, type Harness } from "../../testing/harness";
import { useMoneyHarness } from "../../testing/useHarness";

// GET /api/referrers/:referralId, for the register page's "Joining under Alice Smith (REF123)":
// anyone may ask, the name alone is answered, and unknown IDs are limited per source address.
let h: Harness;
useMoneyHarness((made) => (h = made));

const lookUp = (own: Harness, referralId: string, from?: string) =>
  own.call("GET", `/api/referrers/${encodeURIComponent(referralId)}`, { headers: from ? { "x-forwarded-for": from } : {} });

describe("GET /api/referrers/:referralId", () => {
  test("answers the name of the member whose referral ID it is, and nothing else, to anyone, in any case of the ID", async () => {
    const alice = await h.signUp({ name: "Alice Smith" });
    const { myReferralId } = await h.me(alice.token);
    for (const typed of [myReferralId, myReferralId.toLowerCase(), ` ${myReferralId} `]) {
      const res = await lookUp(h, typed);
      expect({ typed, status: res.status, body: res.body }).toEqual({ typed, status: 200, body: { name: "Alice Smith" } });
    }
    expect((await lookUp(h, h.adminReferralId)).status).toBe(200);
  });

  test("an unknown or deleted member's ID, or one no member can have, is refused as registering with it would be", async () => {
    const gone = await h.signUp({ name: "Gone Member" });
    const { myReferralId } = await h.me(gone.token);
    expect((await h.call("DELETE", `/api/admin/users/${gone.id}`, { token: h.adminToken })).status).toBe(200);
    const refused = { status: 400, body: { msg: "Invalid referral ID.", code: "invalid_referral" } };
    for (const id of ["NOSUCHREF", myReferralId, "X".repeat(65)]) {
      const res = await lookUp(h, id);
      expect({ id, status: res.status, body: res.body }).toEqual({ id, ...refused });
    }
  });

  test("SIGNUP_LIMIT unknown IDs an hour from one address, then every lookup from it waits (429); other addresses go on; known IDs cost nothing", async () => {
    await withHarness(
      async (own) => {
        const member = await own.signUp({ name: "Known Member" });
        const { myReferralId } = await own.me(member.token);
        for (let i = 0; i < 5; i++) expect((await lookUp(own, myReferralId, "203.0.113.40")).status).toBe(200);
        for (let i = 0; i < 3; i++) expect((await lookUp(own, `GUESS${i}`, "203.0.113.40")).status).toBe(400);
        const refused = await lookUp(own, myReferralId, "203.0.113.40");
        expect(refused).toMatchObject({ status: 429, body: { code: "throttled", msg: "Too many unknown referral IDs looked up from your address. Please try again in 60 minutes." } });
        expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(3500);
        expect(await lookUp(own, myReferralId, "203.0.113.41")).toMatchObject({ status: 200, body: { name: "Known Member" } });
        // An hour later the address may look up again.
        await own.db.execute(sql`UPDATE throttle_hits SET created_at = created_at - interval '61 minutes' WHERE bucket = 'referral_lookup'`);
        expect((await lookUp(own, myReferralId, "203.0.113.40")).status).toBe(200);
      },
      { config: { trustProxy: 1, signupLimit: 3 } },
    );
  });
});

describe("refusals of a sign-up name the field they are about", () => {
  const register = (body: Record<string, unknown>) =>
    h.call("POST", "/api/auth/register", { body: { name: "Field Test", email: `field-${crypto.randomUUID().slice(0, 8)}@test.local`, password: "secret-password", ...body } });

  test("an unknown referral ID, or one no member can have, names referralId; an email taken names email", async () => {
    for (const referralId of ["NOSUCHREF", "X".repeat(65)]) {
      const res = await register({ referralId });
      expect({ referralId, body: res.body }).toEqual({ referralId, body: { msg: "Invalid referral ID.", code: "invalid_referral", field: "referralId" } });
    }
    const taken = await h.signUp();
    const res = await register({ referralId: h.adminReferralId, email: taken.email });
    expect(res).toMatchObject({ status: 409, body: { code: "email_taken", field: "email" } });
  });
});
