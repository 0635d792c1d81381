import { expect, test } from "bun:test";
import { workerCount } from "./cluster";
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

test("whole numbers are read in decimal digits only, and an empty or blank variable is unset", () => {
  // Before: PORT= listened on a random port (Number("") is 0), and 0x10, 1e3 were read as numbers.
  for (const unset of ["", " "]) {
    expect(loadConfig({ PORT: unset }).port).toBe(3000);
    expect(loadConfig({ SIGNUP_LIMIT: unset, LOGIN_CHECKS_PER_SOURCE: unset, TRUST_PROXY: unset })).toMatchObject({ signupLimit: 20, loginChecksPerSource: 2, trustProxy: 0 });
    expect(loadConfig({ TRC20_CONFIRMATIONS: unset, CHAIN_POLL_SECONDS: unset }).chain).toMatchObject({ pollSeconds: 15, networks: { TRC20: { confirmations: 20 } } });
  }
  expect(loadConfig({ PORT: "0" }).port).toBe(0);
  expect(loadConfig({ PORT: " 8080 " }).port).toBe(8080);
  expect(loadConfig({ SIGNUP_LIMIT: "100", TRUST_PROXY: "2", TRC20_CONFIRMATIONS: "30" })).toMatchObject({ signupLimit: 100, trustProxy: 2, chain: { networks: { TRC20: { confirmations: 30 } } } });
  for (const bad of ["0x10", "1e3", "1.0", "+80", "-1", "65536", "８０"]) expect(() => loadConfig({ PORT: bad })).toThrow(`PORT must be a port number (0 to 65535), got ${bad}`);
  for (const bad of ["1e2", "0x14", "20.0", "-0"]) {
    expect(() => loadConfig({ SIGNUP_LIMIT: bad })).toThrow(`SIGNUP_LIMIT must be a whole number of 0 or more, got ${bad}`);
    expect(() => loadConfig({ LOGIN_CHECKS_PER_SOURCE: bad })).toThrow("LOGIN_CHECKS_PER_SOURCE must be a whole number");
    expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow("TRUST_PROXY must be a whole number");
    expect(() => loadConfig({ TRC20_CONFIRMATIONS: bad })).toThrow("TRC20_CONFIRMATIONS must be a whole number");
    expect(() => loadConfig({ CHAIN_POLL_SECONDS: bad })).toThrow("CHAIN_POLL_SECONDS must be a whole number");
    expect(() => workerCount({ WORKERS: bad }, "postgres://x@127.0.0.1/db")).toThrow("WORKERS must be a whole number");
  }
});

test("JWT_SECRET of fewer than 32 characters, an ADMIN_PASSWORD shorter than a member's may be, and an ADMIN_EMAIL no one could sign in with stop the start", () => {
  expect(() => loadConfig({ JWT_SECRET: "x" })).toThrow("JWT_SECRET must be at least 32 characters (it signs every token), got 1");
  expect(loadConfig({ JWT_SECRET: "s".repeat(32) }).jwtSecret).toBe("s".repeat(32));
  expect(() => loadConfig({ ADMIN_PASSWORD: "a" })).toThrow("ADMIN_PASSWORD must be at least 6 characters");
  expect(loadConfig({ ADMIN_PASSWORD: "sixsix" }).adminPassword).toBe("sixsix");
  for (const bad of ["not-an-email", "a@", "@b.co"]) expect(() => loadConfig({ ADMIN_EMAIL: bad })).toThrow(`ADMIN_EMAIL must be an email address, got ${bad}`);
  // The default address, and any a login accepts.
  for (const good of ["admin@localhost", "ops@example.com"]) expect(loadConfig({ ADMIN_EMAIL: good }).adminEmail).toBe(good);
});

test("CORS_ORIGINS: each entry is read as the origin a browser sends (a trailing slash or a path dropped); one that is no http(s) origin stops the start", () => {
  expect(loadConfig({ CORS_ORIGINS: "https://app.example.com/, http://localhost:5173/path" }).corsOrigins).toEqual(["https://app.example.com", "http://localhost:5173"]);
  for (const bad of ["*", "app.example.com", "ftp://files.example.com"]) {
    expect(() => loadConfig({ CORS_ORIGINS: bad })).toThrow(`CORS_ORIGINS must list http(s) origins such as https://app.example.com, got ${bad}`);
  }
});

test("mail: SMTP_URL must be an smtp:// or smtps:// URL with a host (its password never repeated); PUBLIC_URL an http(s) address; MAIL_FROM an address", () => {
  expect(loadConfig({}).mail).toEqual({ smtpUrl: undefined, from: '"Matrix USDT" <no-reply@localhost>', publicUrl: "http://localhost:3000" });
  expect(loadConfig({ PORT: "8080" }).mail.publicUrl).toBe("http://localhost:8080");
  expect(loadConfig({ SMTP_URL: "smtps://me:pw@mail.example.com:465", PUBLIC_URL: "https://matrix.example.com/app/", MAIL_FROM: "Matrix <hello@matrix.example.com>" }).mail).toEqual({
    smtpUrl: "smtps://me:pw@mail.example.com:465",
    from: "Matrix <hello@matrix.example.com>",
    publicUrl: "https://matrix.example.com/app",
  });
  expect(loadConfig({ PUBLIC_URL: "https://matrix.example.com" }).mail.from).toBe('"Matrix USDT" <no-reply@matrix.example.com>');
  expect(() => loadConfig({ SMTP_URL: "mail.example.com:25 with secret" })).toThrow("the value given is not one");
  expect(() => loadConfig({ SMTP_URL: "mail.example.com:25 with secret" })).not.toThrow("secret");
  expect(() => loadConfig({ SMTP_URL: "http://me:secret@mail.example.com" })).toThrow("SMTP_URL must be an smtp:// or smtps:// URL with a host, such as smtp://user:password@mail.example.com:587; the value given is not one");
  expect(() => loadConfig({ SMTP_URL: "smtp://me:secret@" })).toThrow(/SMTP_URL must be .*, got smtp:\/\/me:\*\*\*@$|the value given is not one/);
  for (const bad of ["ftp://example.com", "example.com", "https://x.test/?a=1"]) expect(() => loadConfig({ PUBLIC_URL: bad })).toThrow("PUBLIC_URL must be the site's http:// or https:// address");
  for (const bad of ["nobody", "Name <nobody>", "a@b\nBcc: x@y"]) expect(() => loadConfig({ MAIL_FROM: bad })).toThrow("MAIL_FROM must be an address or Name <address>");
  expect(loadConfig({ VERIFIED_EMAIL_TO_WITHDRAW: "1" }).verifiedEmailToWithdraw).toBe(true);
  expect(loadConfig({}).verifiedEmailToWithdraw).toBe(false);
  expect(() => loadConfig({ VERIFIED_EMAIL_TO_WITHDRAW: "maybe" })).toThrow("VERIFIED_EMAIL_TO_WITHDRAW must be 1");
  for (const name of ["SMTP_URL", "MAIL_FROM", "PUBLIC_URL", "VERIFIED_EMAIL_TO_WITHDRAW"]) expect(CONFIG_HELP.some(([n]) => n === name)).toBe(true);
});
