import { isTimeZone } from "./days";
import * as z from "zod/mini";
import {
  MAX_READ_IDS,
  NOTIFICATION_KINDS,
  DECISIONS,
  EARNINGS_DAYS,
  EARNINGS_MAX_DAYS,
  LEVELS_PER_PROGRAM,
  REASON_MAX_LENGTH,
  REQUEST_TYPES,
  STATEMENT_KINDS,
  MAX_AMOUNT,
  MAX_PAGE_LIMIT,
  MIN_DEPOSIT,
  MIN_GIFT,
  MIN_LEVEL_PRICE,
  MIN_WITHDRAWAL,
  PASSWORD_MIN_LENGTH,
  PROGRAMS,
  REQUEST_PAGE_SIZE,
  REQUEST_STATUSES,
  SEARCH_MIN_LENGTH,
  STATEMENT_PAGE_SIZE,
  USER_PAGE_SIZE,
  WITHDRAWAL_METHODS,
} from "./constants";
import { DEFAULT_NETWORK, NETWORKS, networkOfMethod, readAddressShape, readTransactionId, transactionIdCharacterProblem } from "./chain";
import { type ErrorCode, isErrorCode } from "./errorCodes";
import { MSG } from "./messages";
import { type AmountProblem, type Cents, formatAmount, formatUsdt, formatUsdtGrouped, readDollars } from "./money";
import { cleanName, readsAsPlatform } from "./names";

/**
 * Payload schemas shared by the server validators and the client forms. Written with zod/mini
 * (functions instead of methods) so that the dashboard's first load, which reads the contract
 * (./contract.ts), stays small.
 */

/** "a, b or c": the values of a closed set in a message. */
const oneOf = (values: readonly string[]) => (values.length > 1 ? `${values.slice(0, -1).join(", ")} or ${values.at(-1)}` : (values[0] ?? ""));

/** Control characters (NUL above all, which Postgres text cannot hold) have no place in a one-line field. */
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/**
 * The params of a schema's issue that the server answers with `code` (and that code's own
 * sentence) instead of `validation`: for the fields whose refusal the rules give a code of its
 * own wherever it is found (an amount above the available balance, an ID no user has).
 * `refusalCodeOf` reads it back.
 */
export const refusedAs = (code: ErrorCode) => ({ params: { refusal: code } });

/** The code an issue asks to be refused with (`refusedAs`), if any. */
export function refusalCodeOf(issue: object | undefined): ErrorCode | undefined {
  const refusal = (issue as { params?: { refusal?: unknown } } | undefined)?.params?.refusal;
  return isErrorCode(refusal) ? refusal : undefined;
}

const noControlCharacters = (message: string) => z.refine<string>((text) => !CONTROL_CHARACTERS.test(text), message);

/**
 * Bidirectional embeddings, overrides and isolates reorder the text around them as it is shown:
 * words to a member could then read as something else than what is stored. (The marks, U+200E
 * and U+200F, stay: right-to-left text needs them.)
 */
export const REORDERING_CHARACTERS = /[\u202a-\u202e\u2066-\u2069]/;

const requiredText = (label: string, max = 200) =>
  z
    .string({ error: `${label} is required.` })
    .check(
      z.trim(),
      z.minLength(1, `${label} is required.`),
      z.maxLength(max, `${label} must be at most ${max} characters.`),
      noControlCharacters(`${label} contains characters that are not allowed.`),
    );

/**
 * The browser's own rule for an input of type email (the forms use one), so the server accepts
 * what the form lets through: a host without a dot, like the first-start admin@localhost, too.
 */
export const email = z.pipe(
  z.string({ error: "Email is required." }).check(z.trim(), z.minLength(1, "Email is required."), z.maxLength(254, "Email must be at most 254 characters.")),
  z.email({ pattern: z.regexes.html5Email, error: "Please enter a valid email address." }),
);

/**
 * A member's name: invisible and reordering characters removed, spaces collapsed (`cleanName`),
 * 1 to 100 characters, and not one that reads as the operator (`readsAsPlatform`).
 */
export const personName = z.pipe(
  z.string({ error: "Name is required." }).check(z.overwrite(cleanName), z.minLength(1, "Name is required."), z.maxLength(100, "Name must be at most 100 characters.")),
  z.string().check(z.refine((name) => !readsAsPlatform(name), MSG.reservedName)),
);

