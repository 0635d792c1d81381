import { z } from "zod";
import { PASSWORD_MIN_LENGTH, WITHDRAWAL_METHODS } from "./constants";
import { type AmountProblem, readDollars } from "./money";

/** Payload schemas shared by the server validators and the client forms. */

/** Control characters (NUL above all, which Postgres text cannot hold) have no place in a one-line field. */
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

const requiredText = (label: string, max = 200) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} must be at most ${max} characters.`)
    .refine((text) => !CONTROL_CHARACTERS.test(text), `${label} contains characters that are not allowed.`);

/**
 * The browser's own rule for an input of type email (the forms use one), so the server accepts
 * what the form lets through: a host without a dot, like the first-start admin@localhost, too.
 */
const email = z
  .string({ error: "Email is required." })
  .trim()
  .min(1, "Email is required.")
  .max(254, "Email must be at most 254 characters.")
  .pipe(z.email({ pattern: z.regexes.html5Email, error: "Please enter a valid email address." }));

interface AmountRules {
  label?: string;
  /** Smallest accepted amount in cents. */
  min: bigint;
  positiveMessage: string;
  minMessage?: string;
  allowZero?: boolean;
}

/** A dollar amount as a JSON number or decimal string; becomes integer cents. */
export const amount = ({ label = "Amount", min, positiveMessage, minMessage, allowZero }: AmountRules) => {
  const problems: Record<AmountProblem, string> = {
    missing: `${label} is required.`,
    not_a_number: `${label} must be a number.`,
    negative: positiveMessage,
    too_many_decimals: `${label} must have at most 2 decimal places.`,
    too_large: `${label} is too large.`,
  };
  return z.unknown().transform((value, ctx) => {
    const fail = (message: string) => {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    };
    const read = readDollars(value);
    if ("problem" in read) return fail(problems[read.problem]);
    if (read.cents === 0n && !allowZero) return fail(positiveMessage);
    if (read.cents < min) return fail(minMessage ?? positiveMessage);
    return read.cents;
  });
};

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
  referralId: z
    .string({ error: "Referral ID is required." })
    .trim()
    .min(1, "Referral ID is required.")
    .max(64, "Invalid referral ID.")
    .refine((text) => !CONTROL_CHARACTERS.test(text), "Invalid referral ID."),
});

export const depositSchema = z.object({
  address: requiredText("Wallet address", 200),
  transactionId: requiredText("Transaction ID", 200),
  amount: amount({ min: 100n, positiveMessage: "Please enter a valid positive amount.", minMessage: "The minimum deposit is 1 USDT." }),
});

export const withdrawSchema = z.object({
  // No default: paying out on a network the user did not choose would lose the money.
  accountType: z.enum(WITHDRAWAL_METHODS, { error: "Please choose USDT TRC20 or USDT BEP20." }),
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
