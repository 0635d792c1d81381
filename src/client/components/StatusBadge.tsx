import type { LevelStatus, RequestStatus } from "../../shared/constants";
import { Icon, type IconName } from "../../ui/icons";

export type Status = LevelStatus | RequestStatus;

/** Colour is never the only signal: every status also has its word and its icon. */
const LOOK: Record<Status, { label: string; className: string; icon: IconName }> = {
  active: { label: "Active", className: "badge-active", icon: "check" },
  frozen: { label: "Frozen", className: "badge-frozen", icon: "snowflake" },
  locked: { label: "Locked", className: "badge-locked", icon: "lock" },
  pending: { label: "Pending", className: "badge-pending", icon: "clock" },
  accepted: { label: "Accepted", className: "badge-accepted", icon: "check" },
  declined: { label: "Declined", className: "badge-declined", icon: "close" },
};

export function StatusBadge({ status }: { status: Status }) {
  const look = LOOK[status];
  return (
    <span className={`badge ${look.className} inline-flex items-center gap-1`}>
      <Icon name={look.icon} />
      {look.label}
    </span>
  );
}