/** What every amount field says above MAX_AMOUNT. */
export const amountTooLarge = (label = "Amount") => `${label} must be at most ${formatUsdtGrouped(MAX_AMOUNT)}.`;

interface AmountRules {
  label?: string;
  /** Smallest accepted amount in cents; 0 accepts a zero amount. */
  min: Cents;
  positiveMessage: string;
  minMessage?: string;
  /**
   * What every problem of the amount's shape says (missing, not a number, too many decimals):
   * for a field whose spec text is one sentence for all of them. Else each its own.
   */
  invalidMessage?: string;
  /**
   * Largest accepted amount in cents (default MAX_AMOUNT; null: as large as an amount can be
   * written, 13 whole digits), and what a larger one is told: its sentence, and the code it is
   * refused with when that is not `validation` (`refusedAs`).
   */
  max?: { cents: Cents | null; message: string; code?: ErrorCode };
}

/** A dollar amount as a JSON number or decimal string, at most MAX_AMOUNT; becomes integer cents. */
export const amount = ({ label = "Amount", min, positiveMessage, minMessage, invalidMessage, max = { cents: MAX_AMOUNT, message: amountTooLarge(label) } }: AmountRules) => {
  const problems: Record<AmountProblem, string> = {
    missing: invalidMessage ?? `${label} is required.`,
    not_a_number: invalidMessage ?? `${label} must be a number.`,
    negative: positiveMessage,
    too_many_decimals: invalidMessage ?? `${label} must have at most 2 decimal places.`,
    too_large: max.message,
  };
  return z.pipe(
    z.unknown(),
    z.transform((value, ctx) => {
      const fail = (message: string, code?: ErrorCode) => {
        ctx.issues.push({ code: "custom", message, input: value, ...(code ? refusedAs(code) : {}) });
        return z.NEVER;
      };
      const read = readDollars(value);
      if ("problem" in read) return fail(problems[read.problem], read.problem === "too_large" ? max.code : undefined);
      if (read.cents === 0n && min > 0n) return fail(positiveMessage);
      if (read.cents < min) return fail(minMessage ?? positiveMessage);
      if (max.cents !== null && read.cents > max.cents) return fail(problems.too_large, max.code);
      return read.cents;
    }),
  );
};

export const loginSchema = z.object({
  email,
  password: z.string({ error: "Password is required." }).check(z.minLength(1, "Password is required."), z.maxLength(1024, "Password is too long.")),
});

/** A password chosen now (sign-up, reset, change): the sign-up's rules. */
export const newPassword = (label = "Password") =>
  z
    .string({ error: `${label} is required.` })
    .check(z.minLength(PASSWORD_MIN_LENGTH, `${label} must be at least ${PASSWORD_MIN_LENGTH} characters.`), z.maxLength(1024, `${label} is too long.`));

/** The password a signed-in member already has, asked before what could lock them out (docs/rules.md#account-recovery-and-mail). */
export const currentPassword = z
  .string({ error: "Please type your current password." })
  .check(z.minLength(1, "Please type your current password."), z.maxLength(1024, "Password is too long."));

export const registerSchema = z.object({
  name: personName,
  email,
  password: newPassword(),
  // An ID no user can have is refused as an unknown one is (invalid_referral), not as a validation.
  referralId: z
    .string({ error: "Referral ID is required." })
    .check(
      z.trim(),
      z.minLength(1, "Referral ID is required."),
      z.refine((text) => text.length <= 64 && !CONTROL_CHARACTERS.test(text), { error: MSG.invalidReferral, ...refusedAs("invalid_referral") }),
    ),
});

/** A transaction ID before its network is known: what no network's ID may hold (./chain.ts). */
const transactionIdText = (label: string) =>
  requiredText(label, 200).check(
    z.superRefine((text, ctx) => {
      const problem = transactionIdCharacterProblem(text);
      if (problem) ctx.issues.push({ code: "custom", message: problem, input: text });
    }),
  );

