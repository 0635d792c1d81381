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

test("ADMIN_REQUIRE_2FA: 1/true/yes/on turn it on and 0/false/no/off off, in any case; unset or empty is off; anything else stops the start", () => {
  for (const on of ["1", "true", "TRUE", "yes", "Yes", "on", "ON", " on "]) expect(loadConfig({ ADMIN_REQUIRE_2FA: on }).adminRequire2fa).toBe(true);
  for (const off of ["0", "false", "False", "no", "NO", "off", "Off", "", " "]) expect(loadConfig({ ADMIN_REQUIRE_2FA: off }).adminRequire2fa).toBe(false);
  expect(loadConfig({}).adminRequire2fa).toBe(false);
  // Before: "yes" and "on" silently meant off.
  for (const bad of ["y", "enabled", "2", "ture"]) {
    expect(() => loadConfig({ ADMIN_REQUIRE_2FA: bad })).toThrow(`ADMIN_REQUIRE_2FA must be 1, true, yes or on (or 0, false, no, off), got ${bad}`);
  }
});
