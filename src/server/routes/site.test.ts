import { describe, expect, test } from "bun:test";
import { DEMO_WALLET_ADDRESS } from "../config";
import type { Harness } from "../../testing/harness";
import { useMoneyHarness } from "../../testing/useHarness";

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

  test("POST /api/newsletter refuses an invalid or missing address", async () => {
    expect(await h.call("POST", "/api/newsletter", { body: { email: "reader@" } })).toMatchObject({
      status: 400,
      body: { msg: "Please enter a valid email address." },
    });
    expect(await h.call("POST", "/api/newsletter", { body: {} })).toMatchObject({ status: 400, body: { msg: "Email is required." } });
  });
});
