import { afterAll, beforeAll, expect, test } from "bun:test";
import { createHarness, type Harness } from "../../testing/harness";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

test("a user registers, is funded, gifts, and the ledger balances", async () => {
  const alice = await h.signUp();
  const bob = await h.signUp({ referralId: alice.myReferralId });
  await h.fund(alice.token, 50);
  const gift = await h.call("POST", "/api/user/gift", { token: alice.token, body: { amount: "12.50", recipientEmail: bob.email } });
  expect(gift.body).toEqual({ msg: "Gift sent successfully!" });
  expect((await h.me(alice.token)).balance).toBe(37.5);
  const bobMe = await h.me(bob.token);
  expect(bobMe.balance).toBe(12.5);
  expect(bobMe.referredBy).toBe(alice.myReferralId);
  expect((await h.me(alice.token)).totalPartners).toBe(1);
  await h.checkLedger();
});
