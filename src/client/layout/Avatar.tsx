import { useId } from "react";
import { avatarGradient, initials } from "./initials";

/** The user's initials on a brand-range gradient, drawn here (no external avatar service). */
export function Avatar({ name, size = 36, className = "" }: { name: string; size?: number; className?: string }) {
  const id = useId();
  const [from, to] = avatarGradient(name);
  return (
    <svg viewBox="0 0 40 40" width={size} height={size} aria-hidden="true" focusable="false" className={`shrink-0 ${className}`}>
      <defs>
        <linearGradient id={id} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor={from} />
          <stop offset="1" stopColor={to} />
        </linearGradient>
      </defs>
      <circle cx="20" cy="20" r="20" fill={`url(#${id})`} />
      <text x="20" y="20" dy=".35em" textAnchor="middle" fontSize="15" fontWeight="700" fill="#fff" fontFamily="system-ui, sans-serif">
        {initials(name)}
      </text>
    </svg>
  );
}
