import { useEffect, useState } from "react";
import { PagedQueryState } from "../../components/QueryState";
import { SearchBox } from "../../components/SearchBox";
import { useSearchText } from "../../lib/useSearchText";
import { type UserRow, useUsers } from "./api/getUsers";
import { DepositAddressesModal } from "./DepositAddressesModal";
import { SystemGiftModal } from "./SystemGiftModal";
import { UsersTable } from "./UsersTable";

/** Admin: every user, searchable, 10 per page, with delete, gift from system funds, and the member's own deposit addresses. */
export default function AllUsersPage() {
  const { text, setText, search } = useSearchText();
  const [page, setPage] = useState(1);
  const [giftTo, setGiftTo] = useState<UserRow | null>(null);
  const [addressesOf, setAddressesOf] = useState<UserRow | null>(null);
  const users = useUsers({ page, search });

  // After a delete empties the last page, step back to the new last page.
  useEffect(() => {
    if (page > 1 && users.data && page > users.data.totalPages) setPage(Math.max(1, users.data.totalPages));
  }, [page, users.data]);

  return (
    <div className="flex flex-col gap-6">
      <h1 className="heading-gradient text-2xl font-bold">All Users</h1>
      <SearchBox
        label="Search users"
        placeholder="Name or email"
        value={text}
        onChange={(next) => {
          setText(next);
          setPage(1); // a new search starts on its first page
        }}
      />
      <PagedQueryState
        query={users}
        page={page}
        onPage={setPage}
        errorTitle="An Error Occurred"
        error="Failed to fetch users."
        empty="No users found for your search criteria."
        isEmpty={(data) => data.users.length === 0}
        loadingLabel="Loading users..."
      >
        {(data) => <UsersTable users={data.users} onGift={setGiftTo} onAddresses={setAddressesOf} />}
      </PagedQueryState>
      <SystemGiftModal user={giftTo} max={users.data?.adminGiftMax} onClose={() => setGiftTo(null)} />
      <DepositAddressesModal user={addressesOf} onClose={() => setAddressesOf(null)} />
    </div>
  );
}
