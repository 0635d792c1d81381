import type { ReactNode } from "react";
import { Field } from "./Field";

interface SearchBoxProps {
  label: string;
  value: string;
  onChange: (text: string) => void;
  hint?: ReactNode;
  placeholder?: string;
  /** The frame around the field (its width, or a card). */
  className?: string;
}

/** A labelled search field in a search landmark; the page debounces what it sends (useSearchText). */
export function SearchBox({ label, value, onChange, hint, placeholder, className = "max-w-md" }: SearchBoxProps) {
  return (
    <div className={className} role="search">
      <Field label={label} hint={hint}>
        {(a11y) => (
          <input
            {...a11y}
            className="input"
            type="search"
            placeholder={placeholder}
            autoComplete="off"
            value={value}
            onChange={(e) => onChange(e.target.value)}
          />
        )}
      </Field>
    </div>
  );
}
