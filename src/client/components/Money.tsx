import { type Cents, formatDollars } from "../../shared/money";

interface MoneyProps {
  value: Cents;
  /** Statements show "+" on credits so direction never depends on colour alone. */
  signed?: boolean;
  className?: string;
}

/** "12.50 $": 2 decimals with the sign of the currency after the figure, as the spec writes it. */
export function Money({ value, signed = false, className = "" }: MoneyProps) {
  const text = `${signed && value > 0n ? "+" : ""}${formatDollars(value)} $`;
  return <span className={`tabular-nums whitespace-nowrap ${className}`}>{text}</span>;
}

/** The same text for places that need a string (toasts, dialogs); a no-break space keeps "$" with its figure. */
export const formatMoney = (value: Cents) => `${formatDollars(value)}\u00a0$`;
