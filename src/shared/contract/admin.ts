import * as z from "zod/mini";
import { CHAIN_VERDICTS, NETWORKS } from "../chain";
import { AUDIT_ACTIONS, WITHDRAWAL_METHODS } from "../constants";
import * as S from "../schemas";
import { matrix, memberRequest, missedItem, partner, transaction } from "./member";
import { levelPrice } from "./public";
import { endpoint, entity, levelStatus, message, money, program, requestStatus, role, timestamp } from "./wire";

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

/**
 * What the last look at the chain found for a deposit (src/core/chain/verify.ts), as recorded:
 * the verdict, whether the transaction was found and succeeded, the transfer that matches or
 * comes closest (token, sender, recipient as the network writes addresses; the amount in USDT
 * when the token is USDT, else in the token's own units), and the confirmations.
 */
export const chainEvidence = z.object({
  verdict: z.enum(CHAIN_VERDICTS),
  /** When the look was taken, ISO 8601 (kept as recorded). */
  checkedAt: z.string(),
  found: z.boolean(),
  status: z.nullable(z.enum(["success", "reverted"])),
  blockNumber: z.nullable(z.string()),
  confirmations: z.nullable(z.int()),
  requiredConfirmations: z.int(),
  token: z.nullable(z.string()),
  tokenIsUsdt: z.boolean(),
  from: z.nullable(z.string()),
  to: z.nullable(z.string()),
  amount: z.nullable(z.string()),
  transfers: z.int(),
  error: z.nullable(z.string()),
});

export const depositRequest = entity({
  ...requestBase,
  address: z.string(),
  /** As recorded: the ID as the network writes it; for an old request, the text that was typed. */
  transactionId: z.string(),
  network: z.enum(NETWORKS),
  /** The canonical ID as the network writes it; null for an old request whose text was no valid ID (or repeated a live one's). */
  canonicalTransactionId: z.nullable(z.string()),
  /** The last look at the chain; null when the network is not verified on chain (or not looked at yet). */
  chain: z.nullable(chainEvidence),
  /** The platform will look again (too few confirmations, a node error, not found yet). */
  checking: z.boolean(),
  /** A transfer read at the member's own address: that address; null for a claimed deposit. */
  toAddress: z.nullable(z.string()),
  /** Its amount on chain to the token's precision; the request's amount is its whole cents. */
  chainAmount: z.nullable(z.string()),
});
export const depositRequests = z.array(depositRequest);

export const withdrawalRequest = entity({
  ...requestBase,
  /** Set once accepted: the fee kept by the platform. */
  fee: z.nullable(money),
  accountType: z.enum(WITHDRAWAL_METHODS),
  accountNumber: z.string(),
  /** The payout's transaction ID as the network writes it, when the admin recorded it on accepting. */
  payoutTransactionId: z.nullable(z.string()),
  /** Declined because the member cancelled it while it was pending. */
  cancelled: z.boolean(),
});
export const withdrawalRequests = z.array(withdrawalRequest);

export const listedUser = entity({ name: z.string(), email: z.string(), role, balance: money, createdAt: timestamp });
export const userPage = z.object({
  users: z.array(listedUser),
  totalPages: z.int(),
  /** ADMIN_GIFT_MAX: the largest gift from system funds, so the gift form says so before any confirmation. */
  adminGiftMax: z.optional(money),
});

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
  /** `platform`: the platform decided by itself (a deposit verified on chain); adminName is then "Platform". */
  actor: z.enum(["admin", "platform"]),
});
export const auditPage = z.object({ entries: z.array(auditEntry), page: z.int(), totalPages: z.int() });

export const levelUpdated = z.object({ msg: z.string(), level: levelPrice });

/** One of a member's own deposit addresses. */
export const memberDepositAddress = z.object({ network: z.enum(NETWORKS), index: z.int(), address: z.string(), createdAt: timestamp, sweptAt: z.nullable(timestamp) });
export const memberDepositAddresses = z.array(memberDepositAddress);

/** An address holding USDT credited since it was last marked swept: what the operator's own wallet should move. */
export const sweepItem = z.object({
  network: z.enum(NETWORKS),
  index: z.int(),
  address: z.string(),
  userId: z.string(),
  userName: z.string(),
  amount: money,
  transfers: z.int(),
  sweptAt: z.nullable(timestamp),
  lastCreditedAt: timestamp,
});
export const sweepList = z.array(sweepItem);
export const swept = z.object({ msg: z.string(), cleared: money });

/** A finished backup in BACKUP_DIR (docs/operations.md#backups): its file name, size, and when it was taken. */
export const backupFile = z.object({ file: z.string(), bytes: z.int(), createdAt: timestamp });
export const backupFiles = z.array(backupFile);

/** A member's standing: there is no suspension yet, and a deleted member is not found (404 user_not_found). */
export const MEMBER_STATUSES = ["active"] as const;

/**
 * One level of a member, with the figures their own dashboard shows for it: status and the
 * current activation's cycles and filled slots (their level card), the cycle their matrix shows
 * first and the cycles completed over the level's whole life, and what it earned and missed over
 * its whole life (their matrix panel).
 */
