import type { Cents } from "./money";

/*
 * The product's closed sets and fixed figures, each written once. The zod schemas, the column
 * types of src/db/schema.ts, the server and the client derive from these (`z.enum(PROGRAMS)`,
 * `type RequestStatus`), so a value added or changed here reaches every side.
 */

/** The product's name, as the site and the dashboard show it (src/ui/content.ts reads it here). */
export const BRAND_NAME = "Matrix USDT";
/** Names a member may not take: they would read as the operator (src/shared/names.ts). */
export const RESERVED_NAMES = ["System", "Admin", "Administrator", "Platform", BRAND_NAME] as const;

// Programs and levels

export const PROGRAMS = ["3p", "6p"] as const;
export type ProgramId = (typeof PROGRAMS)[number];
export const SLOTS_PER_LEVEL: Record<ProgramId, number> = { "3p": 3, "6p": 6 };
export const LEVELS_PER_PROGRAM = 12;
/** A level freezes when it completes this many cycles. */
export const FREEZE_AT_CYCLES = 2;

/** The states of a level the member has bought: what a row of user_levels holds. */
export const OWNED_LEVEL_STATUSES = ["active", "frozen"] as const;
export type OwnedLevelStatus = (typeof OWNED_LEVEL_STATUSES)[number];
/** A member's state at a level; a level without a row is locked. */
export const LEVEL_STATUSES = ["locked", ...OWNED_LEVEL_STATUSES] as const;
export type LevelStatus = (typeof LEVEL_STATUSES)[number];

// People

export const ROLES = ["user", "admin"] as const;
export type Role = (typeof ROLES)[number];

// Deposit and withdrawal requests

/** What an admin makes of a pending request; the decision is final. */
export const DECISIONS = ["accepted", "declined"] as const;
export type Decision = (typeof DECISIONS)[number];
/** Every request is created pending. */
export const REQUEST_STATUSES = ["pending", ...DECISIONS] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export const WITHDRAWAL_METHODS = ["USDT TRC20", "USDT BEP20"] as const;
export type WithdrawalMethod = (typeof WITHDRAWAL_METHODS)[number];
/** The admin fee kept from each withdrawal, in percent of the amount (`withdrawalFee` in money.ts). */
export const WITHDRAWAL_FEE_PERCENT = 8n;
/** Requests one member may have pending at once; beyond, a new one is refused (docs/rules.md#limits). */
export const MAX_PENDING_DEPOSITS = 10;
export const MAX_PENDING_WITHDRAWALS = 3;

// Smallest amounts, in cents

export const MIN_DEPOSIT: Cents = 100n;
export const MIN_WITHDRAWAL: Cents = 100n;
/** A member's gift and an admin's gift from system funds. */
export const MIN_GIFT: Cents = 1n;
export const MIN_LEVEL_PRICE: Cents = 0n;

// Largest figures, in cents (docs/rules.md#money)

/** The largest single amount of any field: deposit, withdrawal, gift, admin gift, level price (1,000,000.00). */
export const MAX_AMOUNT: Cents = 100_000_000n;
/**
 * No account's balance may pass this, up or (for `system` and `external`, which may be negative)
 * down: 10^13 cents (100,000,000,000.00). With every balance within it, balances, their sums and
 * the system account all stay far below 2^53 cents, exact as JSON numbers and far from bigint's end.
 */
export const MAX_BALANCE: Cents = 10_000_000_000_000n;
/** The largest admin gift when ADMIN_GIFT_MAX is not set (10,000.00). */
export const ADMIN_GIFT_MAX_DEFAULT: Cents = 1_000_000n;

// Where a member's money went

/** How a ledger transfer reads in a member's statement. */
export const STATEMENT_KINDS = ["deposit", "withdrawal", "fee", "gift_in", "gift_out", "purchase", "unfreeze", "earning", "pass_up"] as const;
export type StatementKind = (typeof STATEMENT_KINDS)[number];
/** Who a statement names as the other side of an admin gift: the operator, not a member. */
export const PLATFORM_NAME = "the platform";

/** What happened to the cost of a slot: it went to the matrix's owner, or on up. */
export const SLOT_OUTCOMES = ["paid", "passed_up"] as const;
export type SlotOutcome = (typeof SLOT_OUTCOMES)[number];
/** Why a payment passed a member by: their level was frozen, or they had not bought it. */
export const MISSED_REASONS = ["frozen", "not_active"] as const;
export type MissedReason = (typeof MISSED_REASONS)[number];
/** A member's own deposit and withdrawal requests, listed together. */
export const REQUEST_TYPES = ["deposit", "withdrawal"] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];
/** What a member may be about to pay for from the Packages page. */
export const LEVEL_ACTIONS = ["purchase", "unfreeze"] as const;
export type LevelAction = (typeof LEVEL_ACTIONS)[number];
/** A decision's reason, shown to the member. */
export const REASON_MAX_LENGTH = 200;
/** The earnings chart: days shown by default, and at most. */
export const EARNINGS_DAYS = 30;
export const EARNINGS_MAX_DAYS = 365;

// Admin audit trail

/** What an admin did; each kind is one `admin_audit` record. */
export const AUDIT_ACTIONS = ["deposit_decision", "withdrawal_decision", "level_price", "user_delete", "admin_gift", "address_swept"] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

// Notifications (src/core/notifications.ts)

