import type { ReactNode } from "react";
import { CheckIcon, ClockIcon, CrossIcon, LockIcon, SnowflakeIcon } from "./icons";

export type Status = "active" | "frozen" | "locked" | "pending" | "accepted" | "declined";

/** Colour is never the only signal: every status also has its word and its icon. */
const LOOK: Record<Status, { label: string; className: string; icon: ReactNode }> = {
  active: { label: "Active", className: "badge-active", icon: <CheckIcon /> },
  frozen: { label: "Frozen", className: "badge-frozen", icon: <SnowflakeIcon /> },
  locked: { label: "Locked", className: "badge-locked", icon: <LockIcon /> },
  pending: { label: "Pending", className: "badge-pending", icon: <ClockIcon /> },
  accepted: { label: "Accepted", className: "badge-accepted", icon: <CheckIcon /> },
  declined: { label: "Declined", className: "badge-declined", icon: <CrossIcon /> },
};

export function StatusBadge({ status }: { status: Status }) {
  const look = LOOK[status];
  return (
    <span className={`badge ${look.className} inline-flex items-center gap-1`}>
      {look.icon}
      {look.label}
    </span>
  );
}
