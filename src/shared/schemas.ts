import { z } from "zod";
import { PASSWORD_MIN_LENGTH, WITHDRAWAL_METHODS } from "./constants";
import { parseDollars } from "./money";

/** Payload schemas shared by the server validators and the client forms. */

const requiredText = (label: string, max = 200) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} must be at most ${max} characters.`);

const email = z
  .string({ error: "Email is required." })
  .trim()
  .min(1, "Email is required.")
  .max(254, "Email must be at most 254 characters.")
  .pipe(z.email("Please enter a valid email address."));

interface AmountRules {
  label?: string;
  /** Smallest accepted amount in cents. */
  min: bigint;
  positiveMessage: string;
  minMessage?: string;
  allowZero?: boolean;
}

/** A dollar amount as a JSON number or decimal string; becomes integer cents. */
export const amount = ({ label = "Amount", min, positiveMessage, minMessage, allowZero }: AmountRules) =>
  z.unknown().transform((value, ctx) => {
    if (value === undefined || value === null || value === "") {
      ctx.addIssue({ code: "custom", message: `${label} is required.` });
      return z.NEVER;
    }
    const asNumber = typeof value === "string" ? Number(value.trim()) : value;
    if (typeof asNumber === "number" && Number.isFinite(asNumber) && (asNumber < 0 || (asNumber === 0 && !allowZero))) {
      ctx.addIssue({ code: "custom", message: positiveMessage });
      return z.NEVER;
    }
    const cents = parseDollars(value);
    if (cents === null) {
      ctx.addIssue({
        code: "custom",
        message:
          typeof asNumber === "number" && Number.isFinite(asNumber)
            ? `${label} must have at most 2 decimal places.`
            : `${label} must be a number.`,
      });
      return z.NEVER;
    }
    if (cents < min) {
      ctx.addIssue({ code: "custom", message: minMessage ?? positiveMessage });
      return z.NEVER;
    }
    return cents;
  });

export const loginSchema = z.object({
  email,
  password: z.string({ error: "Password is required." }).min(1, "Password is required.").max(1024, "Password is too long."),
});

export const registerSchema = z.object({
  name: requiredText("Name", 100),
  email,
  password: z
    .string({ error: "Password is required." })
    .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`)
    .max(1024, "Password is too long."),
  referralId: z.string({ error: "Referral ID is required." }).trim().min(1, "Referral ID is required.").max(64, "Invalid referral ID."),
});

export const depositSchema = z.object({
  address: requiredText("Wallet address", 200),
  transactionId: requiredText("Transaction ID", 200),
  amount: amount({ min: 100n, positiveMessage: "Please enter a valid positive amount.", minMessage: "The minimum deposit is 1 USDT." }),
});

export const withdrawSchema = z.object({
  accountType: z.enum(WITHDRAWAL_METHODS, { error: "Please choose USDT TRC20 or USDT BEP20." }).default("USDT TRC20"),
  accountNumber: requiredText("Wallet address", 200),
  amount: amount({
    min: 100n,
    positiveMessage: "Please enter a valid positive withdrawal amount.",
    minMessage: "The minimum withdrawal is 1 USDT.",
  }),
});

export const giftSchema = z.object({
  amount: amount({ min: 1n, positiveMessage: "Please enter a valid positive amount." }),
  recipientEmail: email,
});

export const adminGiftSchema = z.object({
  amount: amount({ min: 1n, positiveMessage: "Please enter a valid positive amount." }),
});

export const decisionSchema = z.object({
  status: z.enum(["accepted", "declined"], { error: "Status must be accepted or declined." }),
});

export const levelPriceSchema = z.object({
  cost: amount({ label: "Cost", min: 0n, positiveMessage: "Cost must be 0 or more.", allowZero: true }),
  unfreezeCost: amount({ label: "Unfreeze cost", min: 0n, positiveMessage: "Unfreeze cost must be 0 or more.", allowZero: true }),
});

export const newsletterSchema = z.object({ email });

export type LoginInput = z.input<typeof loginSchema>;
export type RegisterInput = z.input<typeof registerSchema>;
