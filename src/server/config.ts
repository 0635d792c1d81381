import { availableParallelism } from "node:os";
import { isAbsolute, join, relative, resolve } from "node:path";
import type { ChainSettings } from "../core/chain/config";
import { CHAIN_CONFIG_HELP, loadChainConfig } from "./chainConfig";
import { loadMailConfig, MAIL_CONFIG_HELP, type MailSettings } from "./mailConfig";
import { decimalWhole, httpUrl } from "./envValues";
import { ADMIN_GIFT_MAX_DEFAULT, MAX_AMOUNT, PASSWORD_MIN_LENGTH } from "../shared/constants";
import { loginSchema } from "../shared/schemas";
import { type Cents, formatAmount, readDollars } from "../shared/money";

/** Everything the server reads from the environment, in one place. */
export interface Config {
  port: number;
  databaseUrl?: string;
  dataDir: string;
  jwtSecret?: string;
  adminEmail?: string;
  adminPassword?: string;
  depositWalletAddress: string;
  /** Origins allowed to call the API from a browser; empty means same origin only. */
  corsOrigins: string[];
  /** Largest request body accepted, in bytes. */
  bodyLimit: number;
  /**
   * TRUST_PROXY=n: the server sits behind n proxies of its operator's, each adding the address it
   * was reached from to X-Forwarded-For; the caller's address is the n-th from the end (what the
   * caller wrote there itself comes before). 0: the socket's address, and the header is ignored.
   */
  trustProxy: number;
  /** Sign-ups per source address per hour; 0 turns the limit off. */
  signupLimit: number;
  /** ADMIN_REQUIRE_2FA=1: an admin without two-factor reaches only the 2FA set-up routes. */
  adminRequire2fa: boolean;
  /** ADMIN_GIFT_MAX (dollars): the largest single admin gift, in cents. */
  adminGiftMax: Cents;
  /** Password hashes and checks running at once, and waiting beyond those, before `busy`. */
  hashConcurrency: number;
  hashQueue: number;
  /** Logins checked at once from one source address in this process, before `busy`; 0: no cap. */
  loginChecksPerSource: number;
  /** Deposits verified on chain, per network (./chainConfig.ts). */
  chain: ChainSettings;
  /** SMTP, the sender, and the site's address for links in mails (./mailConfig.ts). */
  mail: MailSettings;
  /** VERIFIED_EMAIL_TO_WITHDRAW=1: withdrawals of members who have not confirmed their address are refused. */
  verifiedEmailToWithdraw: boolean;
  /** The least severe log lines written (./logger.ts). */
  logLevel: LogLevel;
  /** METRICS_TOKEN: GET /metrics answers a Bearer of it; unset, loopback callers only (./metrics.ts). */
  metricsToken?: string;
  /** Where backups are written and listed (./backups.ts); outside the data folder. */
  backupDir: string;
  /** Hours between the embedded database's scheduled backups; 0: none. */
  backupIntervalHours: number;
  /** Backups kept in backupDir, the newest; at least 1. */
  backupKeep: number;
}

/** LOG_LEVEL's values, most to least severe; `silent` writes nothing. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const BACKUP_INTERVAL_DEFAULT = 24;
/** A year: a longer interval is no schedule. */
const BACKUP_INTERVAL_MAX = 8760;
const BACKUP_KEEP_DEFAULT = 7;

