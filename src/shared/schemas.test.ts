import { describe, expect, test } from "bun:test";
import type * as z from "zod/mini";
import {
  adminGiftSchema,
  decisionSchema,
  depositSchema,
  giftSchema,
  levelPriceSchema,
  loginSchema,
  newsletterSchema,
  registerSchema,
  withdrawSchema,
} from "./schemas";
import { MAX_AMOUNT } from "./constants";

/** The first message a schema gives for `input`, or the parsed value. */
function firstMessage(schema: z.ZodMiniType, input: unknown): string | undefined {
  const result = schema.safeParse(input);
  return result.success ? undefined : result.error.issues[0]?.message;
}

/** A TRC20 deposit (no network named): a TRON address, a 64-hex transaction ID. */
const TX = "ab".repeat(32);
const deposit = (amount: unknown) => ({ address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", transactionId: TX, amount });
const withdrawal = (amount: unknown) => ({ accountType: "USDT TRC20", accountNumber: "TAF8dttxK5iPKbvYC626aDBytrWANpLRXp", amount });

describe("amounts", () => {
  test("accept JSON numbers and decimal strings and become cents", () => {
    expect(depositSchema.parse(deposit("12.50")).amount).toBe(1250n);
    expect(depositSchema.parse(deposit(12.5)).amount).toBe(1250n);
    expect(depositSchema.parse(deposit(" 1 ")).amount).toBe(100n);
    expect(giftSchema.parse({ amount: 0.01, recipientEmail: "a@b.co" }).amount).toBe(1n);
    expect(adminGiftSchema.parse({ amount: "250" }).amount).toBe(25000n);
  });

  test("refuse more than 2 decimals with a clear message", () => {
    expect(firstMessage(depositSchema, deposit(12.345))).toBe("Amount must have at most 2 decimal places.");
    expect(firstMessage(depositSchema, deposit("12.345"))).toBe("Amount must have at most 2 decimal places.");
    // Every amount field says it in the same words, a gift's included (one error style).
    expect(firstMessage(giftSchema, { amount: 0.1 + 0.2, recipientEmail: "a@b.co" })).toBe("Amount must have at most 2 decimal places.");
    expect(firstMessage(adminGiftSchema, { amount: "1.005" })).toBe("Amount must have at most 2 decimal places.");
  });

  test("refuse zero and negative amounts", () => {
    expect(firstMessage(depositSchema, deposit(0))).toBe("Please enter a valid positive amount.");
    expect(firstMessage(depositSchema, deposit(-5))).toBe("Please enter a valid positive amount.");
    expect(firstMessage(depositSchema, deposit("-5"))).toBe("Please enter a valid positive amount.");
    expect(firstMessage(withdrawSchema, withdrawal(0))).toBe("Please enter a valid positive withdrawal amount.");
    expect(firstMessage(withdrawSchema, withdrawal("-0.50"))).toBe("Please enter a valid positive withdrawal amount.");
    expect(firstMessage(giftSchema, { amount: "0.00", recipientEmail: "a@b.co" })).toBe("Please enter a valid positive amount.");
    expect(firstMessage(adminGiftSchema, { amount: -1 })).toBe("Please enter a valid positive amount.");
  });

  test("refuse what is not a number, saying so", () => {
    for (const bad of ["abc", "Infinity", "NaN", "1e3", "0x10", "12,50", true, [], {}]) {
      expect(firstMessage(depositSchema, deposit(bad))).toBe("Amount must be a number.");
    }
  });

  test("refuse amounts too large for the ledger, saying so", () => {
    expect(firstMessage(depositSchema, deposit(1e15))).toBe("Amount must be at most 1,000,000 USDT.");
    expect(firstMessage(depositSchema, deposit(1e21))).toBe("Amount must be at most 1,000,000 USDT.");
    expect(firstMessage(depositSchema, deposit("99999999999999"))).toBe("Amount must be at most 1,000,000 USDT.");
  });

  test("are at most 1,000,000.00 in every amount field (MAX_AMOUNT)", () => {
    const TOO_MUCH = "Amount must be at most 1,000,000 USDT.";
    expect(depositSchema.parse(deposit("1000000")).amount).toBe(MAX_AMOUNT);
    expect(depositSchema.parse(deposit(1_000_000)).amount).toBe(MAX_AMOUNT);
    for (const over of ["1000000.01", 1_000_000.01, 2_000_000, "9999999999999.99"]) {
      expect(firstMessage(depositSchema, deposit(over))).toBe(TOO_MUCH);
      // A withdrawal's limit is the balance first: the server tells the 1,000,000 once the balance covers it.
      expect(withdrawSchema.safeParse(withdrawal(over)).success).toBe(true);
      expect(firstMessage(giftSchema, { amount: over, recipientEmail: "a@b.co" })).toBe(TOO_MUCH);
      expect(firstMessage(adminGiftSchema, { amount: over })).toBe(TOO_MUCH);
      expect(firstMessage(levelPriceSchema, { cost: over, unfreezeCost: 1 })).toBe("Cost must be at most 1,000,000 USDT.");
      expect(firstMessage(levelPriceSchema, { cost: 1, unfreezeCost: over })).toBe("Unfreeze cost must be at most 1,000,000 USDT.");
    }
    expect(withdrawSchema.parse(withdrawal("1000000.00")).amount).toBe(MAX_AMOUNT);
    expect(adminGiftSchema.parse({ amount: "1000000" }).amount).toBe(MAX_AMOUNT);
    expect(levelPriceSchema.parse({ cost: 1_000_000, unfreezeCost: 1_000_000 })).toEqual({ cost: MAX_AMOUNT, unfreezeCost: MAX_AMOUNT });
  });

  test("are required", () => {
    expect(firstMessage(depositSchema, { address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", transactionId: TX })).toBe("Amount is required.");
    expect(firstMessage(depositSchema, deposit(null))).toBe("Amount is required.");
    expect(firstMessage(depositSchema, deposit(""))).toBe("Amount is required.");
    expect(firstMessage(giftSchema, { recipientEmail: "a@b.co" })).toBe("Amount is required.");
    expect(firstMessage(withdrawSchema, { accountType: "USDT TRC20", accountNumber: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" })).toBe("Amount is required.");
  });

  test("a withdrawal too large to write exactly hears the spec's sentence for one above the available balance", () => {
    for (const over of [1e15, "99999999999999999999"]) {
      expect(firstMessage(withdrawSchema, withdrawal(over))).toBe("Withdrawal amount cannot exceed your available balance.");
    }
  });

  test("enforce the deposit and withdrawal minimum of 1 USDT and the gift minimum of 0.01", () => {
    expect(firstMessage(depositSchema, deposit(0.99))).toBe("The minimum deposit is 1 USDT.");
    expect(firstMessage(withdrawSchema, withdrawal("0.99"))).toBe("The minimum withdrawal is 1 USDT.");
    expect(withdrawSchema.parse(withdrawal(1)).amount).toBe(100n);
    expect(giftSchema.parse({ amount: "0.01", recipientEmail: "a@b.co" }).amount).toBe(1n);
  });

  test("level prices may be zero but not negative", () => {
    expect(levelPriceSchema.parse({ cost: 0, unfreezeCost: "0" })).toEqual({ cost: 0n, unfreezeCost: 0n });
    expect(levelPriceSchema.parse({ cost: "12.34", unfreezeCost: 6.17 })).toEqual({ cost: 1234n, unfreezeCost: 617n });
    expect(firstMessage(levelPriceSchema, { cost: -1, unfreezeCost: 0 })).toBe("Cost must be 0 or more.");
    expect(firstMessage(levelPriceSchema, { cost: 1, unfreezeCost: "-0.01" })).toBe("Unfreeze cost must be 0 or more.");
    expect(firstMessage(levelPriceSchema, { cost: 1 })).toBe("Unfreeze cost is required.");
    expect(firstMessage(levelPriceSchema, { cost: 1.001, unfreezeCost: 0 })).toBe("Cost must have at most 2 decimal places.");
  });
});

describe("register", () => {
  const valid = { name: "Ann", email: "ann@example.com", password: "secret", referralId: "ABCDEFGH" };

  test("accepts a complete payload, trimming text", () => {
    expect(registerSchema.parse({ ...valid, name: "  Ann  ", email: " ann@example.com ", referralId: " abcdefgh " })).toEqual({
      name: "Ann",
      email: "ann@example.com",
      password: "secret",
      referralId: "abcdefgh",
    });
  });

  test("needs every field, a valid email and a password of 6 characters", () => {
    expect(firstMessage(registerSchema, { ...valid, name: "   " })).toBe("Name is required.");
    expect(firstMessage(registerSchema, { ...valid, email: "not-an-email" })).toBe("Please enter a valid email address.");
    expect(firstMessage(registerSchema, { ...valid, email: undefined })).toBe("Email is required.");
    expect(firstMessage(registerSchema, { ...valid, password: "12345" })).toBe("Password must be at least 6 characters.");
    expect(firstMessage(registerSchema, { ...valid, referralId: "" })).toBe("Referral ID is required.");
    expect(firstMessage(registerSchema, { ...valid, referralId: undefined })).toBe("Referral ID is required.");
    expect(firstMessage(registerSchema, { ...valid, name: 42 })).toBe("Name is required.");
  });

  test("removes control, bidi and invisible characters from the name and collapses its spaces", () => {
    const name = (raw: string) => registerSchema.parse({ ...valid, name: raw }).name;
    expect(name("Ann\u0000 \u0007Lee")).toBe("Ann Lee");
    expect(name("\u202EAnn\u202C \u2066Lee\u2069")).toBe("Ann Lee");
    expect(name("A\u200Bn\u200Cn\u200D \u200E\u200FLee\uFEFF\u00AD")).toBe("Ann Lee");
    expect(name("  Ann \t\n\u00A0 \u3000 Lee  ")).toBe("Ann Lee");
    expect(firstMessage(registerSchema, { ...valid, name: "\u200B\u202E\uFEFF \u3164" })).toBe("Name is required.");
  });

  test("refuses names that read as the platform, however written", () => {
    const reserved = "Please choose another name: names that read as System, Admin, Administrator, Platform or Matrix USDT are reserved.";
    for (const name of ["System", "Sys tem", "ADMIN", "S.y.s.t.e.m", "5ystem", "adm1n", "Administrator", "p l a t f o r m", "Matrix USDT", "matrix-usdt", "Admin Team", "\u0410dmin"]) {
      expect([name, firstMessage(registerSchema, { ...valid, name })]).toEqual([name, reserved]);
    }
    for (const name of ["Badminton", "Ecosystem", "Ada Lovelace", "Matrix", "Zoë O'Neil"]) expect(registerSchema.parse({ ...valid, name }).name).toBe(name);
  });
});

describe("other payloads", () => {
  test("emails follow the browser's type=email rule: a host without a dot is fine, spaces are not", () => {
    expect(loginSchema.parse({ email: "admin@localhost", password: "x" }).email).toBe("admin@localhost");
    expect(registerSchema.parse({ name: "A", email: "ann@localhost", password: "secret", referralId: "X" }).email).toBe("ann@localhost");
    for (const bad of ["not-an-email", "a b@example.com", "a@", "@example.com", "a@-example.com"]) {
      expect(firstMessage(newsletterSchema, { email: bad })).toBe("Please enter a valid email address.");
    }
  });

  test("a gift names its recipient by email or by a search result's id, one of the two", () => {
    expect(giftSchema.parse({ amount: 1, recipientEmail: " a@b.co " })).toEqual({ amount: 100n, recipientEmail: "a@b.co" });
    expect(giftSchema.parse({ amount: 1, recipientId: " u-42 " })).toEqual({ amount: 100n, recipientId: "u-42" });
    expect(firstMessage(giftSchema, { amount: 1 })).toBe("Email is required.");
    expect(firstMessage(giftSchema, { amount: 1, recipientEmail: "a@b.co", recipientId: "u-42" })).toBe("Name the recipient by recipientEmail or by recipientId, not both.");
    // An id no user can have is refused as an unknown recipient (its own code, recipient_not_found).
    for (const recipientId of ["", "x".repeat(65), "a\u0000b"]) expect(firstMessage(giftSchema, { amount: 1, recipientId })).toBe("Recipient not found.");
  });

  test("login needs an email and a password", () => {
    expect(loginSchema.parse({ email: "a@b.co", password: "x" })).toEqual({ email: "a@b.co", password: "x" });
    expect(firstMessage(loginSchema, { email: "a@b.co" })).toBe("Password is required.");
    expect(firstMessage(loginSchema, { password: "x" })).toBe("Email is required.");
  });

  test("a withdrawal names one of the two USDT networks and a wallet address of that network", () => {
    const bep20 = { ...withdrawal(5), accountType: "USDT BEP20", accountNumber: " 0x52908400098527886E0F7030069857D2E4169EE7 " };
    expect(withdrawSchema.parse(bep20)).toMatchObject({ accountType: "USDT BEP20", accountNumber: "0x52908400098527886E0F7030069857D2E4169EE7" });
    // The other network's address, or no address of either, is refused with the reason.
    expect(firstMessage(withdrawSchema, { ...withdrawal(5), accountType: "USDT BEP20" })).toMatch(/^A BEP20 \(BNB Smart Chain\) address starts with 0x/);
    expect(firstMessage(withdrawSchema, { ...bep20, accountType: "USDT TRC20" })).toMatch(/^A TRC20 \(TRON\) address starts with T/);
    expect(firstMessage(withdrawSchema, { ...withdrawal(5), accountNumber: "TWallet" })).toBe("A TRC20 (TRON) address is T followed by 33 letters and digits (base58).");
    expect(firstMessage(withdrawSchema, { ...bep20, accountNumber: "0xabc" })).toBe("A BEP20 (BNB Smart Chain) address is 0x followed by 40 characters 0-9 and a-f.");
    expect(firstMessage(withdrawSchema, { ...withdrawal(5), accountType: "BTC" })).toBe("Please choose USDT TRC20 or USDT BEP20.");
    // Paying out on a network the user did not choose loses the money: no silent default.
    expect(firstMessage(withdrawSchema, { accountNumber: "0x52908400098527886E0F7030069857D2E4169EE7", amount: 5 })).toBe("Please choose USDT TRC20 or USDT BEP20.");
    expect(firstMessage(withdrawSchema, { ...withdrawal(5), accountNumber: " " })).toBe("Wallet address is required.");
  });

  test("a deposit needs the sender's address and the transaction ID", () => {
    expect(firstMessage(depositSchema, { ...deposit(5), address: "" })).toBe("Wallet address is required.");
    expect(firstMessage(depositSchema, { ...deposit(5), transactionId: undefined })).toBe("Transaction ID is required.");
    expect(firstMessage(depositSchema, { ...deposit(5), transactionId: "x".repeat(201) })).toBe("Transaction ID must be at most 200 characters.");
  });

  test("a decision is accepted or declined, nothing else", () => {
    expect(decisionSchema.parse({ status: "accepted" })).toEqual({ status: "accepted" });
    expect(firstMessage(decisionSchema, { status: "pending" })).toBe("Status must be accepted or declined.");
    expect(firstMessage(decisionSchema, {})).toBe("Status must be accepted or declined.");
  });

  test("the newsletter takes one valid email", () => {
    expect(newsletterSchema.parse({ email: " a@b.co " })).toEqual({ email: "a@b.co" });
    expect(firstMessage(newsletterSchema, { email: "a@" })).toBe("Please enter a valid email address.");
  });
});

describe("deposits on a network", () => {
  test("no network is TRC20; the answer carries the ID as the network writes it and its canonical form", () => {
    expect(depositSchema.parse(deposit(5))).toEqual({ network: "TRC20", address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", transactionId: TX, txHash: TX, amount: 500n });
    expect(depositSchema.parse({ network: "BEP20", address: "0x52908400098527886E0F7030069857D2E4169EE7", transactionId: `0X${TX.toUpperCase()}`, amount: 5 })).toEqual({
      network: "BEP20",
      address: "0x52908400098527886E0F7030069857D2E4169EE7",
      transactionId: `0x${TX}`,
      txHash: TX,
      amount: 500n,
    });
  });

  test("an unknown network, the other network's spelling, or a look-alike is refused with the reason", () => {
    expect(firstMessage(depositSchema, { ...deposit(5), network: "ERC20" })).toBe("Network must be TRC20 or BEP20.");
    expect(firstMessage(depositSchema, { ...deposit(5), transactionId: `0x${TX}` })).toMatch(/without 0x/);
    expect(firstMessage(depositSchema, { ...deposit(5), network: "BEP20", address: "0x52908400098527886E0F7030069857D2E4169EE7" })).toMatch(/starts with 0x/);
    expect(firstMessage(depositSchema, { ...deposit(5), network: "BEP20" })).toMatch(/BEP20 \(BNB Smart Chain\) address starts with 0x/);
    expect(firstMessage(depositSchema, { ...deposit(5), transactionId: `${TX}\u200b` })).toMatch(/invisible character/);
    expect(firstMessage(depositSchema, { ...deposit(5), address: "TWallet" })).toMatch(/T followed by 33/);
  });

  test("a decision's payout transaction ID is optional text without look-alike characters; its network is checked on the server", () => {
    expect(decisionSchema.parse({ status: "accepted", transactionId: ` ${TX} ` })).toEqual({ status: "accepted", transactionId: TX });
    expect(decisionSchema.parse({ status: "accepted", transactionId: "" })).toEqual({ status: "accepted", transactionId: "" });
    expect(firstMessage(decisionSchema, { status: "accepted", transactionId: `${TX}\u200b` })).toMatch(/invisible character/);
    expect(firstMessage(decisionSchema, { status: "accepted", transactionId: 42 })).toBe("Payout transaction ID must be text.");
  });
});
