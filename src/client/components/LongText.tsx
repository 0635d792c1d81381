import { Fragment } from "react";
import { CopyButton } from "./CopyButton";

/**
 * An email that wraps where it reads well, after "@" and dots, instead of mid-word.
 * The text itself is unchanged (<wbr> only offers break points), so it selects and copies whole.
 */
export function EmailText({ email, className = "" }: { email: string; className?: string }) {
  const parts = email.split(/(?<=[@.])/);
  return (
    <span className={`[overflow-wrap:anywhere] ${className}`}>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </span>
  );
}

/** Characters kept at each end of a shortened ID. */
const KEEP = 8;

/**
 * A wallet address or transaction hash in a table: "TXyz1234…9abcdef0" with the full value as
 * tooltip, for screen readers, and one click away on the copy button. Short values show whole.
 */
export function LongId({ value, label }: { value: string; label: string }) {
  const shortened = value.length > 2 * KEEP + 3;
  return (
    <span className="inline-flex items-center gap-2 whitespace-nowrap font-mono text-xs">
      {shortened ? (
        <span title={value}>
          <span aria-hidden="true">{`${value.slice(0, KEEP)}…${value.slice(-KEEP)}`}</span>
          <span className="sr-only">{value}</span>
        </span>
      ) : (
        <span>{value}</span>
      )}
      <CopyButton text={value} label={`Copy ${label}`} compact />
    </span>
  );
}
