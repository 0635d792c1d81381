import { type Decision, MAX_BALANCE, MAX_PENDING_DEPOSITS, MAX_PENDING_WITHDRAWALS, MAX_STREAMS_PER_MEMBER, RESERVED_NAMES, SEARCH_PER_MINUTE } from "./constants";
import { type Cents, formatUsdtGrouped } from "./money";

/** Every sentence the server answers in `{msg}`. The spec's texts are quoted exactly. */
/** "1 minute", "5 minutes": when to try again, in the throttles' sentences. */
const inMinutes = (minutes: number) => `${minutes} minute${minutes === 1 ? "" : "s"}`;

export const MSG = {
  noToken: "No token, authorization denied",
  badToken: "Token is not valid",
  adminOnly: "Access denied. Admins only.",
  notFound: "Not found.",
  serverError: "Server error.",
  badJson: "The request body is not valid JSON.",
  bodyNotJson: "The request body must be JSON, sent with Content-Type: application/json.",
  tooLarge: "The request body is too large.",
  badCharacter: "The request contains a character that is not allowed.",
  keyBusy: "A request with this Idempotency-Key is still being processed. Try again in a moment.",
  keyReused: "This Idempotency-Key was already used for a different request.",
  badIdempotencyKey: "Idempotency-Key must be 1 to 200 visible ASCII characters.",

  invalidCredentials: "Invalid email or password.",
  tooManyLogins: (minutes: number) =>
    `Too many failed login attempts. Please try again in ${inMinutes(minutes)}.`,
  tooManySignUps: (minutes: number) => `Too many sign-ups from your address. Please try again in ${inMinutes(minutes)}.`,
  busy: "The server is busy. Please try again in a moment.",
  outcomeUnknown: "No answer from the server: this may or may not have gone through. Check your balance before trying again; sending the very same again is safe.",
  twoFactorRequired: "Admins must use two-factor authentication. Please set it up on the Security page first.",
  twoFactorInvalid: "Invalid authentication code.",
  tooManyCodes: (minutes: number) => `Too many wrong authentication codes. Please try again in ${inMinutes(minutes)}.`,
  twoFactorNotSetUp: "Please start the two-factor set-up first.",
  twoFactorAlreadyEnabled: "Two-factor authentication is already on.",
  twoFactorNotEnabled: "Two-factor authentication is not on.",
  twoFactorDisabled: "Two-factor authentication is now off.",
  loginTicketInvalid: "This sign-in has expired. Please log in again.",
  emailTaken: "A user with this email already exists.",
  invalidReferral: "Invalid referral ID.",
  registered: "Registration successful! Please log in.",
  loggedOut: "Logged out successfully.",
  userNotFound: "User not found.",
  partnerNotFound: "Partner not found.",

  duplicateTransaction: "This transaction ID has already been submitted.",
  depositSubmitted: "Deposit request submitted successfully. It will be credited once an admin approves it.",
  depositSubmittedOnChain:
    "Deposit request submitted successfully. It will be credited automatically once the transaction is confirmed on chain, or else reviewed by an admin.",
  useDepositAddress:
    "Deposits on this network go to your own deposit address, shown on the deposit page, and are credited automatically once confirmed on chain: there is nothing to claim.",
  depositAddressUnavailable: "This network has no deposit addresses of their own: send to the platform's address and submit the deposit form.",
  chainUnavailable: "The network's node is not answering right now. Please try again in a minute.",
  payoutOnAcceptOnly: "A payout transaction ID can only be recorded when accepting a withdrawal.",
  withdrawalCancelled: "Withdrawal cancelled. The amount is available in your balance again.",
  withdrawalCancelledReason: "Cancelled by the member.",
  withdrawalSubmitted: "Withdrawal request submitted successfully. It will be paid once an admin approves it.",
  exceedsAvailable: "Withdrawal amount cannot exceed your available balance.",
  invalidGiftAmount: "Please enter a valid positive amount.",
  insufficientBalance: "Insufficient balance.",
  balanceLimit: `This would take a balance past the maximum of ${formatUsdtGrouped(MAX_BALANCE)}.`,
  alreadyProcessed: "This request has already been processed.",
  requestNotFound: "Request not found.",
  requestDecided: (status: Decision) => `Request successfully ${status}.`,
  tooManyPendingDeposits: `You already have ${MAX_PENDING_DEPOSITS} deposit requests waiting for approval. Please wait until an admin has decided one before submitting another.`,
  tooManyPendingWithdrawals: `You already have ${MAX_PENDING_WITHDRAWALS} withdrawal requests waiting for approval. Please wait until an admin has decided one before requesting another.`,

  recipientNotFound: "Recipient not found.",
  giftToSelf: "You cannot send a gift to yourself.",
  giftSent: "Gift sent successfully!",
  adminGiftSent: "Gift sent successfully from system funds!",
  giftToAdmin: "Gifts from system funds go to members only, not to admin accounts.",
  adminGiftTooLarge: (max: Cents) => `A gift from system funds can be at most ${formatUsdtGrouped(max)}.`,
  adminGiftTooLargeDefault: "This gift is above the largest gift from system funds allowed.",

  levelNotFound: "Level not found.",
  priceChanged: "The price of this level has just changed. Nothing was charged: please check the new price and try again.",
  levelUpdated: "Level updated successfully!",
  purchasePrevious: "Please purchase previous levels first.",
  levelAlreadyActive: "This level is already active.",
  levelAlreadyFrozen: "This level is already frozen.",
  levelPurchased: "Level purchased successfully!",
  levelNotFrozen: "This level is not frozen.",
  levelUnfrozen: "Level unfrozen successfully!",
  cycleNotFound: "Cycle not found.",
  notificationNotMutable: "Notices about your own deposits and withdrawals are security notices and cannot be muted.",

  cannotDeleteAdmin: "Admins cannot be deleted.",
  userDeleted: "User deleted successfully!",
  searchTooShort: "Type at least 3 characters to search for a user.",
  tooManyStreams: `Too many live connections (at most ${MAX_STREAMS_PER_MEMBER} at once). Close some tabs of the dashboard and try again.`,
  tooManySearches: `Too many searches (at most ${SEARCH_PER_MINUTE} a minute). Please wait a moment and try again.`,
  reservedName: `Please choose another name: names that read as ${RESERVED_NAMES.slice(0, -1).join(", ")} or ${RESERVED_NAMES.at(-1)} are reserved.`,
  subscribed: "Thank you for subscribing!",
  alreadySubscribed: "You are already subscribed.",
  tooManySubscriptions: (minutes: number) =>
    `Too many subscriptions from your address. Please try again in ${inMinutes(minutes)}.`,
  /** The no-JS form's notice (the page is one cached variant, so it names no time). */
  tooManySubscriptionsLater: "Too many subscriptions from your address. Please try again later.",
} as const;
