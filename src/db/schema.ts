import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { AUDIT_ACTIONS, type AuditAction, MISSED_REASONS, NOTIFICATION_KINDS, OWNED_LEVEL_STATUSES, PROGRAMS, REQUEST_STATUSES, ROLES, WITHDRAWAL_METHODS } from "../shared/constants";
import { type ChainEvidence, NETWORKS } from "../shared/chain";

// The closed sets (programs, statuses, roles, methods) come from src/shared/constants.ts. Their
// columns are plain text: the sets type the code, the database does not check them.
export type { ProgramId as Program, RequestStatus } from "../shared/constants";

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();
const cents = (name: string) => bigint(name, { mode: "bigint" });

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    role: text("role", { enum: ROLES }).notNull().default("user"),
    referralId: text("referral_id").notNull(),
    referrerId: text("referrer_id").references((): AnyPgColumn => users.id),
    depth: integer("depth").notNull().default(0),
    /** The referral tree cut into chains (src/core/chains.ts): the id of the chain's first user. */
    chainId: text("chain_id").notNull(),
    createdAt: createdAt(),
    deletedAt: timestamp("deleted_at", { withTimezone: true, mode: "date" }),
    /**
     * The user's session generation (src/core/sessions.ts): tokens carry the one they were made
     * in, and signing out everywhere starts a new one. Null until the first time. Read with the
     * user by every token check, so it lives on the row that check reads anyway.
     */
    sessionGeneration: text("session_generation"),
    /**
     * When the member proved they read mail at `email` (a link of ours opened: sign-up's
     * confirmation, an email change, a password reset); null until then (src/core/account.ts).
     */
    emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    uniqueIndex("users_email_lower_uq").on(sql`lower(${t.email})`),
    uniqueIndex("users_referral_id_uq").on(t.referralId),
    // A chain is a path: one user per depth. Partial (the predicate always holds) on purpose: a
    // partial unique index cannot back a foreign key, so Postgres does not treat chain_id as a
    // key column, and moving users between chains (chains.ts) does not wait for the key-share
    // locks that sign-ups and foreign-key checks hold on users rows.
    uniqueIndex("users_chain_depth_uq").on(t.chainId, t.depth).where(sql`${t.chainId} IS NOT NULL`),
    index("users_referrer_idx").on(t.referrerId, t.createdAt),
    // The partners who left, per referrer (few): counted for the partner list's pages, which
    // still list them (src/core/statement.ts partnersOf), without reading every partner.
    index("users_left_referrer_idx").on(t.referrerId).where(sql`${t.deletedAt} IS NOT NULL`),
    index("users_created_idx").on(t.createdAt),
  ],
);

/**
 * Each user's number of direct partners (not deleted), kept as a counter. Whole team sizes are in
 * team_sums.
 */
export const teamCounts = pgTable("team_counts", {
  userId: text("user_id").primaryKey().references(() => users.id),
  direct: integer("direct").notNull().default(0),
});

/**
 * Team sizes, per chain of the referral tree (src/core/teams.ts): for chain `chain_id`, a
 * Fenwick tree over depth of how many users' way up leaves the chain at each depth. A node's
 * count is split over a few shards so that sign-ups seldom wait on one another's row.
 */
export const teamSums = pgTable(
  "team_sums",
  {
    chainId: text("chain_id").notNull(),
    node: integer("node").notNull(),
    shard: smallint("shard").notNull(),
    n: integer("n").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.node, t.shard] })],
);

/**
 * One row per user plus the two operator accounts ('system', 'external').
 * `held` is the sum of the user's pending withdrawals.
 */
export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: ["user", "system", "external"] }).notNull(),
    balance: cents("balance").notNull().default(sql`0`),
    held: cents("held").notNull().default(sql`0`),
  },
  (t) => [
    // The last line of defence for invariant 3: a user's available balance never goes below 0.
    check("accounts_user_available_check", sql`${t.kind} <> 'user' OR (${t.held} >= 0 AND ${t.balance} - ${t.held} >= 0)`),
  ],
);

