import type { Decision } from "./constants";

/** Every sentence the server answers in `{msg}`. The spec's texts are quoted exactly. */
export const MSG = {
  noToken: "No token, authorization denied",
  badToken: "Token is not valid",
  adminOnly: "Access denied. Admins only.",
  notFound: "Not found.",
  serverError: "Server error.",
  badJson: "The request body is not valid JSON.",
  tooLarge: "The request body is too large.",
  badCharacter: "The request contains a character that is not allowed.",
  keyBusy: "A request with this Idempotency-Key is still being processed. Try again in a moment.",
  keyReused: "This Idempotency-Key was already used for a different request.",
  badIdempotencyKey: "Idempotency-Key must be 1 to 200 visible ASCII characters.",

  invalidCredentials: "Invalid email or password.",
  tooManyLogins: (minutes: number) =>
    `Too many failed login attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
  emailTaken: "A user with this email already exists.",
  invalidReferral: "Invalid referral ID.",
  registered: "Registration successful! Please log in.",
  loggedOut: "Logged out successfully.",
  userNotFound: "User not found.",

  duplicateTransaction: "This transaction ID has already been submitted.",
  depositSubmitted: "Deposit request submitted successfully. It will be credited once an admin approves it.",
  withdrawalSubmitted: "Withdrawal request submitted successfully. It will be paid once an admin approves it.",
  exceedsAvailable: "Withdrawal amount cannot exceed your available balance.",
  insufficientBalance: "Insufficient balance.",
  alreadyProcessed: "This request has already been processed.",
  requestNotFound: "Request not found.",
  requestDecided: (status: Decision) => `Request successfully ${status}.`,

  recipientNotFound: "Recipient not found.",
  giftToSelf: "You cannot send a gift to yourself.",
  giftSent: "Gift sent successfully!",
  adminGiftSent: "Gift sent successfully from system funds!",

  levelNotFound: "Level not found.",
  levelUpdated: "Level updated successfully!",
  purchasePrevious: "Please purchase previous levels first.",
  levelAlreadyActive: "This level is already active.",
  levelAlreadyFrozen: "This level is already frozen.",
  levelPurchased: "Level purchased successfully!",
  levelNotFrozen: "This level is not frozen.",
  levelUnfrozen: "Level unfrozen successfully!",

  cannotDeleteAdmin: "Admins cannot be deleted.",
  userDeleted: "User deleted successfully!",
  searchTooShort: "Type at least 3 characters to search for a user.",
  subscribed: "Thank you for subscribing!",
  alreadySubscribed: "You are already subscribed.",
} as const;
