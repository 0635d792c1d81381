import type { PasswordHasher, TokenClaims, TokenUser } from "../core/sessions";
import type { IdempotencyClaim } from "../core/idempotency";
import type { Db } from "../db/client";
import type { Config } from "./config";
import type { Logger } from "./logger";

export interface Deps {
  db: Db;
  config: Config;
  hasher: PasswordHasher;
  jwtSecret: string;
  log?: (message: string, error?: unknown) => void;
  /** Where the request log goes (./requestLog.ts); unset: nowhere. */
  logger?: Logger;
  /** The background job of deposits verified on chain (./chainWatcher.ts), poked by a new deposit. */
  chainWatcher?: { poke(): void };
  /** The mailer of the outbox (./mailer.ts), kicked once a request has queued a mail. */
  mailer?: { kick(): void };
}

export interface AppEnv {
  Variables: {
    deps: Deps;
    user: TokenUser;
    claims: TokenClaims;
    /** Set when a money call carries an Idempotency-Key. */
    idempotency?: IdempotencyClaim;
    /** The operation's answer (a refusal) was stored as its key's, in its transaction (transact). */
    answerKept?: boolean;
  };
}