/**
 * What a member is told about, each kind one sentence in their notifications: a partner joined
 * under them, someone took a slot in their matrix, their level froze, someone's unfreeze paid
 * them, a payment passed them by,
 * a gift arrived, their deposit or withdrawal was decided; for admins, a new pending request.
 */
export const NOTIFICATION_KINDS = [
  "partner_joined",
  "slot_taken",
  "level_frozen",
  "unfreeze_paid",
  "missed",
  "gift_received",
  "deposit_decided",
  "withdrawal_decided",
  "pending_request",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
/**
 * Each kind as the notification settings show it, and whether a member may mute it. Security
 * notices cannot be muted: the decision on the member's own deposit or withdrawal (money leaving
 * or entering their account on an admin's word). A new kind must say here whether it is one.
 */
export const NOTIFICATION_KIND_INFO = {
  partner_joined: { label: "A partner joined your team", mutable: true },
  slot_taken: { label: "Someone took a slot in your matrix", mutable: true },
  level_frozen: { label: "One of your levels froze", mutable: true },
  missed: { label: "A payment passed you by", mutable: true },
  unfreeze_paid: { label: "A member's unfreeze paid you", mutable: true },
  gift_received: { label: "You received a gift", mutable: true },
  deposit_decided: { label: "Your deposit was accepted or declined", mutable: false },
  withdrawal_decided: { label: "Your withdrawal was accepted or declined", mutable: false },
  pending_request: { label: "A member requested a deposit or a withdrawal (admins)", mutable: true },
} as const satisfies Record<NotificationKind, { label: string; mutable: boolean }>;
/**
 * Kinds mailed whatever the member's settings say: a security mail goes with each
 * (docs/rules.md#account-recovery-and-mail). The others are mailed when the member asks.
 */
export const ALWAYS_MAILED_KINDS: readonly NotificationKind[] = ["withdrawal_decided"];
/** Kinds only admins receive: members' settings do not list them. */
export const ADMIN_NOTIFICATION_KINDS: readonly NotificationKind[] = ["pending_request"];
export const NOTIFICATION_PAGE_SIZE = 20;
/** The most ids one POST /api/user/notifications/read may name. */
export const MAX_READ_IDS = 100;

// Lists

export const USER_PAGE_SIZE = 10;
/** A member's partners and transactions. */
export const STATEMENT_PAGE_SIZE = 20;
export const AUDIT_PAGE_SIZE = 20;
/** The admin's deposit and withdrawal lists: a page of this many unless `limit` says otherwise. */
export const REQUEST_PAGE_SIZE = 50;
/** The largest `limit` of a list that takes one (users, requests). */
export const MAX_PAGE_LIMIT = 100;
/** Lists answered as a bare array (the admin's requests) carry the number of matching rows in this header. */
export const TOTAL_COUNT_HEADER = "X-Total-Count";
/**
 * Every API answer names the client build the server would serve now (the dashboard entry's
 * hashed URL): a page that loaded another one knows the app was updated since it opened.
 */
export const BUILD_HEADER = "X-App-Build";
export const SEARCH_MIN_LENGTH = 3;
export const SEARCH_DEBOUNCE_MS = 500;
export const SEARCH_MAX_RESULTS = 10;
/** A member's recipient searches, per minute (GET /api/user/search). */
export const SEARCH_PER_MINUTE = 30;
/**
 * Live streams (GET /api/user/events) one member may hold open in one server process: a tab
 * each, and more tabs than this still get their data by polling. Each stream holds a socket,
 * a timer and a place in the hub.
 */
export const MAX_STREAMS_PER_MEMBER = 10;
/** Newsletter subscriptions, per source address per hour (each valid address sent counts, new or not). */
export const NEWSLETTER_PER_HOUR = 10;

// Screens

export const PASSWORD_MIN_LENGTH = 6;
export const AUTH_REFETCH_MS = 30_000;
export const LOGOUT_DIALOG_MS = 2_000;
export const COPY_CONFIRM_MS = 2_000;
export const TOAST_MS = 3_000;
export const COUNTDOWN_SECONDS = 10;

// Sessions

export const TOKEN_TTL_SECONDS = 24 * 60 * 60;
/** Login throttling (src/core/sessions.ts): how long a failed attempt is remembered. */
export const LOGIN_WINDOW_MINUTES = 15;
/** Failures of one (email, source address) that cost nothing; then each attempt waits 1 s, doubling, at most the window. */
export const LOGIN_PAIR_FREE_FAILURES = 5;
/** Failures of one email from all sources together that cost nothing; then each attempt waits 1 s, doubling... */
export const LOGIN_EMAIL_FREE_FAILURES = 20;
/** ...at most this long: distributed guessing slows to a crawl, and nobody is locked out for longer. */
export const LOGIN_EMAIL_MAX_DELAY_SECONDS = 5 * 60;
/**
 * Failures from one source address at any emails together that cost nothing (an office or a
 * carrier's shared address has room for its people's typos); then each attempt from it waits 1 s,
 * doubling, at most LOGIN_EMAIL_MAX_DELAY_SECONDS: one password tried on many accounts (spraying)
 * slows to a crawl.
 */
export const LOGIN_SOURCE_FREE_FAILURES = 30;
/**
 * A browser that signed in to an account is trusted for that account's logins this long
 * (src/server/deviceTrust.ts): its attempts skip the email's delay above, which anyone can keep
 * going by failing from many addresses, and meet only their own pair's.
 */
export const DEVICE_TRUST_DAYS = 90;
