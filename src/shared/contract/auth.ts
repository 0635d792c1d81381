import * as z from "zod/mini";
import * as S from "../schemas";
import { endpoint, message } from "./wire";

/** Signing in and up, and the second factor. */


export const token = z.object({ token: z.string() });
export const referralId = z.object({ referralId: z.string() });

/**
 * What a password login answers: a token, exactly as always, for an account without 2FA; for
 * one with 2FA, a short-lived single-use ticket to send with a code to POST /auth/login/2fa.
 */
export const twoFactorTicket = z.object({ twoFactorRequired: z.literal(true), ticket: z.string() });
export const loginAnswer = z.union([token, twoFactorTicket]);

/** Whether the caller's 2FA is on, whether it is required of them (ADMIN_REQUIRE_2FA), recovery codes not used yet. */
export const twoFactorStatus = z.object({ enabled: z.boolean(), required: z.boolean(), recoveryCodesLeft: z.int() });
/** A new secret for the authenticator app: the text to type, and the otpauth:// URL its QR code holds. */
export const twoFactorSetup = z.object({ secret: z.string(), otpauthUrl: z.string() });
/**
 * Ten one-time codes, shown this once, and the caller's new session token (turning 2FA on signs
 * out every other session; the caller's goes on with this token).
 */
export const recoveryCodes = z.object({ recoveryCodes: z.array(z.string()), token: z.string() });

/** A code from the authenticator app (6 digits) or a recovery code. */
const code = z
  .string({ error: "Code is required." })
  .check(z.trim(), z.minLength(1, "Code is required."), z.maxLength(64, "Invalid authentication code."));

export const twoFactorCodeSchema = z.object({ code });
/**
 * Turning two-factor on or off needs the current password too (docs/rules.md#account-recovery-and-mail):
 * a session token alone, stolen, must not lock the owner out.
 */
export const twoFactorSetupSchema = z.object({ currentPassword: S.currentPassword });
export const twoFactorChangeSchema = z.object({ code, currentPassword: S.currentPassword });
export const loginTwoFactorSchema = z.object({
  ticket: z.string({ error: "Ticket is required." }).check(z.minLength(1, "Ticket is required."), z.maxLength(200, "This sign-in has expired. Please log in again.")),
  code,
});
export type TwoFactorCodeInput = z.input<typeof twoFactorCodeSchema>;
export type TwoFactorSetupInput = z.input<typeof twoFactorSetupSchema>;
export type TwoFactorChangeInput = z.input<typeof twoFactorChangeSchema>;
export type LoginTwoFactorInput = z.input<typeof loginTwoFactorSchema>;

export const AUTH = {
  login: endpoint({ method: "POST", path: "/auth/login", body: S.loginSchema, response: loginAnswer }),
  loginTwoFactor: endpoint({ method: "POST", path: "/auth/login/2fa", body: loginTwoFactorSchema, response: token }),
  register: endpoint({ method: "POST", path: "/auth/register", body: S.registerSchema, response: message, status: 201, fields: { invalid_referral: "referralId", email_taken: "email" } }),
  adminReferralId: endpoint({ method: "GET", path: "/auth/admin-referral-id", response: referralId }),
  twoFactorStatus: endpoint({ method: "GET", path: "/auth/2fa", response: twoFactorStatus }),
  twoFactorSetup: endpoint({ method: "POST", path: "/auth/2fa/setup", body: twoFactorSetupSchema, response: twoFactorSetup }),
  twoFactorEnable: endpoint({ method: "POST", path: "/auth/2fa/enable", body: twoFactorChangeSchema, response: recoveryCodes }),
  twoFactorDisable: endpoint({ method: "POST", path: "/auth/2fa/disable", body: twoFactorChangeSchema, response: message }),
} as const;
