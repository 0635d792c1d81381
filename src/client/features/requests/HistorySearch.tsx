import { SearchBox } from "../../components/SearchBox";

/** The search box above a request history; the page debounces what it sends. */
export function HistorySearch({ value, onChange }: { value: string; onChange: (text: string) => void }) {
  return <SearchBox label="Search" hint="User name or email, wallet address or transaction ID." value={value} onChange={onChange} />;
}