export const transferKinds = [
  "deposit",
  "withdrawal",
  "fee",
  "gift",
  "admin_gift",
  "purchase",
  "unfreeze",
] as const;
export type TransferKind = (typeof transferKinds)[number];

/** The ledger. Rows are only ever inserted. */
export const transfers = pgTable(
  "transfers",
  {
    id: bigserial("id", { mode: "bigint" }).primaryKey(),
    fromAccount: text("from_account").notNull().references(() => accounts.id),
    toAccount: text("to_account").notNull().references(() => accounts.id),
    amount: cents("amount").notNull(),
    kind: text("kind", { enum: transferKinds }).notNull(),
    fromBalanceAfter: cents("from_balance_after").notNull(),
    toBalanceAfter: cents("to_balance_after").notNull(),
    requestId: text("request_id"),
    program: text("program"),
    level: smallint("level"),
    createdAt: createdAt(),
  },
  (t) => [
    check("transfers_amount_positive", sql`${t.amount} > 0`),
    check("transfers_distinct_accounts", sql`${t.fromAccount} <> ${t.toAccount}`),
    index("transfers_from_idx").on(t.fromAccount, t.id),
    index("transfers_to_idx").on(t.toAccount, t.id),
  ],
);

export const deposits = pgTable(
  "deposits",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id),
    amount: cents("amount").notNull(),
    address: text("address").notNull(),
    /**
     * The transaction ID as the network writes it (TRC20: 64 hex; BEP20: 0x + 64 hex). Rows from
     * before on-chain verification keep the text that was typed, whatever it was.
     */
    transactionId: text("transaction_id").notNull(),
    status: text("status", { enum: REQUEST_STATUSES }).notNull().default("pending"),
    createdAt: createdAt(),
    decidedAt: timestamp("decided_at", { withTimezone: true, mode: "date" }),
    /** The admin's id, or 'platform' for a deposit verified and accepted on chain. */
    decidedBy: text("decided_by"),
    /** The admin's words to the member about a decision (a decline above all); null when none. */
    reason: text("reason"),
    /** TRC20 or BEP20 (src/shared/chain.ts); rows from before networks are TRC20. */
    network: text("network", { enum: NETWORKS }).notNull().default("TRC20"),
    /**
     * The transaction ID in its canonical form (NFKC, trimmed, lower case, no 0x): 64 hex. Null
     * only for old rows whose typed text was no valid ID, or repeated a live request's.
     */
    txHash: text("tx_hash"),
    /** What the last look at the chain found (src/core/chain/verify.ts); null when never checked. */
    chainEvidence: jsonb("chain_evidence").$type<ChainEvidence>(),
    /** When the chain watcher should look (again); null: nothing to do (manual, or settled). */
    nextCheckAt: timestamp("next_check_at", { withTimezone: true, mode: "date" }),
    /** Times the watcher took this request for a check; also the fence of a check in flight. */
    checkAttempts: integer("check_attempts").notNull().default(0),
    /**
     * A transfer to the member's own deposit address, recorded by the address watcher
     * (src/core/chain/watch.ts): its log's index in the transaction. Null for a claimed deposit.
     */
    logIndex: integer("log_index"),
    /** That transfer's recipient: the member's own address, as the network writes it. */
    toAddress: text("to_address"),
    /** The block that holds it. */
    blockNumber: bigint("block_number", { mode: "bigint" }),
    /** The amount on chain in USDT, to the token's own precision ("10.005"); the credit is its whole cents. */
    chainAmount: text("chain_amount"),
  },
  (t) => [
    check("deposits_amount_positive", sql`${t.amount} > 0`),
    index("deposits_user_idx").on(t.userId, t.createdAt),
    // A transaction counts once among the requests that are pending or accepted, whatever its
    // spelling and whatever the network it is claimed on: the canonical form (the same 64 hex for
    // TRC20 and BEP20) is the key. A declined request frees it.
    uniqueIndex("deposits_live_tx_uq").on(t.txHash).where(sql`${t.status} <> 'declined' AND ${t.logIndex} IS NULL`),
    // A transfer to a member's own address is recorded once, however many processes read its log.
    uniqueIndex("deposits_chain_log_uq").on(t.network, t.txHash, t.logIndex).where(sql`${t.logIndex} IS NOT NULL`),
    index("deposits_to_address_idx").on(t.network, t.toAddress, t.decidedAt).where(sql`${t.toAddress} IS NOT NULL`),
    // The chain watcher's queue: pending requests due for a look, soonest first.
    index("deposits_check_due_idx").on(t.nextCheckAt).where(sql`${t.status} = 'pending' AND ${t.nextCheckAt} IS NOT NULL`),
    index("deposits_status_created_idx").on(t.status, t.createdAt),
    index("deposits_created_idx").on(t.createdAt),
  ],
);