export const CONFIG_HELP: [name: string, meaning: string, fallback: string][] = [
  ["PORT", "HTTP port", "3000"],
  ["DATABASE_URL", "Postgres connection string; unset runs on embedded PGlite", "(unset)"],
  ["DATA_DIR", "PGlite data folder when DATABASE_URL is unset (one server process at a time)", "./data"],
  ["WORKERS", "server processes sharing PORT on Postgres (one that dies is started again); the embedded database is always one", "the number of CPUs"],
  ["JWT_SECRET", "secret that signs tokens; unset: generated at first start and kept in the database", "(generated)"],
  ["ADMIN_EMAIL", "e-mail of the admin created at first start", "admin@localhost"],
  ["ADMIN_PASSWORD", "password of that admin; unset: random, printed once in the log", "(random)"],
  ["DEPOSIT_WALLET_ADDRESS", "TRC20 address shown on the deposit page when TRC20_DEPOSIT_ADDRESS is unset", "(demo address)"],
  ["CORS_ORIGINS", "comma-separated origins allowed to call /api from other sites", "(same origin only)"],
  ["TRUST_PROXY", "n: behind n proxies of yours, each adding to X-Forwarded-For; the caller's address is the n-th hop from its end", "0 (the socket's address)"],
  ["SIGNUP_LIMIT", "sign-ups per source address per hour; 0 turns the limit off", "20"],
  ["LOGIN_CHECKS_PER_SOURCE", "logins checked at once from one source address (per server process), then 429 busy; 0 turns the cap off", "2"],
  ["ADMIN_REQUIRE_2FA", "1 (or true, yes, on): admins must turn on two-factor authentication before anything else", "0"],
  ["ADMIN_GIFT_MAX", "largest single gift an admin may send from system funds, in USDT (0.01 to 1,000,000)", formatAmount(ADMIN_GIFT_MAX_DEFAULT)],
  ["LOG_LEVEL", `least severe log lines written: ${LOG_LEVELS.join(", ")} (one JSON line per request at info)`, "info"],
  ["METRICS_TOKEN", "GET /metrics answers callers sending Authorization: Bearer <this>; unset: only callers on this machine (loopback, not through a proxy)", "(loopback only)"],
  ...CHAIN_CONFIG_HELP,
  ...MAIL_CONFIG_HELP,
  ["VERIFIED_EMAIL_TO_WITHDRAW", "1 (or true, yes, on): members must confirm their email address before a withdrawal (403 email_not_verified)", "0"],
  ["BACKUP_DIR", "folder of the backups (the admin's, the schedule's, bun run backup's); outside DATA_DIR", "DATA_DIR/../backups"],
  ["BACKUP_INTERVAL_HOURS", "hours between backups of the embedded database while the server runs; 0 turns them off (on Postgres: none, see bun run backup)", String(BACKUP_INTERVAL_DEFAULT)],
  ["BACKUP_KEEP", "backups kept in BACKUP_DIR (the newest); older ones are removed after each new one", String(BACKUP_KEEP_DEFAULT)],
];


/** `--reset-admin-password`: prints a new admin password (or sets ADMIN_PASSWORD) and signs the admin out everywhere. */
export const RESET_ADMIN_FLAG = "--reset-admin-password";

/** A yes-or-no variable: 1/true/yes/on or 0/false/no/off, in any case; unset or empty is `fallback`; anything else stops the start. */
function flag(name: string, value: string | undefined, fallback = false): boolean {
  const text = value?.trim().toLowerCase();
  if (!text) return fallback;
  if (["1", "true", "yes", "on"].includes(text)) return true;
  if (["0", "false", "no", "off"].includes(text)) return false;
  throw new Error(`${name} must be 1, true, yes or on (or 0, false, no, off), got ${value}`);
}

/** TRUST_PROXY: a number of proxies; "true" (as a flag) is one, "false" none. */
function proxyCount(value: string | undefined): number {
  const text = value?.trim().toLowerCase();
  if (text === "true") return 1;
  if (text === "false") return 0;
  return wholeNumber("TRUST_PROXY", text, 0);
}

/** Unset or blank: `fallback`; else decimal digits only. */
function wholeNumber(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === "") return fallback;
  const n = decimalWhole(value);
  if (n === undefined) throw new Error(`${name} must be a whole number of 0 or more, got ${value}`);
  return n;
}

/** A dollar amount from 0.01 to MAX_AMOUNT, as cents. */
function dollars(name: string, value: string | undefined, fallback: Cents): Cents {
  if (value === undefined || value.trim() === "") return fallback;
  const read = readDollars(value.trim());
  if ("problem" in read || read.cents < 1n || read.cents > MAX_AMOUNT) {
    throw new Error(`${name} must be an amount in USDT from 0.01 to ${formatAmount(MAX_AMOUNT)}, got ${value}`);
  }
  return read.cents;
}

export { DEMO_WALLET_ADDRESS } from "./chainConfig";

/** Shorter, a token's signature could be guessed: an HS256 key of 32 bytes at least (RFC 7518). */
const JWT_SECRET_MIN_LENGTH = 32;

function jwtSecret(value: string | undefined): string | undefined {
  if (value !== undefined && value.length < JWT_SECRET_MIN_LENGTH) {
    throw new Error(`JWT_SECRET must be at least ${JWT_SECRET_MIN_LENGTH} characters (it signs every token), got ${value.length}`);
  }
  return value;
}

/** The first admin's email, as a login reads it: one it could not sign in with is refused now. */
function adminEmail(value: string | undefined): string | undefined {
  if (value !== undefined && !loginSchema.shape.email.safeParse(value).success) throw new Error(`ADMIN_EMAIL must be an email address, got ${value}`);
  return value;
}

/** The admin's password, held to the members' rule (at least PASSWORD_MIN_LENGTH characters). */
function adminPassword(value: string | undefined): string | undefined {
  if (value !== undefined && value.length < PASSWORD_MIN_LENGTH) throw new Error(`ADMIN_PASSWORD must be at least ${PASSWORD_MIN_LENGTH} characters`);
  return value;
}

