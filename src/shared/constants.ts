export const PROGRAMS = ["3p", "6p"] as const;
export type ProgramId = (typeof PROGRAMS)[number];
export const SLOTS_PER_LEVEL: Record<ProgramId, number> = { "3p": 3, "6p": 6 };
export const LEVELS_PER_PROGRAM = 12;
/** A level freezes when it completes this many cycles. */
export const FREEZE_AT_CYCLES = 2;

export const WITHDRAWAL_METHODS = ["USDT TRC20", "USDT BEP20"] as const;
export type WithdrawalMethod = (typeof WITHDRAWAL_METHODS)[number];

export const PASSWORD_MIN_LENGTH = 6;
export const USER_PAGE_SIZE = 10;
export const SEARCH_MIN_LENGTH = 3;
export const SEARCH_DEBOUNCE_MS = 500;
export const SEARCH_MAX_RESULTS = 10;
export const AUTH_REFETCH_MS = 30_000;
export const LOGOUT_DIALOG_MS = 2_000;
export const COPY_CONFIRM_MS = 2_000;
export const TOAST_MS = 3_000;
export const COUNTDOWN_SECONDS = 10;
export const MIN_DEPOSIT = 1;
export const MIN_WITHDRAWAL = 1;
export const MIN_GIFT = 0.01;

export const TOKEN_TTL_SECONDS = 24 * 60 * 60;
export const LOGIN_MAX_FAILURES = 10;
export const LOGIN_WINDOW_MINUTES = 15;