/**
 * Each member's own deposit address on a network (docs/rules.md#own-deposit-addresses): the child
 * 0/`index` of the network's extended public key, given once and never reused.
 */
export const depositAddresses = pgTable(
  "deposit_addresses",
  {
    network: text("network", { enum: NETWORKS }).notNull(),
    index: integer("index").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    /** As the network writes it (EIP-55, or base58check on TRON). */
    address: text("address").notNull(),
    /** The 0x form in lower case, as the logs carry it. */
    hex: text("hex").notNull(),
    createdAt: createdAt(),
    /** When an admin last marked the address swept; null: never. */
    sweptAt: timestamp("swept_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    primaryKey({ columns: [t.network, t.index] }),
    uniqueIndex("deposit_addresses_user_uq").on(t.userId, t.network),
    uniqueIndex("deposit_addresses_hex_uq").on(t.network, t.hex),
  ],
);

/**
 * The address watcher's state per network: the next index to give, the extended public key the
 * addresses come from, the next block to read, the head last seen, and the lease of the process
 * reading now.
 */
export const chainWatch = pgTable("chain_watch", {
  network: text("network", { enum: NETWORKS }).primaryKey(),
  xpub: text("xpub").notNull(),
  nextIndex: integer("next_index").notNull().default(0),
  /** The first block not read yet for crediting; null until the chain was first read. */
  nextBlock: bigint("next_block", { mode: "bigint" }),
  headBlock: bigint("head_block", { mode: "bigint" }),
  leaseUntil: timestamp("lease_until", { withTimezone: true, mode: "date" }),
});

/** Transfers to members' addresses seen in blocks still short of their confirmations: shown as confirming, rewritten every pass. */
export const confirmingTransfers = pgTable(
  "confirming_transfers",
  {
    network: text("network", { enum: NETWORKS }).notNull(),
    txHash: text("tx_hash").notNull(),
    logIndex: integer("log_index").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
    fromAddress: text("from_address").notNull(),
    toAddress: text("to_address").notNull(),
    amount: cents("amount").notNull(),
    chainAmount: text("chain_amount").notNull(),
    seenAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.network, t.txHash, t.logIndex] }), index("confirming_transfers_user_idx").on(t.userId)],
);

export const withdrawals = pgTable(
  "withdrawals",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id),
    amount: cents("amount").notNull(),
    fee: cents("fee"),
    accountType: text("account_type", { enum: WITHDRAWAL_METHODS }).notNull(),
    accountNumber: text("account_number").notNull(),
    status: text("status", { enum: REQUEST_STATUSES }).notNull().default("pending"),
    createdAt: createdAt(),
    decidedAt: timestamp("decided_at", { withTimezone: true, mode: "date" }),
    decidedBy: text("decided_by"),
    /** The admin's words to the member about a decision (a decline above all); null when none. */
    reason: text("reason"),
    /** The payout's transaction ID (canonical: 64 hex, no 0x), when the admin recorded it on accepting. */
    payoutTxHash: text("payout_tx_hash"),
  },
  (t) => [
    check("withdrawals_amount_positive", sql`${t.amount} > 0`),
    index("withdrawals_user_idx").on(t.userId, t.createdAt),
    index("withdrawals_status_created_idx").on(t.status, t.createdAt),
    index("withdrawals_created_idx").on(t.createdAt),
    // One payout transaction, one withdrawal (canonical form, whatever the network).
    uniqueIndex("withdrawals_payout_tx_uq").on(t.payoutTxHash).where(sql`${t.payoutTxHash} IS NOT NULL`),
  ],
);