export const memberLevel = z.object({
  level: z.int(),
  status: levelStatus,
  cycles: z.int(),
  filled: z.int(),
  cycle: z.int(),
  cyclesCompleted: z.int(),
  earned: money,
  missed: money,
});

/** GET /api/admin/users/:id: a member's whole record, as the operator's console shows it. */
export const memberRecord = entity({
  name: z.string(),
  email: z.string(),
  myReferralId: z.string(),
  /** Who referred them; null for the platform's first account. `deleted`: that member was deleted since. */
  referrer: z.nullable(entity({ name: z.string(), myReferralId: z.string(), deleted: z.boolean() })),
  createdAt: timestamp,
  role,
  status: z.enum(MEMBER_STATUSES),
  twoFactor: z.boolean(),
  emailVerified: z.boolean(),
  balance: money,
  /** Held by pending withdrawals. */
  held: money,
  /** The balance less what is held: what they can spend or withdraw now. */
  available: money,
  /** Over their whole history, as their Earnings page's lifetime totals. */
  earned: money,
  missed: money,
  totalPartners: z.int(),
  directPartners: z.int(),
  programs: z.record(program, z.array(memberLevel)),
});

export const ADMIN = {
  updateLevel: endpoint({ method: "PATCH", path: "/programs/:program/levels/:level", body: S.levelPriceSchema, response: levelUpdated }),
  /**
   * The request lists take `page` and `limit` (REQUEST_PAGE_SIZE by default, at most
   * MAX_PAGE_LIMIT) and answer one page, newest first, still a bare array as the earlier client
   * reads it; the number of matching requests in all is the TOTAL_COUNT_HEADER (X-Total-Count).
   */
  deposits: endpoint({ method: "GET", path: "/admin/deposits", query: S.historyQuery, response: depositRequests }),
  withdrawals: endpoint({ method: "GET", path: "/admin/withdrawals", query: S.historyQuery, response: withdrawalRequests }),
  decideDeposit: endpoint({ method: "PUT", path: "/admin/deposits/:id", body: S.decisionSchema, response: message }),
  decideWithdrawal: endpoint({ method: "PUT", path: "/admin/withdrawals/:id", body: S.decisionSchema, response: message }),
  users: endpoint({ method: "GET", path: "/admin/users", query: S.userListQuery, response: userPage }),
  deleteUser: endpoint({ method: "DELETE", path: "/admin/users/:id", response: message }),
  adminGift: endpoint({ method: "POST", path: "/admin/users/:id/gift", body: S.adminGiftSchema, response: message, fields: { admin_gift_too_large: "amount" } }),
  audit: endpoint({ method: "GET", path: "/admin/audit", query: S.pageQuery, response: auditPage }),
  userDepositAddresses: endpoint({ method: "GET", path: "/admin/users/:id/deposit-addresses", response: memberDepositAddresses }),
  sweepList: endpoint({ method: "GET", path: "/admin/deposit-addresses/sweep", response: sweepList }),
  markSwept: endpoint({ method: "POST", path: "/admin/deposit-addresses/:network/:index/swept", body: S.sweptSchema, response: swept }),
  /** The backups in BACKUP_DIR, newest first (on Postgres too: those `bun run backup` wrote there). */
  backups: endpoint({ method: "GET", path: "/admin/backups", response: backupFiles }),
  /** A backup of the embedded database, now; on Postgres 409 `backup_unsupported`. */
  takeBackup: endpoint({ method: "POST", path: "/admin/backups", response: backupFile, status: 201 }),
  memberRecord: endpoint({ method: "GET", path: "/admin/users/:id", response: memberRecord }),
  /**
   * One member's lists, each the rows their own page shows (the same core reads, by their id):
   * `page` and `limit` (20 by default, at most 100), one page as a bare array, newest first; the
   * number of rows in all is the TOTAL_COUNT_HEADER (X-Total-Count), as the request lists do.
   */
  memberTransactions: endpoint({ method: "GET", path: "/admin/users/:id/transactions", query: S.memberTransactionsQuery, response: z.array(transaction) }),
  memberMissed: endpoint({ method: "GET", path: "/admin/users/:id/missed", query: S.memberMissedQuery, response: z.array(missedItem) }),
  memberRequests: endpoint({ method: "GET", path: "/admin/users/:id/requests", query: S.memberRequestsQuery, response: z.array(memberRequest) }),
  /** Their direct partners, those who left included (marked `deleted`), as their Partners page lists them. */
  memberPartners: endpoint({ method: "GET", path: "/admin/users/:id/partners", query: S.memberListQuery, response: z.array(partner) }),
  /** The audit trail's entries about them: their account, their requests, their own deposit addresses. */
  memberAudit: endpoint({ method: "GET", path: "/admin/users/:id/audit", query: S.memberListQuery, response: z.array(auditEntry) }),
  /** Their matrix at a level, in any cycle (`?cycle=`, the current one when absent), exactly as GET /api/user/matrix answers them. */
  memberMatrix: endpoint({ method: "GET", path: "/admin/users/:id/matrix/:program/:level", query: S.matrixQuery, response: matrix }),
} as const;
