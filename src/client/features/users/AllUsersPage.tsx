import { useEffect, useState } from "react";
import { SEARCH_DEBOUNCE_MS } from "../../../shared/constants";
import { Field } from "../../components/Field";
import { Pagination } from "../../components/Pagination";
import { QueryState } from "../../components/QueryState";
import { useDebouncedValue } from "../../lib/useDebouncedValue";
import { type UserRow, useUsers } from "./api/getUsers";
import { SystemGiftModal } from "./SystemGiftModal";
import { UsersTable } from "./UsersTable";

/** Admin: every user, searchable, 10 per page, with delete and gift from system funds. */
export default function AllUsersPage() {
  const [text, setText] = useState("");
  const [page, setPage] = useState(1);
  const [giftTo, setGiftTo] = useState<UserRow | null>(null);
  const search = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const users = useUsers({ page, search });
  const totalPages = users.data?.totalPages ?? 1;

  // After a delete empties the last page, step back to the new last page.
  useEffect(() => {
    if (page > 1 && users.data && page > users.data.totalPages) setPage(Math.max(1, users.data.totalPages));
  }, [page, users.data]);

  return (
    <div className="flex flex-col gap-6">
      <h1 className="heading-gradient text-2xl font-bold">All Users</h1>
      <div className="max-w-md" role="search">
        <Field label="Search users">
          {(a11y) => (
            <input
              {...a11y}
              className="input"
              type="search"
              placeholder="Name or email"
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                setPage(1); // a new search starts on its first page
              }}
            />
          )}
        </Field>
      </div>
      <QueryState
        query={users}
        errorTitle="An Error Occurred"
        error="Failed to fetch users."
        empty="No users found for your search criteria."
        isEmpty={(data) => data.users.length === 0}
        loadingLabel="Loading users..."
      >
        {(data) => (
          <div className={users.isPlaceholderData ? "opacity-60" : ""}>
            <UsersTable users={data.users} onGift={setGiftTo} />
            <Pagination page={page} totalPages={totalPages} onChange={setPage} busy={users.isPlaceholderData} />
          </div>
        )}
      </QueryState>
      <SystemGiftModal user={giftTo} onClose={() => setGiftTo(null)} />
    </div>
  );
}