export const programLevels = pgTable(
  "program_levels",
  {
    program: text("program", { enum: PROGRAMS }).notNull(),
    level: smallint("level").notNull(),
    cost: cents("cost").notNull(),
    unfreezeCost: cents("unfreeze_cost").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.program, t.level] }),
    check("program_levels_cost_check", sql`${t.cost} >= 0 AND ${t.unfreezeCost} >= 0`),
  ],
);

/** A user's state at one level. No row means the level is locked. */
export const userLevels = pgTable(
  "user_levels",
  {
    userId: text("user_id").notNull().references(() => users.id),
    program: text("program", { enum: PROGRAMS }).notNull(),
    level: smallint("level").notNull(),
    status: text("status", { enum: OWNED_LEVEL_STATUSES }).notNull(),
    cycles: integer("cycles").notNull().default(0),
    slots: text("slots").array().notNull().default(sql`'{}'::text[]`),
    activatedAt: timestamp("activated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /** The user's chain and depth, copied from users (chains.ts keeps them equal), for the receiver search. */
    chainId: text("chain_id").notNull(),
    depth: integer("depth").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.program, t.level] }),
    // "The deepest active user of this chain at or above depth d": one index probe per chain.
    index("user_levels_receiver_idx").on(t.program, t.level, t.chainId, t.depth).where(sql`${t.status} = 'active'`),
    // "The frozen users of this chain between two depths": whom a receiver walk passed by.
    index("user_levels_frozen_idx").on(t.program, t.level, t.chainId, t.depth).where(sql`${t.status} = 'frozen'`),
  ],
);

/** Every step of every purchase: who entered whose matrix, and what happened to the money. */
export const placements = pgTable(
  "placements",
  {
    id: bigserial("id", { mode: "bigint" }).primaryKey(),
    buyerId: text("buyer_id").notNull(),
    ownerId: text("owner_id"),
    program: text("program", { enum: PROGRAMS }).notNull(),
    level: smallint("level").notNull(),
    slot: smallint("slot"),
    cycle: integer("cycle"),
    outcome: text("outcome", { enum: ["paid", "pass_up", "system"] }).notNull(),
    transferId: bigint("transfer_id", { mode: "bigint" }),
    /** The level's cost that this purchase moved (the amount of its one transfer; 0 when free). */
    amount: cents("amount").notNull().default(sql`0`),
    createdAt: createdAt(),
  },
  (t) => [
    // A matrix's slots in the order they were taken, across all of its cycles (a cycle is a run of
    // them: src/core/matrixView.ts).
    index("placements_owner_order_idx").on(t.ownerId, t.program, t.level, t.id),
    // The steps of one purchase (a buyer buys each level once): where a passed-up payment ended.
    index("placements_purchase_idx").on(t.buyerId, t.program, t.level),
    // The statement tells an earning from a pass-up by the placements of the paying transfer.
    index("placements_transfer_idx").on(t.transferId),
  ],
);

/**
 * A payment that passed a member by: a record, not a transfer (it moves no money). `frozen`: a
 * receiver walk went past the member's frozen level; `not_active`: the member referred the buyer
 * but had not bought the level. Written in the purchase's or the unfreeze's own transaction.
 */
