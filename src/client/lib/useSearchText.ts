import { useEffect, useState } from "react";
import { SEARCH_DEBOUNCE_MS } from "../../shared/constants";

/**
 * A search box's text, and the text to search for: trimmed, and only once typing has paused,
 * so one word costs one request, not one per key.
 */
export function useSearchText() {
  const [text, setText] = useState("");
  const search = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  return { text, setText, search };
}

/** `value`, but only once it has stopped changing for `delay` ms. */
function useDebouncedValue<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}
