/**
 * An expected refusal: the operation was not done, and `msg` says why in words a user
 * understands. The server maps each kind to one HTTP status.
 */
export type RefusalKind = "invalid" | "unauthorized" | "forbidden" | "not_found" | "conflict" | "unprocessable" | "throttled";

export class Refusal extends Error {
  constructor(
    readonly kind: RefusalKind,
    readonly msg: string,
  ) {
    super(msg);
    this.name = "Refusal";
  }
}

export const refuse = (kind: RefusalKind, msg: string): never => {
  throw new Refusal(kind, msg);
};