/**
 * A deposit request. `network` is TRC20 when absent (the earlier client sends none). The
 * transaction ID must be one of that network's, and is answered in its canonical forms:
 * `transactionId` as the network writes it, `txHash` the stored key (NFKC, trimmed, lower case,
 * no 0x); every other spelling of an ID is refused with the reason (docs/rules.md#deposits). The
 * address must have the network's shape; its checksum is checked on the server.
 */
export const depositSchema = z.pipe(
  z.object({
    network: z._default(z.enum(NETWORKS, { error: `Network must be ${oneOf(NETWORKS)}.` }), DEFAULT_NETWORK),
    address: requiredText("Wallet address", 200),
    transactionId: transactionIdText("Transaction ID"),
    amount: amount({
      min: MIN_DEPOSIT,
      positiveMessage: "Please enter a valid positive amount.",
      minMessage: `The minimum deposit is ${formatUsdt(MIN_DEPOSIT)}.`,
    }),
  }),
  z.transform((value, ctx) => {
    const address = readAddressShape(value.network, value.address);
    const id = readTransactionId(value.network, value.transactionId);
    if ("problem" in address) ctx.issues.push({ code: "custom", message: address.problem, input: value.address, path: ["address"] });
    if ("problem" in id) ctx.issues.push({ code: "custom", message: id.problem, input: value.transactionId, path: ["transactionId"] });
    if ("problem" in address || "problem" in id) return z.NEVER;
    return { network: value.network, address: address.address, transactionId: id.display, txHash: id.canonical, amount: value.amount };
  }),
);

/**
 * A withdrawal request. The wallet address must have the shape of the chosen network's (a payout
 * to anything else could not land, or would land on the other chain); its checksum is checked on
 * the server, as a deposit's is.
 */
export const withdrawSchema = z.pipe(
  z.object({
    // No default: paying out on a network the user did not choose would lose the money.
    accountType: z.enum(WITHDRAWAL_METHODS, { error: `Please choose ${oneOf(WITHDRAWAL_METHODS)}.` }),
    accountNumber: requiredText("Wallet address", 200),
    // Not capped here: an amount above the available balance hears the spec's sentence from the
    // server's hold ("exceeds_available"), however large; MAX_AMOUNT, a request's own limit, is
    // applied by the server once the balance covers the amount (requestWithdrawal).
    amount: amount({
      min: MIN_WITHDRAWAL,
      positiveMessage: "Please enter a valid positive withdrawal amount.",
      minMessage: `The minimum withdrawal is ${formatUsdt(MIN_WITHDRAWAL)}.`,
      max: { cents: null, message: MSG.exceedsAvailable, code: "exceeds_available" },
    }),
  }),
  z.transform((value, ctx) => {
    const address = readAddressShape(networkOfMethod(value.accountType), value.accountNumber);
    if ("problem" in address) {
      ctx.issues.push({ code: "custom", message: address.problem, input: value.accountNumber, path: ["accountNumber"] });
      return z.NEVER;
    }
    return { ...value, accountNumber: address.address };
  }),
);

/**
 * The optional body of a purchase or an unfreeze: the price the member was shown. When given, the
 * server charges that price or nothing (409 price_changed). Clients of the earlier app send no
 * body, and are charged the price of the moment, as before.
 */
export const levelActionSchema = z.object({
  expectedCost: z.optional(amount({ label: "Expected cost", min: 0n, positiveMessage: "Expected cost must be 0 or more." })),
});

/**
 * A gift's amount: the spec's sentence for a zero or negative one; the other problems (missing,
 * not a number, three decimals, too large) say which they are, as every amount field does.
 */
const giftAmount = () => amount({ min: MIN_GIFT, positiveMessage: MSG.invalidGiftAmount });

/** The amount of a gift alone: what the gift forms (a member's, an admin's) ask for. */
export const giftAmountSchema = z.object({ amount: giftAmount() });

/**
 * A user gift names its recipient by email (the earlier client), or by `recipientId`, the `_id`
 * of a search result (whose email is masked): one of the two. An ID no user can have (too long,
 * a control character) is refused as an unknown recipient.
 */
