import * as z from "zod/mini";
import { LEVEL_ACTIONS, MISSED_REASONS, NOTIFICATION_KINDS, REQUEST_STATUSES, REQUEST_TYPES, SLOT_OUTCOMES, STATEMENT_KINDS } from "../constants";
import { NETWORKS } from "../chain";
import * as S from "../schemas";
import { endpoint, entity, levelStatus, message, money, program, timestamp } from "./wire";

/** A member's own account: requests, gifts, levels, matrices, team and statement. */


export const referrer = z.object({ name: z.string(), myReferralId: z.string() });

export const foundUser = entity({ name: z.string(), email: z.string() });
export const foundUsers = z.array(foundUser);

const name = z.object({ name: z.string() });

/**
 * One slot of a matrix's cycle. A filled slot says who took it, when, and what happened to the
 * level's cost: `paid` to the matrix's owner, or `passed_up`, with `to` the account finally paid
 * (`{name: "System"}` when no one above was eligible). An empty slot has nulls.
 */
export const matrixSlot = z.object({
  slot: z.int(),
  filled: z.boolean(),
  user: z.nullable(entity({ name: z.string() })),
  filledAt: z.nullable(timestamp),
  outcome: z.nullable(z.enum(SLOT_OUTCOMES)),
  amount: z.nullable(money),
  to: z.nullable(name),
});

export const matrix = z.object({
  program,
  level: z.int(),
  status: levelStatus,
  slotCount: z.int(),
  /** Completed cycles of the current activation (unfreezing starts again at 0), as before. */
  cycles: z.int(),
  slots: z.array(matrixSlot),
  /** Everything this level has paid the member, over all its cycles. */
  earned: money,
  /** The cycle shown, counted over the level's whole life: 1 is the first. */
  cycle: z.int(),
  /** Cycles completed over the level's whole life; every one of them can be shown. */
  cyclesCompleted: z.int(),
  /** What passed the member by at this level (missed earnings), over its whole life. */
  missed: money,
  /** What unfreezing this level costs now. */
  unfreezeCost: money,
});

export const partner = entity({
  name: z.string(),
  joinedAt: timestamp,
  /** Left the platform (deleted by an admin): listed still, since their own partners stay in the team. */
  deleted: z.boolean(),
  /** That partner's own team size. */
  partners: z.int(),
  /** Their own direct partners (not counting those who left). */
  directPartners: z.int(),
  /** Whether partners are listed under them (those who left included): a branch to open. */
  hasPartners: z.boolean(),
  /** The highest level they have active in each program; 0 when none. */
  levels: z.object({ "3p": z.int(), "6p": z.int() }),
});

export const partnerPage = z.object({
  partners: z.array(partner),
  page: z.int(),
  /** Pages of the list (partners who left included): where a page starts after a partner shown (`after`), `hasMore` says whether one follows. */
  totalPages: z.int(),
  /** Whether partners follow the last of this page (read with it, so partners who left since the first page cannot end the list early). */
  hasMore: z.boolean(),
  directPartners: z.int(),
  totalPartners: z.int(),
});

export { STATEMENT_KINDS, type StatementKind } from "../constants";

export const transaction = z.object({
  id: z.string(),
  createdAt: timestamp,
  kind: z.enum(STATEMENT_KINDS),
  /** Signed from the member's side: money in is positive, money out negative. */
  amount: money,
  counterparty: z.nullable(z.object({ name: z.string() })),
  /**
   * An admin gift (kind `gift_in`): money from the platform's own funds, not from a member; its
   * counterparty is named "the platform". Read as "Gift from the platform". The server always
   * sends it; optional so that a client reading an earlier server's answer still decodes it.
   */
  fromPlatform: z.optional(z.boolean()),
  balanceAfter: money,
  program: z.nullable(program),
  level: z.nullable(z.int()),
  requestId: z.nullable(z.string()),
});

export const transactionPage = z.object({ transactions: z.array(transaction), page: z.int(), totalPages: z.int() });


