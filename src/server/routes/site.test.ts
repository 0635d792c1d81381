import { describe, expect, test } from "bun:test";
import { DEMO_WALLET_ADDRESS } from "../config";
import type { Harness } from "../../testing/harness";
import { useMoneyHarness } from "../../testing/useHarness";
import { withHarness } from "../../testing/harness";
import { NEWSLETTER_PER_HOUR } from "../../shared/constants";

let h: Harness;
useMoneyHarness((made) => (h = made), { config: { depositWalletAddress: "TOperatorWallet123" } });

describe("GET /api/config", () => {
  test("GET /api/config answers the configured deposit wallet address to anyone", async () => {
    expect(await h.call("GET", "/api/config")).toMatchObject({ status: 200, body: { depositWalletAddress: "TOperatorWallet123" } });
    expect(DEMO_WALLET_ADDRESS).not.toBe("TOperatorWallet123");
  });
});

describe("POST /api/newsletter", () => {
  test("POST /api/newsletter stores an address once, whatever its case", async () => {
    const first = await h.call("POST", "/api/newsletter", { body: { email: "Reader@Example.com" } });
    expect(first).toMatchObject({ status: 201, body: { msg: "Thank you for subscribing!" } });
    const again = await h.call("POST", "/api/newsletter", { body: { email: " reader@example.COM " } });
    expect(again).toMatchObject({ status: 201, body: { msg: "You are already subscribed." } });
  });

  test("NEWSLETTER_PER_HOUR addresses an hour from one source, new or not; then 429 with Retry-After, and nothing stored; other sources go on", async () => {
    await withHarness(
      async (own) => {
        const send = (email: string, from: string) => own.call("POST", "/api/newsletter", { body: { email }, headers: { "x-forwarded-for": from } });
        for (let i = 0; i < NEWSLETTER_PER_HOUR - 1; i++) expect((await send(`reader-${i}@example.com`, "203.0.113.50")).status).toBe(201);
        // Asking about an address already on the list counts too: nobody learns the list faster.
        expect(await send("reader-0@example.com", "203.0.113.50")).toMatchObject({ status: 201, body: { msg: "You are already subscribed." } });
        const refused = await send("someone-else@example.com", "203.0.113.50");
        expect(refused).toMatchObject({ status: 429, body: { code: "throttled", msg: "Too many subscriptions from your address. Please try again in 60 minutes." } });
        expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3500);
        expect(await send("someone-else@example.com", "198.51.100.50")).toMatchObject({ status: 201, body: { msg: "Thank you for subscribing!" } });
      },
      { config: { trustProxy: 1 } },
    );
  });

  test("POST /api/newsletter refuses an invalid or missing address", async () => {
    expect(await h.call("POST", "/api/newsletter", { body: { email: "reader@" } })).toMatchObject({
      status: 400,
      body: { msg: "Please enter a valid email address." },
    });
    expect(await h.call("POST", "/api/newsletter", { body: {} })).toMatchObject({ status: 400, body: { msg: "Email is required." } });
  });
});
