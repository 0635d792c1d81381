import * as z from "zod/mini";
import { endpoint, entity, levelStatus, message, money, program, role, timestamp } from "./wire";

/** The signed-in member, read by every dashboard page: the only area of the first load. */

export const packageLevel = z.object({ level: z.int(), status: levelStatus, cycles: z.int(), boxes: z.array(z.string()) });

export const me = entity({
  name: z.string(),
  email: z.string(),
  role,
  balance: money,
  /** Held by pending withdrawals: the available balance is balance minus this. */
  pendingWithdrawalsTotal: money,
  myReferralId: z.string(),
  referredBy: z.nullable(z.string()),
  packages: z.record(program, z.object({ levels: z.array(packageLevel) })),
  totalPartners: z.int(),
  directPartners: z.int(),
  createdAt: timestamp,
  /** Notifications not read yet (the header's bell). Optional: an earlier server does not send it. */
  unreadNotifications: z.optional(z.int()),
  /** Whether the member confirmed their email address (the dashboard's banner). Optional: an earlier server does not send it. */
  emailVerified: z.optional(z.boolean()),
});


export const SESSION = {
  me: endpoint({ method: "GET", path: "/auth", response: me }),
  logout: endpoint({ method: "POST", path: "/auth/logout", response: message }),
} as const;
