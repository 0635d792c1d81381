import { type ErrorCode } from "./errorCodes";
import { MSG } from "./messages";

export { ERROR_CODES, type ErrorCode, isErrorCode, KEY_CODES, SIGN_IN_AGAIN } from "./errorCodes";

/**
 * Every refusal the API answers is `{msg, code}`. `code` is one of the closed list of
 * ./errorCodes.ts, and each code has here exactly one HTTP status and one default sentence. Core raises codes; the server's edge
 * turns a code into its status and body; the client decides by code, never by the text.
 *
 * A code may be answered with another sentence than its default only where the sentence carries
 * a figure (the minutes of a login throttle) or a field's own problem (validation).
 */
export const ERRORS = {
  // The request itself
  validation: { status: 400, msg: "The request is not valid." },
  bad_json: { status: 400, msg: MSG.badJson },
  bad_character: { status: 400, msg: MSG.badCharacter },
  bad_idempotency_key: { status: 400, msg: MSG.badIdempotencyKey },
  too_large: { status: 413, msg: MSG.tooLarge },
  not_found: { status: 404, msg: MSG.notFound },

  // Who is calling
  no_token: { status: 401, msg: MSG.noToken },
  bad_token: { status: 401, msg: MSG.badToken },
  forbidden: { status: 403, msg: MSG.adminOnly },
  invalid_credentials: { status: 400, msg: MSG.invalidCredentials },
  throttled: { status: 429, msg: MSG.tooManyLogins(15) },
  /** The password hashing queue is full (src/core/sessions.ts boundedHasher): try again shortly. */
  busy: { status: 429, msg: MSG.busy },
  /** ADMIN_REQUIRE_2FA: an admin without two-factor reaches only the 2FA set-up routes. */
  two_factor_required: { status: 403, msg: MSG.twoFactorRequired },
  two_factor_invalid: { status: 400, msg: MSG.twoFactorInvalid },
  two_factor_not_set_up: { status: 409, msg: MSG.twoFactorNotSetUp },
  two_factor_already_enabled: { status: 409, msg: MSG.twoFactorAlreadyEnabled },
  two_factor_not_enabled: { status: 409, msg: MSG.twoFactorNotEnabled },
  /** The ticket of a password login (2FA on) is unknown, expired, used or spent by wrong codes. */
  login_ticket_invalid: { status: 400, msg: MSG.loginTicketInvalid },
  /**
   * The current password, asked of a signed-in member before what could lock them out (the
   * password, the email, two-factor), was wrong. 400, not 401: the session itself is fine.
   */
  wrong_password: { status: 400, msg: MSG.wrongPassword },
  /** A password reset of an account with 2FA on needs a code (or a recovery code) too. */
  two_factor_code_required: { status: 400, msg: MSG.twoFactorCodeRequired },

  // Accounts
  email_taken: { status: 409, msg: MSG.emailTaken },
  invalid_referral: { status: 400, msg: MSG.invalidReferral },
  user_not_found: { status: 404, msg: MSG.userNotFound },
  /** Not a member of the caller's team (or deleted, or unknown): other members' teams stay private. */
  partner_not_found: { status: 404, msg: MSG.partnerNotFound },
  cannot_delete_admin: { status: 403, msg: MSG.cannotDeleteAdmin },
  /** A mailed link's token that is unknown, expired, used, or of an address the account no longer has. */
  token_invalid: { status: 400, msg: MSG.tokenInvalid },
  /** VERIFIED_EMAIL_TO_WITHDRAW=1 and the member has not confirmed their address yet. */
  email_not_verified: { status: 403, msg: MSG.emailNotVerified },

  // Money
  insufficient_balance: { status: 400, msg: MSG.insufficientBalance },
  /** A credit that would take a balance past MAX_BALANCE (src/core/ledger.ts). */
  balance_limit: { status: 400, msg: MSG.balanceLimit },
  exceeds_available: { status: 400, msg: MSG.exceedsAvailable },
  duplicate_transaction: { status: 400, msg: MSG.duplicateTransaction },
  request_not_found: { status: 404, msg: MSG.requestNotFound },
  already_processed: { status: 409, msg: MSG.alreadyProcessed },
  recipient_not_found: { status: 404, msg: MSG.recipientNotFound },
  gift_to_self: { status: 400, msg: MSG.giftToSelf },
  /**
   * A member at MAX_PENDING_DEPOSITS / MAX_PENDING_WITHDRAWALS. 409: the request itself is valid
   * but conflicts with the member's current state, and the same request succeeds once an admin
   * has decided one of the pending ones.
   */
  too_many_pending_deposits: { status: 409, msg: MSG.tooManyPendingDeposits },
  too_many_pending_withdrawals: { status: 409, msg: MSG.tooManyPendingWithdrawals },
  /** Admin gifts go to members only. */
  gift_to_admin: { status: 400, msg: MSG.giftToAdmin },
  /** Above the configured ADMIN_GIFT_MAX; the answer names the configured figure. */
  admin_gift_too_large: { status: 400, msg: MSG.adminGiftTooLargeDefault },
  /** A claim on a network whose members have their own addresses: those are credited by the chain alone. */
  use_deposit_address: { status: 409, msg: MSG.useDepositAddress },
  /** GET /user/deposit/address on a network without an extended public key. */
  deposit_address_unavailable: { status: 409, msg: MSG.depositAddressUnavailable },
  /** The network's node did not answer when a first address needed the chain's latest block. */
  chain_unavailable: { status: 503, msg: MSG.chainUnavailable },

  // Levels
  level_not_found: { status: 404, msg: MSG.levelNotFound },
  level_locked: { status: 400, msg: MSG.purchasePrevious },
  level_already_active: { status: 400, msg: MSG.levelAlreadyActive },
  level_already_frozen: { status: 400, msg: MSG.levelAlreadyFrozen },
  level_not_frozen: { status: 400, msg: MSG.levelNotFrozen },
  cycle_not_found: { status: 404, msg: MSG.cycleNotFound },
  /** The level's price is not the one the member was shown (an admin edited it since): nothing was bought or charged. */
  price_changed: { status: 409, msg: MSG.priceChanged },

  // Notifications
  /** PUT /api/user/notifications/settings named a security notice (NOTIFICATION_KIND_INFO.mutable false). */
  notification_not_mutable: { status: 400, msg: MSG.notificationNotMutable },

  // Operations
  /** POST /api/admin/backups on Postgres: the server backs up only the embedded database; Postgres has pg_dump and WAL archiving. */
  backup_unsupported: { status: 409, msg: MSG.backupUnsupported },

  // Idempotency-Key: about the key, not the operation, so never stored as the key's answer
  idempotency_busy: { status: 409, msg: MSG.keyBusy },
  idempotency_conflict: { status: 422, msg: MSG.keyReused },

  database_unavailable: { status: 503, msg: MSG.databaseUnavailable },
  server_error: { status: 500, msg: MSG.serverError },
} as const satisfies Record<ErrorCode, { status: ErrorStatus; msg: string }>;

type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 500 | 503;


/** The wire form of every refusal. */
export interface ErrorBody {
  msg: string;
  code: ErrorCode;
  /**
   * The body field the refusal is about, when the endpoint names one for its code (`fields` of
   * its contract entry: an amount above the balance, an unknown referral ID, an address whose
   * checksum fails): the form shows the sentence at that field. Absent otherwise.
   */
  field?: string;
}


/** The code for an HTTP error raised below the routes (the framework's own 4xx). */
export function codeForStatus(status: number): ErrorCode {
  if (status === 413) return "too_large";
  if (status === 404) return "not_found";
  if (status === 401) return "bad_token";
  if (status === 403) return "forbidden";
  if (status >= 500) return "server_error";
  return "validation";
}
