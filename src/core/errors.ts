import { ERRORS, type ErrorCode } from "../shared/errors";

/**
 * An expected refusal: the operation was not done. `code` is one of the closed list in
 * src/shared/errors.ts, which gives it its HTTP status and its sentence; `msg` differs from that
 * sentence only when it carries a figure (the minutes left of a login throttle).
 */
export class Refusal extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly msg: string = ERRORS[code].msg,
    /** Seconds until trying again may succeed (throttling): sent as Retry-After. */
    readonly retryAfter?: number,
  ) {
    super(msg);
    this.name = "Refusal";
  }
}

export const refuse = (code: ErrorCode, msg?: string, retryAfter?: number): never => {
  throw new Refusal(code, msg, retryAfter);
};
