import * as z from "zod/mini";
import * as S from "../schemas";
import { endpoint, message } from "./wire";

/** Signing in and up. */


export const token = z.object({ token: z.string() });
export const referralId = z.object({ referralId: z.string() });


export const AUTH = {
  login: endpoint({ method: "POST", path: "/auth/login", body: S.loginSchema, response: token }),
  register: endpoint({ method: "POST", path: "/auth/register", body: S.registerSchema, response: message, status: 201 }),
  adminReferralId: endpoint({ method: "GET", path: "/auth/admin-referral-id", response: referralId }),
} as const;