export const missedEarnings = pgTable(
  "missed_earnings",
  {
    id: bigserial("id", { mode: "bigint" }).primaryKey(),
    userId: text("user_id").notNull().references(() => users.id),
    /** The member whose purchase (or unfreeze) moved the money. */
    buyerId: text("buyer_id").notNull().references(() => users.id),
    program: text("program", { enum: PROGRAMS }).notNull(),
    level: smallint("level").notNull(),
    amount: cents("amount").notNull(),
    reason: text("reason", { enum: MISSED_REASONS }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check("missed_earnings_amount_positive", sql`${t.amount} > 0`),
    index("missed_earnings_user_idx").on(t.userId, t.id),
  ],
);

/**
 * What a member is told (src/core/notifications.ts), written in the transaction of the event that
 * causes it. (user_id, event_key) is unique: an event notifies a member once, however often the
 * code that records it runs. Ids of one user grow in commit order (the user's notifications lock,
 * an advisory lock, is taken before the insert: src/core/notifications.ts), so they are the live
 * stream's event ids.
 */
export const notifications = pgTable(
  "notifications",
  {
    id: bigserial("id", { mode: "bigint" }).primaryKey(),
    userId: text("user_id").notNull().references(() => users.id),
    kind: text("kind", { enum: NOTIFICATION_KINDS }).notNull(),
    eventKey: text("event_key").notNull(),
    text: text("text").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>(),
    readAt: timestamp("read_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("notifications_event_uq").on(t.userId, t.eventKey),
    index("notifications_user_idx").on(t.userId, t.id),
    index("notifications_unread_idx").on(t.userId).where(sql`${t.readAt} IS NULL`),
  ],
);

/**
 * A member's notification settings: the kinds they muted (mutable ones only, NOTIFICATION_KIND_INFO;
 * no row: nothing muted). notifyAll reads it by primary key in the insert that records a
 * notification, so a muted kind is never written (docs/rules.md#notifications).
 */
export const notificationSettings = pgTable("notification_settings", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id),
  muted: text("muted", { enum: NOTIFICATION_KINDS }).array().notNull().default(sql`'{}'::text[]`),
  /** The kinds also mailed to the member (the trigger of migration 0022 queues them in mail_outbox). */
  mailed: text("mailed", { enum: NOTIFICATION_KINDS }).array().notNull().default(sql`'{}'::text[]`),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

export const revokedTokens = pgTable("revoked_tokens", {
  jti: text("jti").primaryKey(),
  expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
});

export const loginFailures = pgTable(
  "login_failures",
  {
    id: bigserial("id", { mode: "bigint" }).primaryKey(),
    email: text("email").notNull(),
    /** The address the attempt came from (the socket's, or behind TRUST_PROXY proxies the X-Forwarded-For hop the outermost one added). */
    source: text("source").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [
    index("login_failures_email_idx").on(t.email, t.createdAt),
    index("login_failures_pair_idx").on(t.email, t.source, t.createdAt),
    // A source's failures at any emails (sessions.ts sourceDelaySeconds).
    index("login_failures_source_idx").on(t.source, t.createdAt),
  ],
);

/**
 * Rate-limited events other than logins (sign-ups per source address, user searches per member):
 * one row per event, counted over a sliding window and swept as they age.
 */
export const throttleHits = pgTable(
  "throttle_hits",
  {
    id: bigserial("id", { mode: "bigint" }).primaryKey(),
    bucket: text("bucket").notNull(),
    key: text("key").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("throttle_hits_key_idx").on(t.bucket, t.key, t.createdAt)],
);

/** An account's TOTP second factor: the secret being set up, then the enabled one. */
export const twoFactor = pgTable("two_factor", {
  userId: text("user_id").primaryKey().references(() => users.id),
  /** Base32 secret offered by setup and not yet confirmed; replaced by each setup. */
  pendingSecret: text("pending_secret"),
  /** The confirmed secret; null while 2FA is off. */
  secret: text("secret"),
  enabledAt: timestamp("enabled_at", { withTimezone: true, mode: "date" }),
  /** The last TOTP time step accepted: a code is good once. */
  lastStep: bigint("last_step", { mode: "number" }),
});

/** One-time recovery codes, stored hashed; a used one is kept with its time. */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: bigserial("id", { mode: "bigint" }).primaryKey(),
    userId: text("user_id").notNull().references(() => users.id),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("recovery_codes_user_idx").on(t.userId)],
);

/** The short-lived, single-use ticket a password login answers when 2FA is on. */
export const loginTickets = pgTable("login_tickets", {
  id: text("id").primaryKey(),
  userId: text("user_id").notNull().references(() => users.id),
  expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
  /** Wrong codes tried with this ticket: after a few the ticket is spent. */
  failures: integer("failures").notNull().default(0),
});

export const settings = pgTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

export const newsletterSubscribers = pgTable(
  "newsletter_subscribers",
  {
    email: text("email").primaryKey(),
    createdAt: createdAt(),
  },
);

/**
 * Idempotency keys of money calls: the first answer, kept so that a retry with the same key
 * and body replays it instead of moving money again. Written in the operation's transaction.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    userId: text("user_id").notNull(),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    status: smallint("status").notNull(),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index("idempotency_keys_created_idx").on(t.createdAt)],
);

export type { AuditAction };

/** What each admin (or the platform itself) did, when, to what, with the values before and after. Never updated. */
export const adminAudit = pgTable(
  "admin_audit",
  {
    id: bigserial("id", { mode: "bigint" }).primaryKey(),
    /** The admin who acted; null when the platform itself did (a deposit verified on chain). */
    adminId: text("admin_id").references(() => users.id),
    action: text("action", { enum: AUDIT_ACTIONS }).notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    before: jsonb("before"),
    after: jsonb("after"),
    createdAt: createdAt(),
  },
  (t) => [
    index("admin_audit_created_idx").on(t.createdAt, t.id),
    // A member's record lists the entries about them (src/core/audit.ts): looked up by target.
    index("admin_audit_target_idx").on(t.targetType, t.targetId),
  ],
);

export const ACCOUNT_TOKEN_PURPOSES = ["reset_password", "verify_email", "change_email"] as const;
export type AccountTokenPurpose = (typeof ACCOUNT_TOKEN_PURPOSES)[number];

/**
 * The links mailed to members (src/core/account.ts): a password reset, the confirmation of an
 * address. Only the SHA-256 of the token is kept (the link holds the token itself); each is good
 * once, until `expires_at`, and only for the address it was mailed to (`email`: the new address
 * of an email change).
 */
export const accountTokens = pgTable(
  "account_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id),
    purpose: text("purpose", { enum: ACCOUNT_TOKEN_PURPOSES }).notNull(),
    email: text("email").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [index("account_tokens_user_idx").on(t.userId, t.purpose)],
);

/**
 * Mail to send (src/core/mail/outbox.ts), written in the transaction of what causes it and sent
 * after its commit by every server process's mailer (src/server/mailer.ts), which claims due rows
 * with FOR UPDATE SKIP LOCKED and a lease (`next_attempt_at`), fenced by `attempts`. One row per
 * cause (`cause_key` unique): a cause recorded twice mails once. `data` (which may hold a link's
 * token) is cleared once the mail is sent.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: bigserial("id", { mode: "bigint" }).primaryKey(),
    causeKey: text("cause_key").notNull(),
    /** The member it is about (no foreign key: writing it locks no users row). */
    userId: text("user_id"),
    toAddress: text("to_address").notNull(),
    template: text("template").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>(),
    subject: text("subject"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    lastError: text("last_error"),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("mail_outbox_cause_uq").on(t.causeKey),
    // The mailers' claim reads the rows not sent yet, the most overdue first.
    index("mail_outbox_due_idx").on(t.nextAttemptAt).where(sql`${t.sentAt} IS NULL`),
  ],
);