export const giftSchema = z.object({
  amount: giftAmount(),
  recipientEmail: z.optional(email),
  recipientId: z.optional(
    z
      .string({ error: MSG.recipientNotFound })
      .check(z.trim(), z.refine((text) => text.length >= 1 && text.length <= 64 && !CONTROL_CHARACTERS.test(text), { error: MSG.recipientNotFound, ...refusedAs("recipient_not_found") })),
  ),
}).check(
  z.superRefine((gift, ctx) => {
    if (gift.recipientEmail === undefined && gift.recipientId === undefined) {
      ctx.issues.push({ code: "custom", message: "Email is required.", input: gift.recipientEmail, path: ["recipientEmail"] });
    } else if (gift.recipientEmail !== undefined && gift.recipientId !== undefined) {
      ctx.issues.push({ code: "custom", message: "Name the recipient by recipientEmail or by recipientId, not both.", input: gift.recipientId, path: ["recipientId"] });
    }
  }),
);

/** A notification's id, as the API writes it (a decimal string). */
const notificationId = (message: string, notString?: string) => z.string(notString ? { error: notString } : undefined).check(z.regex(/^[1-9][0-9]{0,17}$/, message));

/**
 * POST /api/user/notifications/read: `{ids}` (ids of the member's notifications) or `{all: true}`,
 * optionally with `upTo`, the id of the newest notification the member was shown: then only those
 * up to it are marked, not one that came after the list was loaded. Without `upTo`, every unread one.
 */
export const notificationsReadSchema = z.union([
  z.object({
    all: z.literal(true, { error: "all must be true." }),
    upTo: z.optional(notificationId("upTo must be a notification id.", "upTo must be a notification id.")),
  }),
  z.object({
    ids: z
      .array(notificationId("Each id must be a notification id."), { error: "ids must be a list of notification ids." })
      .check(z.minLength(1, "ids must name at least one notification."), z.maxLength(MAX_READ_IDS, `ids may name at most ${MAX_READ_IDS} notifications.`)),
  }),
], {
  // A body with ids hears what is wrong with them (too many, not ids), not the union's sentence;
  // one with all: true and an upTo, what is wrong with upTo.
  error: (issue) => {
    const has = (key: string) => typeof issue.input === "object" && issue.input !== null && key in issue.input;
    const problems = (issue as { errors?: { message: string; path?: PropertyKey[] }[][] }).errors;
    const idsProblem = problems?.[1]?.[0]?.message;
    const upToProblem = problems?.[0]?.find((p) => p.path?.[0] === "upTo")?.message;
    if (has("ids") && idsProblem) return idsProblem;
    if (has("all") && !has("ids") && upToProblem) return upToProblem;
    return "Send {ids: [...]} or {all: true}.";
  },
});

const kindList = (field: string) =>
  z
    .array(z.enum(NOTIFICATION_KINDS, { error: `Each kind must be ${oneOf(NOTIFICATION_KINDS)}.` }), { error: `${field} must be a list of notification kinds.` })
    .check(z.maxLength(NOTIFICATION_KINDS.length, `${field} may name at most ${NOTIFICATION_KINDS.length} kinds.`));

/**
 * PUT /api/user/notifications/settings: the kinds to mute, all of them (the others are received),
 * and the kinds to receive by mail too, all of them (absent: as they were).
 */
export const notificationSettingsSchema = z.object({
  muted: kindList("muted"),
  mailed: z.optional(kindList("mailed")),
});

export const adminGiftSchema = z.object({
  amount: giftAmount(),
});

export const decisionSchema = z.object({
  status: z.enum(DECISIONS, { error: `Status must be ${oneOf(DECISIONS)}.` }),
  /** Optional words to the member, shown in their requests; blank means none. */
  reason: z.optional(
    z
      .string({ error: "Reason must be text." })
      .check(
        z.trim(),
        z.maxLength(REASON_MAX_LENGTH, `Reason must be at most ${REASON_MAX_LENGTH} characters.`),
        noControlCharacters("Reason contains characters that are not allowed."),
        z.refine((text) => !REORDERING_CHARACTERS.test(text), "Reason contains characters that are not allowed."),
      ),
  ),
  /**
   * Accepting a withdrawal: the payout's transaction ID, optional (blank means none), checked
   * against the withdrawal's network on the server (./chain.ts). Nothing else takes one.
   */
  transactionId: z.optional(
    z.string({ error: "Payout transaction ID must be text." }).check(
      z.trim(),
      z.maxLength(200, "Payout transaction ID must be at most 200 characters."),
      noControlCharacters("Payout transaction ID contains characters that are not allowed."),
      z.superRefine((text, ctx) => {
        const problem = text === "" ? null : transactionIdCharacterProblem(text);
        if (problem) ctx.issues.push({ code: "custom", message: problem, input: text });
      }),
    ),
  ),
});