/** A payment that passed the member by. */
export const missedItem = z.object({
  createdAt: timestamp,
  program,
  level: z.int(),
  /** The member whose purchase (or unfreeze) moved the money. */
  buyer: name,
  amount: money,
  reason: z.enum(MISSED_REASONS),
});
export const missedPage = z.object({ items: z.array(missedItem), page: z.int(), totalPages: z.int(), total: z.int() });

/** One of the member's own deposit or withdrawal requests, in any state. */
export const memberRequest = entity({
  type: z.enum(REQUEST_TYPES),
  amount: money,
  status: z.enum(REQUEST_STATUSES),
  /** The admin's words about the decision; null when none. */
  reason: z.nullable(z.string()),
  createdAt: timestamp,
  decidedAt: z.nullable(timestamp),
  /** A withdrawal: the network chosen; a deposit: null. */
  method: z.nullable(z.string()),
  /** An accepted withdrawal: the fee kept; else null. */
  fee: z.nullable(money),
  /** The network: a deposit's, or the one a withdrawal is paid on. */
  network: z.enum(NETWORKS),
  /** A deposit: its transaction ID; a withdrawal: the payout's, once the admin recorded it (else null). */
  transactionId: z.nullable(z.string()),
  /** A transfer to the member's own deposit address: that address; else null. */
  toAddress: z.nullable(z.string()),
  /** Such a transfer still short of its confirmations: how many it has of those it needs; else null. */
  confirmations: z.nullable(z.object({ seen: z.int(), required: z.int() })),
  /** Received at the member's address below the minimum deposit: recorded, not credited unless an admin credits it by hand. */
  belowMinimum: z.boolean(),
  /** Such a transfer's amount on chain, to the token's precision ("10.005"); `amount` is its whole cents. */
  chainAmount: z.nullable(z.string()),
  /** A withdrawal: the wallet it is paid to, as the network writes it; a deposit: the sender's. */
  address: z.string(),
  /** A withdrawal that is not declined: what reaches the wallet, the amount less the fee (the fee it will have while pending); else null. */
  net: z.nullable(money),
  /** A withdrawal the member cancelled while it was pending (its status is then declined). */
  cancelled: z.boolean(),
});
export const requestPage = z.object({ items: z.array(memberRequest), page: z.int(), totalPages: z.int() });

/** The member's own deposit address on a network: what arrives there is credited to them once confirmed. */
export const ownDepositAddress = z.object({ network: z.enum(NETWORKS), address: z.string(), index: z.int(), confirmations: z.int() });

/** Earned (paid to the member by purchases and unfreezes) and missed, per calendar day (UTC). */
export const earnings = z.object({
  days: z.array(z.object({ date: z.string(), earned: money, missed: money })),
  totalEarned: money,
  totalMissed: money,
  /** Over the member's whole history, not only the days shown. */
  lifetimeEarned: money,
  lifetimeMissed: money,
});

/**
 * Before a purchase or an unfreeze is confirmed: who would be paid now (null: the platform,
 * no one above has the level active), and for a purchase whose matrix the buyer would enter
 * and in which slot (null when that is the platform too).
 */
export const levelPreview = z.object({
  action: z.enum(LEVEL_ACTIONS),
  program,
  level: z.int(),
  amount: money,
  receiver: z.nullable(name),
  matrix: z.nullable(z.object({ owner: name, slot: z.int(), outcome: z.enum(SLOT_OUTCOMES) })),
});

/** The statement as CSV: a header row, then one line per statement row (dollars, 2 decimals). */
export const csv = z.string();

/** One of the member's notifications; `_id` is also the live stream's event id (GET /api/user/events). */
export const notificationItem = entity({ kind: z.enum(NOTIFICATION_KINDS), text: z.string(), createdAt: timestamp, read: z.boolean() });
export const notificationPage = z.object({ items: z.array(notificationItem), totalPages: z.int(), unread: z.int() });
export const unread = z.object({ unread: z.int() });
/**
 * Which kinds the member receives: `mutable` false for security notices, which cannot be muted;
 * `mailed`, whether each is mailed too (`mailable` false: always, as a security mail).
 */
