import { parseDollars } from "../../../shared/money";
import { formatMoney } from "../../components/Money";
import type { AuditEntry, AuditValues } from "./api/getAudit";

// The raw audit records in words. Unknown actions and fields (the server may add some) still read sensibly.

const ACTIONS: Record<string, string> = {
  deposit_decision: "Deposit decided",
  withdrawal_decision: "Withdrawal decided",
  level_price: "Level price changed",
  user_delete: "User deleted",
  admin_gift: "Gift from system funds",
  address_swept: "Deposit address marked swept",
};

/** "user_delete", "unfreezeCost" -> "user delete", "unfreeze cost". */
const humanize = (text: string) => text.replace(/_/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export const actionLabel = (action: string) => ACTIONS[action] ?? capitalize(humanize(action));

/** "3p/2" -> "3P · Level 2", the way the statement names a level. */
export function targetLabel({ targetType, targetId }: Pick<AuditEntry, "targetType" | "targetId">): { kind: string; id?: string } {
  const level = targetType === "level" ? /^(\w+)\/(\d+)$/.exec(targetId) : null;
  if (level) return { kind: `${level[1]!.toUpperCase()} · Level ${level[2]}` };
  return { kind: capitalize(humanize(targetType)), id: targetId };
}

const FIELDS: Record<string, string> = { userId: "user" };
const MONEY = new Set(["amount", "fee", "cost", "unfreezeCost", "cleared"]);
const DATE = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

const fieldLabel = (key: string) => FIELDS[key] ?? humanize(key);

function formatValue(key: string, value: unknown): string {
  if (value === null || value === undefined) return "none";
  if (typeof value === "boolean") return value ? "yes" : "no";
  // The trail records amounts as dollar text ("12.50"), read back exactly.
  const cents = MONEY.has(key) ? parseDollars(value) : null;
  if (cents !== null) return formatMoney(cents);
  if (key.endsWith("At") && typeof value === "string" && !Number.isNaN(Date.parse(value))) return DATE.format(new Date(value));
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export interface ChangeSummary {
  /** What the action set: "status pending → accepted", "fee 0.80 $". */
  changes: string[];
  /** What it was about but left as it was: "amount 10.00 $", "user u1". */
  context: string[];
}

/** The before and after records as readable lines, in the order the server wrote the fields. */
export function describeChange(before: AuditValues | null, after: AuditValues | null): ChangeSummary {
  const was = before ?? {};
  const now = after ?? {};
  const changes: string[] = [];
  const context: string[] = [];
  for (const [key, value] of Object.entries(now)) {
    const label = fieldLabel(key);
    if (!(key in was)) changes.push(`${label} ${formatValue(key, value)}`);
    else if (same(was[key], value)) context.push(`${label} ${formatValue(key, value)}`);
    else changes.push(`${label} ${formatValue(key, was[key])} → ${formatValue(key, value)}`);
  }
  for (const [key, value] of Object.entries(was)) {
    if (!(key in now)) context.push(`${fieldLabel(key)} ${formatValue(key, value)}`);
  }
  return { changes, context };
}
