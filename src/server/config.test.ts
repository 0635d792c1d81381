import { expect, test } from "bun:test";
import { CONFIG_HELP, loadConfig } from "./config";

test("ADMIN_GIFT_MAX is read in dollars into cents: 10,000 when unset, 0.01 to 1,000,000, anything else stops the start", () => {
  expect(loadConfig({}).adminGiftMax).toBe(1_000_000n);
  expect(loadConfig({ ADMIN_GIFT_MAX: "" }).adminGiftMax).toBe(1_000_000n);
  expect(loadConfig({ ADMIN_GIFT_MAX: "250.5" }).adminGiftMax).toBe(25_050n);
  expect(loadConfig({ ADMIN_GIFT_MAX: "1000000" }).adminGiftMax).toBe(100_000_000n);
  expect(loadConfig({ ADMIN_GIFT_MAX: "0.01" }).adminGiftMax).toBe(1n);
  for (const bad of ["0", "-5", "abc", "1.001", "1000000.01"]) {
    expect(() => loadConfig({ ADMIN_GIFT_MAX: bad })).toThrow("ADMIN_GIFT_MAX must be an amount in USDT from 0.01 to 1000000");
  }
  expect(CONFIG_HELP.find(([name]) => name === "ADMIN_GIFT_MAX")?.[2]).toBe("10000");
});
