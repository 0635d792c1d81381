import { useState } from "react";
import { SEARCH_DEBOUNCE_MS, SEARCH_MIN_LENGTH } from "../../../shared/constants";
import { MSG } from "../../../shared/messages";
import { Field } from "../../components/Field";
import { useDebouncedValue } from "../../lib/useDebouncedValue";
import type { FoundUser } from "./api/searchUsers";
import { GiftModal } from "./GiftModal";
import { UserSearchResults } from "./UserSearchResults";

/** Find a user by name or email and send them part of your balance. */
export default function SendGiftsPage() {
  const [text, setText] = useState("");
  const [recipient, setRecipient] = useState<FoundUser | null>(null);
  // Searching waits until typing has paused, so one word costs one request, not one per key.
  const settled = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const tooShort = text.trim().length < SEARCH_MIN_LENGTH;

  return (
    <div className="flex max-w-2xl flex-col gap-6">
      <h1 className="heading-gradient text-2xl font-bold">Send Gift</h1>
      <div className="card" role="search">
        <Field label="Find a user" hint={tooShort ? MSG.searchTooShort : undefined}>
          {(a11y) => (
            <input
              {...a11y}
              className="input"
              type="search"
              placeholder="Name or email"
              autoComplete="off"
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
          )}
        </Field>
      </div>
      {/* Results follow the settled text only; a stale list never answers a newer query. */}
      {!tooShort && settled.length >= SEARCH_MIN_LENGTH && <UserSearchResults text={settled} onChoose={setRecipient} />}
      <GiftModal recipient={recipient} onClose={() => setRecipient(null)} />
    </div>
  );
}