export const levelPriceSchema = z.object({
  cost: amount({ label: "Cost", min: MIN_LEVEL_PRICE, positiveMessage: `Cost must be ${formatAmount(MIN_LEVEL_PRICE)} or more.` }),
  unfreezeCost: amount({
    label: "Unfreeze cost",
    min: MIN_LEVEL_PRICE,
    positiveMessage: `Unfreeze cost must be ${formatAmount(MIN_LEVEL_PRICE)} or more.`,
  }),
});

export const newsletterSchema = z.object({ email });

// Query strings and path parameters

const PAGE_MSG = "Page must be a whole number from 1.";
const LIMIT_MSG = `Limit must be between 1 and ${MAX_PAGE_LIMIT}.`;
const searchText = z.string({ error: "Search text must be one text of at most 100 characters." }).check(z.trim(), z.maxLength(100, "Search text must be at most 100 characters."));
/** A whole number from the query string, from `min` to `max`, with one message for every miss. */
/**
 * A whole number in a path or a query: decimal digits only ("2", not "0x2", "2.0", "2e0" or " 2 "),
 * or a number when called from code; then from `min` to `max`.
 */
const wholeNumber = (min: number, max: number, message: string) =>
  z.pipe(
    z.pipe(
      z.union([z.string().check(z.regex(/^[0-9]{1,16}$/, message)), z.number({ error: message })], { error: message }),
      z.transform((value) => Number(value)),
    ),
    z.number({ error: message }).check(z.int(message), z.minimum(min, message), z.maximum(max, message)),
  );

/** `?page=`: 1 when absent. */
export const pageQuery = z.object({
  page: z._default(wholeNumber(1, 1_000_000, PAGE_MSG), 1),
});

/**
 * The admin's request lists: a page of `limit` requests (REQUEST_PAGE_SIZE by default), optionally
 * one status, optionally a text to look for.
 */
export const historyQuery = z.extend(pageQuery, {
  limit: z._default(wholeNumber(1, MAX_PAGE_LIMIT, LIMIT_MSG), REQUEST_PAGE_SIZE),
  status: z.optional(z.enum(REQUEST_STATUSES, { error: `Status must be ${oneOf(REQUEST_STATUSES)}.` })),
  search: z.optional(searchText),
});

/** The admin's user list: a page of `limit` users, optionally matching a text. */
export const userListQuery = z.extend(pageQuery, {
  limit: z._default(wholeNumber(1, MAX_PAGE_LIMIT, LIMIT_MSG), USER_PAGE_SIZE),
  search: z.optional(searchText),
});

