import * as z from "zod/mini";
import { AUDIT_ACTIONS, WITHDRAWAL_METHODS } from "../constants";
import * as S from "../schemas";
import { levelPrice } from "./public";
import { endpoint, entity, message, money, requestStatus, role, timestamp } from "./wire";

/** What only admins may do: decide requests, manage users and prices, read the audit trail. */


const requestBase = {
  userEmail: z.string(),
  userName: z.string(),
  amount: money,
  status: requestStatus,
  createdAt: timestamp,
  decidedAt: z.nullable(timestamp),
  /** The admin's words to the member about the decision; null when none. */
  reason: z.nullable(z.string()),
};

export const depositRequest = entity({ ...requestBase, address: z.string(), transactionId: z.string() });
export const depositRequests = z.array(depositRequest);

export const withdrawalRequest = entity({
  ...requestBase,
  /** Set once accepted: the fee kept by the platform. */
  fee: z.nullable(money),
  accountType: z.enum(WITHDRAWAL_METHODS),
  accountNumber: z.string(),
});
export const withdrawalRequests = z.array(withdrawalRequest);

export const listedUser = entity({ name: z.string(), email: z.string(), role, balance: money, createdAt: timestamp });
export const userPage = z.object({ users: z.array(listedUser), totalPages: z.int() });

export const auditEntry = z.object({
  id: z.string(),
  createdAt: timestamp,
  action: z.enum(AUDIT_ACTIONS),
  targetType: z.string(),
  targetId: z.string(),
  /** The values the action changed, as recorded (amounts as dollar text, "12.50"). */
  before: z.nullable(z.record(z.string(), z.unknown())),
  after: z.nullable(z.record(z.string(), z.unknown())),
  adminName: z.string(),
  adminEmail: z.string(),
});
export const auditPage = z.object({ entries: z.array(auditEntry), page: z.int(), totalPages: z.int() });

export const levelUpdated = z.object({ msg: z.string(), level: levelPrice });

export const ADMIN = {
  updateLevel: endpoint({ method: "PATCH", path: "/programs/:program/levels/:level", body: S.levelPriceSchema, response: levelUpdated }),
  deposits: endpoint({ method: "GET", path: "/admin/deposits", query: S.historyQuery, response: depositRequests }),
  withdrawals: endpoint({ method: "GET", path: "/admin/withdrawals", query: S.historyQuery, response: withdrawalRequests }),
  decideDeposit: endpoint({ method: "PUT", path: "/admin/deposits/:id", body: S.decisionSchema, response: message }),
  decideWithdrawal: endpoint({ method: "PUT", path: "/admin/withdrawals/:id", body: S.decisionSchema, response: message }),
  users: endpoint({ method: "GET", path: "/admin/users", query: S.userListQuery, response: userPage }),
  deleteUser: endpoint({ method: "DELETE", path: "/admin/users/:id", response: message }),
  adminGift: endpoint({ method: "POST", path: "/admin/users/:id/gift", body: S.adminGiftSchema, response: message }),
  audit: endpoint({ method: "GET", path: "/admin/audit", query: S.pageQuery, response: auditPage }),
} as const;
