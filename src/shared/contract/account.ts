import * as z from "zod/mini";
import * as S from "../schemas";
import { endpoint, message } from "./wire";

/**
 * The member's own account (docs/rules.md#account-recovery-and-mail): a forgotten password reset
 * by mail, the password, name and email changed, the address confirmed.
 */

/** The token of a mailed link: one that cannot be ours is refused as an unknown one is (token_invalid). */
const linkToken = z
  .string({ error: "This link is not complete. Please open the link from the mail again." })
  .check(z.refine((text) => text.length > 0 && text.length <= 200, { error: "This link is not complete. Please open the link from the mail again.", ...S.refusedAs("token_invalid") }));

export const forgotPasswordSchema = z.object({ email: S.email });

/** `code`: with two-factor on, a code from the app or a recovery code (two_factor_code_required without). */
export const resetPasswordSchema = z.object({
  token: linkToken,
  password: S.newPassword(),
  code: z.optional(z.string().check(z.trim(), z.maxLength(64, "Invalid authentication code."))),
});

export const changePasswordSchema = z.object({ currentPassword: S.currentPassword, newPassword: S.newPassword("New password") });

export const profileSchema = z.object({ name: S.personName });

export const emailChangeSchema = z.object({ newEmail: S.email, password: S.currentPassword });

export const emailConfirmSchema = z.object({ token: linkToken });

/** A new session token: the caller's session goes on in the new session generation, every other one ended. */
export const renewedSession = z.object({ msg: z.string(), token: z.string() });
export const profile = z.object({ msg: z.string(), name: z.string() });
export const confirmedEmail = z.object({ msg: z.string(), email: z.string() });

export type ForgotPasswordInput = z.input<typeof forgotPasswordSchema>;
export type ResetPasswordInput = z.input<typeof resetPasswordSchema>;
export type ChangePasswordInput = z.input<typeof changePasswordSchema>;
export type ProfileInput = z.input<typeof profileSchema>;
export type EmailChangeInput = z.input<typeof emailChangeSchema>;

export const ACCOUNT = {
  forgotPassword: endpoint({ method: "POST", path: "/auth/password/forgot", body: forgotPasswordSchema, response: message }),
  resetPassword: endpoint({ method: "POST", path: "/auth/password/reset", body: resetPasswordSchema, response: message }),
  changePassword: endpoint({ method: "POST", path: "/auth/password", body: changePasswordSchema, response: renewedSession }),
  confirmEmail: endpoint({ method: "POST", path: "/auth/email/confirm", body: emailConfirmSchema, response: confirmedEmail }),
  resendVerification: endpoint({ method: "POST", path: "/auth/email/verify/resend", response: message }),
  updateProfile: endpoint({ method: "PUT", path: "/user/profile", body: profileSchema, response: profile }),
  changeEmail: endpoint({ method: "POST", path: "/user/email", body: emailChangeSchema, response: message }),
} as const;
