import { Field } from "../../components/Field";

/** The search box above a request history; the page debounces what it sends. */
export function HistorySearch({ value, onChange }: { value: string; onChange: (text: string) => void }) {
  return (
    <div className="max-w-md" role="search">
      <Field label="Search" hint="User name or email, wallet address or transaction ID.">
        {(a11y) => <input {...a11y} className="input" type="search" value={value} onChange={(e) => onChange(e.target.value)} />}
      </Field>
    </div>
  );
}