export const notificationSettings = z.object({
  kinds: z.array(
    z.object({
      kind: z.enum(NOTIFICATION_KINDS),
      label: z.string(),
      muted: z.boolean(),
      mutable: z.boolean(),
      mailed: z.optional(z.boolean()),
      mailable: z.optional(z.boolean()),
    }),
  ),
});
/**
 * Server-Sent Events (text/event-stream): `ready` (id: where the stream starts), `notification`
 * (data: a notificationItem, id: its _id), `balance`, `pending` (admins), and `reset` (id: the
 * member's newest notification) when a resume (Last-Event-ID) missed more than 100
 * notifications: none of them is sent, and the client refetches what it shows. A server that
 * stops ends the stream with a `retry:` line: reconnect after that many ms.
 */
export const eventStream = z.string();

export const MEMBER = {
  referrer: endpoint({ method: "GET", path: "/user/details/:referralId", response: referrer }),
  deposit: endpoint({ method: "POST", path: "/user/deposit", body: S.depositSchema, response: message, status: 201, fields: { duplicate_transaction: "transactionId" } }),
  depositAddress: endpoint({ method: "GET", path: "/user/deposit/address", query: S.depositAddressQuery, response: ownDepositAddress }),
  withdraw: endpoint({
    method: "POST",
    path: "/user/withdraw",
    body: S.withdrawSchema,
    response: message,
    status: 201,
    fields: { exceeds_available: "amount", insufficient_balance: "amount" },
  }),
  cancelWithdrawal: endpoint({ method: "POST", path: "/user/withdrawals/:id/cancel", response: message }),
  searchUsers: endpoint({ method: "GET", path: "/user/search", query: S.searchQuery, response: foundUsers }),
  // recipient_not_found and gift_to_self name the field the recipient was given in (sendGift).
  gift: endpoint({ method: "POST", path: "/user/gift", body: S.giftSchema, response: message, fields: { insufficient_balance: "amount", recipient_not_found: "recipientEmail" } }),
  purchase: endpoint({ method: "POST", path: "/user/packages/purchase/:program/:level", body: S.levelActionSchema, response: message }),
  unfreeze: endpoint({ method: "POST", path: "/user/packages/unfreeze/:program/:level", body: S.levelActionSchema, response: message }),
  purchasePreview: endpoint({ method: "GET", path: "/user/packages/purchase/:program/:level/preview", response: levelPreview }),
  unfreezePreview: endpoint({ method: "GET", path: "/user/packages/unfreeze/:program/:level/preview", response: levelPreview }),
  matrix: endpoint({ method: "GET", path: "/user/matrix/:program/:level", query: S.matrixQuery, response: matrix }),
  partners: endpoint({ method: "GET", path: "/user/partners", query: S.partnersQuery, response: partnerPage }),
  transactions: endpoint({ method: "GET", path: "/user/transactions", query: S.statementQuery, response: transactionPage }),
  transactionsCsv: endpoint({ method: "GET", path: "/user/transactions.csv", query: S.statementFilter, response: csv }),
  missed: endpoint({ method: "GET", path: "/user/missed", query: S.missedQuery, response: missedPage }),
  requests: endpoint({ method: "GET", path: "/user/requests", query: S.requestsQuery, response: requestPage }),
  earnings: endpoint({ method: "GET", path: "/user/earnings", query: S.earningsQuery, response: earnings }),
  notifications: endpoint({ method: "GET", path: "/user/notifications", query: S.pageQuery, response: notificationPage }),
  notificationsRead: endpoint({ method: "POST", path: "/user/notifications/read", body: S.notificationsReadSchema, response: unread }),
  notificationSettings: endpoint({ method: "GET", path: "/user/notifications/settings", response: notificationSettings }),
  saveNotificationSettings: endpoint({ method: "PUT", path: "/user/notifications/settings", body: S.notificationSettingsSchema, response: notificationSettings }),
  events: endpoint({ method: "GET", path: "/user/events", response: eventStream }),
} as const;
