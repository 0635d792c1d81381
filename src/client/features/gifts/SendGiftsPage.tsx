import { useState } from "react";
import { SEARCH_MIN_LENGTH } from "../../../shared/constants";
import { MSG } from "../../../shared/messages";
import { SearchBox } from "../../components/SearchBox";
import { useSearchText } from "../../lib/useSearchText";
import type { FoundUser } from "./api/searchUsers";
import { GiftModal } from "./GiftModal";
import { UserSearchResults } from "./UserSearchResults";

/** Find a user by name or email and send them part of your balance. */
export default function SendGiftsPage() {
  const { text, setText, search } = useSearchText();
  const [recipient, setRecipient] = useState<FoundUser | null>(null);
  const tooShort = text.trim().length < SEARCH_MIN_LENGTH;

  return (
    <div className="flex max-w-2xl flex-col gap-6">
      <h1 className="heading-gradient text-2xl font-bold">Send Gift</h1>
      <SearchBox
        className="card"
        label="Find a user"
        hint={tooShort ? MSG.searchTooShort : undefined}
        placeholder="Name or email"
        value={text}
        onChange={setText}
      />
      {/* Results follow the settled text only; a stale list never answers a newer query. */}
      {!tooShort && search.length >= SEARCH_MIN_LENGTH && <UserSearchResults text={search} onChoose={setRecipient} />}
      <GiftModal recipient={recipient} onClose={() => setRecipient(null)} />
    </div>
  );
}