/** `YYYY-MM-DD`, a real calendar day. */
const day = (label: string) =>
  z.string({ error: `${label} must be a date (YYYY-MM-DD).` }).check(
    z.regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a date (YYYY-MM-DD).`),
    z.refine((text) => !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text), `${label} must be a date (YYYY-MM-DD).`),
  );

/** An IANA time zone name the server knows (`Europe/Berlin`, `UTC`). */
const timeZone = z.string({ error: "Time zone must be a time zone name such as Europe/Berlin." }).check(
  z.maxLength(64, "Time zone must be a time zone name such as Europe/Berlin."),
  z.refine(isTimeZone, "Time zone must be a time zone name such as Europe/Berlin."),
);

/**
 * The statement's filters: one kind, and days from and to (both included) in time zone `tz` (the
 * browser's, whose dates the statement shows; UTC when absent).
 */
export const statementFilter = z.object({
  kind: z.optional(z.enum(STATEMENT_KINDS, { error: `Kind must be one of ${oneOf(STATEMENT_KINDS)}.` })),
  from: z.optional(day("From")),
  to: z.optional(day("To")),
  tz: z.optional(timeZone),
});

/** A page of the statement, filtered. */
export const statementQuery = z.extend(statementFilter, pageQuery.shape);

/** `?cycle=`: a matrix's cycle over the level's whole life; the current one when absent. */
export const matrixQuery = z.object({
  // Any whole number from 1: past the current cycle it is 404 cycle_not_found (matrixView.ts).
  cycle: z.optional(wholeNumber(1, Number.MAX_SAFE_INTEGER, "Cycle must be a whole number from 1.")),
});

/** `?days=`: how many days of earnings, ending today. */
export const earningsQuery = z.object({
  days: z._default(wholeNumber(1, EARNINGS_MAX_DAYS, `Days must be a whole number from 1 to ${EARNINGS_MAX_DAYS}.`), EARNINGS_DAYS),
});

/** `?of=`: the direct partners of a member of the caller's team (the caller's own when absent). */
const partnerId = () => z.optional(z.string({ error: "Partner not found." }).check(z.trim(), z.minLength(1, "Partner not found."), z.maxLength(64, "Partner not found.")));

/**
 * `?page=&of=&after=`: a page of the direct partners of `of` (the caller's when absent). With
 * `after` (the id of the last partner of the page before), the page is the partners after that
 * one: none is missed or repeated when partners join or leave between two pages.
 */
export const partnersQuery = z.extend(pageQuery, { of: partnerId(), after: partnerId() });

/** `?network=`: the member's own deposit address on that network. */
export const depositAddressQuery = z.object({
  network: z.enum(NETWORKS, { error: `Network must be ${oneOf(NETWORKS)}.` }),
});

/** Marking a member's deposit address swept: through `through` (ISO 8601; default now). */
export const sweptSchema = z.object({
  through: z.optional(z.iso.datetime({ offset: true, error: "Through must be a date and time (ISO 8601)." })),
});

/** `:network/:index`: one of the members' deposit addresses. */
export const depositAddressParam = z.object({
  network: z.enum(NETWORKS, { error: `Network must be ${oneOf(NETWORKS)}.` }),
  index: wholeNumber(0, 2 ** 31 - 1, "Index must be a whole number."),
});

/** `?page=&program=&level=`: the member's missed earnings, optionally of one program, or one level of it. */
export const missedQuery = z.extend(pageQuery, {
  program: z.optional(z.enum(PROGRAMS, { error: `Program must be ${oneOf(PROGRAMS)}.` })),
  level: z.optional(wholeNumber(1, LEVELS_PER_PROGRAM, `Level must be a whole number from 1 to ${LEVELS_PER_PROGRAM}.`)),
});

/** `?page=&type=`: the member's own requests, of one type or both. */
export const requestsQuery = z.extend(pageQuery, {
  type: z.optional(z.enum(REQUEST_TYPES, { error: `Type must be ${oneOf(REQUEST_TYPES)}.` })),
});

/**
 * The lists of one member's record (GET /api/admin/users/:id/...): `?page=&limit=`, a page of
 * `limit` rows (STATEMENT_PAGE_SIZE, the member's own page, by default; at most MAX_PAGE_LIMIT).
 */
const memberListLimit = { limit: z._default(wholeNumber(1, MAX_PAGE_LIMIT, LIMIT_MSG), STATEMENT_PAGE_SIZE) };
export const memberListQuery = z.extend(pageQuery, memberListLimit);
/** The member's statement, with the filters of their own (kind, from, to, tz). */
export const memberTransactionsQuery = z.extend(statementQuery, memberListLimit);
export const memberMissedQuery = z.extend(missedQuery, memberListLimit);
export const memberRequestsQuery = z.extend(requestsQuery, memberListLimit);

/** The gift form's recipient search. */
export const searchQuery = z.object({
  search: z
    .string({ error: MSG.searchTooShort })
    .check(z.trim(), z.minLength(SEARCH_MIN_LENGTH, MSG.searchTooShort), z.maxLength(100, "Search text must be at most 100 characters.")),
});

/** `:program`; an unknown one answers 404. */
export const programParam = z.object({
  program: z.enum(PROGRAMS, { error: "Program not found." }),
});

/** `:program/:level`; an unknown one answers 404. */
export const levelParam = z.extend(programParam, {
  level: wholeNumber(1, 99, MSG.levelNotFound),
});

export type LoginInput = z.input<typeof loginSchema>;
export type RegisterInput = z.input<typeof registerSchema>;
