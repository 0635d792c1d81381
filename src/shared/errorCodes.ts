/**
 * The closed list of refusal codes: every refusal the API answers is `{msg, code}` with one of
 * these. Their statuses and sentences are in ./errors.ts; this list stands alone so that the
 * client, which decides by code, does not carry the server's sentences.
 */
export const ERROR_CODES = [
  // The request itself
  "validation",
  "bad_json",
  "bad_character",
  "bad_idempotency_key",
  "too_large",
  "not_found",

  // Who is calling
  "no_token",
  "bad_token",
  "forbidden",
  "invalid_credentials",
  "throttled",
  "busy",
  "two_factor_required",
  "two_factor_invalid",
  "two_factor_not_set_up",
  "two_factor_already_enabled",
  "two_factor_not_enabled",
  "login_ticket_invalid",
  "wrong_password",
  "two_factor_code_required",

  // Accounts
  "email_taken",
  "invalid_referral",
  "user_not_found",
  "partner_not_found",
  "cannot_delete_admin",
  "token_invalid",
  "email_not_verified",

  // Money
  "insufficient_balance",
  "balance_limit",
  "exceeds_available",
  "duplicate_transaction",
  "request_not_found",
  "already_processed",
  "recipient_not_found",
  "gift_to_self",
  "too_many_pending_deposits",
  "too_many_pending_withdrawals",
  "gift_to_admin",
  "admin_gift_too_large",
  "use_deposit_address",
  "deposit_address_unavailable",
  "chain_unavailable",

  // Levels
  "level_not_found",
  "level_locked",
  "level_already_active",
  "level_already_frozen",
  "level_not_frozen",
  "cycle_not_found",
  "price_changed",

  // Notifications
  "notification_not_mutable",

  // Operations
  "backup_unsupported",

  // Idempotency-Key: about the key, not the operation, so never stored as the key's answer
  "idempotency_busy",
  "idempotency_conflict",

  "database_unavailable",
  "server_error",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

const CODES: ReadonlySet<string> = new Set(ERROR_CODES);
export const isErrorCode = (value: unknown): value is ErrorCode => typeof value === "string" && CODES.has(value);

/** Codes that speak about the Idempotency-Key, not the operation: a retry may hear otherwise. */
export const KEY_CODES: ReadonlySet<ErrorCode> = new Set(["idempotency_busy", "idempotency_conflict"]);

/** Codes that only mean "sign in again": the client never toasts them. */
export const SIGN_IN_AGAIN: ReadonlySet<ErrorCode> = new Set(["no_token", "bad_token"]);
