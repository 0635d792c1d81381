import * as z from "zod/mini";
import * as S from "../schemas";
import { endpoint, entity, levelStatus, message, money, program, timestamp } from "./wire";

/** A member's own account: requests, gifts, levels, matrices, team and statement. */


export const referrer = z.object({ name: z.string(), myReferralId: z.string() });

export const foundUser = entity({ name: z.string(), email: z.string() });
export const foundUsers = z.array(foundUser);

export const matrixSlot = z.object({
  slot: z.int(),
  filled: z.boolean(),
  user: z.nullable(entity({ name: z.string() })),
  filledAt: z.nullable(timestamp),
});

export const matrix = z.object({
  program,
  level: z.int(),
  status: levelStatus,
  slotCount: z.int(),
  cycles: z.int(),
  slots: z.array(matrixSlot),
  earned: money,
});

export const partner = entity({
  name: z.string(),
  joinedAt: timestamp,
  /** That partner's own team size. */
  partners: z.int(),
});

export const partnerPage = z.object({
  partners: z.array(partner),
  page: z.int(),
  totalPages: z.int(),
  directPartners: z.int(),
  totalPartners: z.int(),
});

export const STATEMENT_KINDS = ["deposit", "withdrawal", "fee", "gift_in", "gift_out", "purchase", "unfreeze", "earning", "pass_up"] as const;
export type StatementKind = (typeof STATEMENT_KINDS)[number];

export const transaction = z.object({
  id: z.string(),
  createdAt: timestamp,
  kind: z.enum(STATEMENT_KINDS),
  /** Signed from the member's side: money in is positive, money out negative. */
  amount: money,
  counterparty: z.nullable(z.object({ name: z.string() })),
  balanceAfter: money,
  program: z.nullable(program),
  level: z.nullable(z.int()),
  requestId: z.nullable(z.string()),
});

export const transactionPage = z.object({ transactions: z.array(transaction), page: z.int(), totalPages: z.int() });


export const MEMBER = {
  referrer: endpoint({ method: "GET", path: "/user/details/:referralId", response: referrer }),
  deposit: endpoint({ method: "POST", path: "/user/deposit", body: S.depositSchema, response: message, status: 201 }),
  withdraw: endpoint({ method: "POST", path: "/user/withdraw", body: S.withdrawSchema, response: message, status: 201 }),
  searchUsers: endpoint({ method: "GET", path: "/user/search", query: S.searchQuery, response: foundUsers }),
  gift: endpoint({ method: "POST", path: "/user/gift", body: S.giftSchema, response: message }),
  purchase: endpoint({ method: "POST", path: "/user/packages/purchase/:program/:level", response: message }),
  unfreeze: endpoint({ method: "POST", path: "/user/packages/unfreeze/:program/:level", response: message }),
  matrix: endpoint({ method: "GET", path: "/user/matrix/:program/:level", response: matrix }),
  partners: endpoint({ method: "GET", path: "/user/partners", query: S.pageQuery, response: partnerPage }),
  transactions: endpoint({ method: "GET", path: "/user/transactions", query: S.pageQuery, response: transactionPage }),
} as const;