/** A CORS origin as browsers send it (scheme, host, port: `https://app.example.com`, no path or slash). */
function origin(value: string): string {
  const url = httpUrl(value);
  if (!url) throw new Error(`CORS_ORIGINS must list http(s) origins such as https://app.example.com, got ${value}`);
  return url.origin;
}

function logLevel(value: string | undefined): LogLevel {
  const text = value?.trim().toLowerCase();
  if (!text) return "info";
  if (!(LOG_LEVELS as readonly string[]).includes(text)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got ${value}`);
  return text as LogLevel;
}

/**
 * BACKUP_DIR, else the folder `backups` beside the data folder. Inside the data folder a backup
 * would hold the backups before it, and a restore would move them aside with the rest.
 */
function backupDir(value: string | undefined, dataDir: string): string {
  const dir = value?.trim() ? value.trim() : join(dataDir, "..", "backups");
  const inside = relative(resolve(dataDir), resolve(dir));
  if (inside === "" || (!inside.startsWith("..") && !isAbsolute(inside))) {
    throw new Error(`BACKUP_DIR must be outside DATA_DIR (${dataDir}), got ${value}`);
  }
  return dir;
}

/** Shorter, a token could be guessed by trying: the same floor as JWT_SECRET's. */
function metricsToken(value: string | undefined): string | undefined {
  if (value !== undefined && value.length < JWT_SECRET_MIN_LENGTH) throw new Error(`METRICS_TOKEN must be at least ${JWT_SECRET_MIN_LENGTH} characters, got ${value.length}`);
  return value;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const chain = loadChainConfig(env);
  // Unset or blank: 3000 (Number("") would be 0, a random port); else decimal digits, 0 to 65535.
  const port = env.PORT === undefined || env.PORT.trim() === "" ? 3000 : decimalWhole(env.PORT);
  if (port === undefined || port > 65535) throw new Error(`PORT must be a port number (0 to 65535), got ${env.PORT}`);
  const dataDir = env.DATA_DIR || "./data";
  const backupIntervalHours = wholeNumber("BACKUP_INTERVAL_HOURS", env.BACKUP_INTERVAL_HOURS, BACKUP_INTERVAL_DEFAULT);
  if (backupIntervalHours > BACKUP_INTERVAL_MAX) throw new Error(`BACKUP_INTERVAL_HOURS must be from 0 (off) to ${BACKUP_INTERVAL_MAX}, got ${env.BACKUP_INTERVAL_HOURS}`);
  const backupKeep = wholeNumber("BACKUP_KEEP", env.BACKUP_KEEP, BACKUP_KEEP_DEFAULT);
  if (backupKeep < 1) throw new Error(`BACKUP_KEEP must be 1 or more (the newest backups kept), got ${env.BACKUP_KEEP}`);
  return {
    port,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir,
    jwtSecret: jwtSecret(env.JWT_SECRET || undefined),
    adminEmail: adminEmail(env.ADMIN_EMAIL || undefined),
    adminPassword: adminPassword(env.ADMIN_PASSWORD || undefined),
    // The TRC20 deposit address: TRC20_DEPOSIT_ADDRESS, else DEPOSIT_WALLET_ADDRESS, else the demo one.
    depositWalletAddress: chain.networks.TRC20.depositAddress,
    corsOrigins: (env.CORS_ORIGINS ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean)
      .map(origin),
    bodyLimit: 64 * 1024,
    trustProxy: proxyCount(env.TRUST_PROXY),
    signupLimit: wholeNumber("SIGNUP_LIMIT", env.SIGNUP_LIMIT, 20),
    adminRequire2fa: flag("ADMIN_REQUIRE_2FA", env.ADMIN_REQUIRE_2FA),
    adminGiftMax: dollars("ADMIN_GIFT_MAX", env.ADMIN_GIFT_MAX, ADMIN_GIFT_MAX_DEFAULT),
    // argon2 is CPU and memory bound: two at a time per core keeps the cores busy, a bounded
    // queue behind them keeps a burst from making every sign-in wait.
    hashConcurrency: 2 * availableParallelism(),
    hashQueue: 32 * 2 * availableParallelism(),
    // One address cannot fill that queue for everyone: a person signs in once at a time.
    loginChecksPerSource: wholeNumber("LOGIN_CHECKS_PER_SOURCE", env.LOGIN_CHECKS_PER_SOURCE, 2),
    chain,
    mail: loadMailConfig(env, port),
    verifiedEmailToWithdraw: flag("VERIFIED_EMAIL_TO_WITHDRAW", env.VERIFIED_EMAIL_TO_WITHDRAW),
    logLevel: logLevel(env.LOG_LEVEL),
    metricsToken: metricsToken(env.METRICS_TOKEN || undefined),
    backupDir: backupDir(env.BACKUP_DIR, dataDir),
    backupIntervalHours,
    backupKeep,
  };
}
