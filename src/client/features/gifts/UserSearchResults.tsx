import { EmptyState } from "../../components/EmptyState";
import { ErrorState } from "../../components/ErrorState";
import { Spinner } from "../../components/Spinner";
import { failureMessage } from "../../lib/serverMessage";
import { type FoundUser, useUserSearch } from "./api/searchUsers";

/** The users matching a settled search text, each with a button to gift them. */
export function UserSearchResults({ text, onChoose }: { text: string; onChoose: (user: FoundUser) => void }) {
  const search = useUserSearch(text);
  if (search.isPending) return <Spinner label="Searching..." />;
  // The server's sentence when it gave one (too many searches a minute says how long to wait).
  if (search.isError) return <ErrorState message={failureMessage(search.error, "An error occurred.")} onRetry={() => void search.refetch()} />;
  if (search.data.length === 0) return <EmptyState message="No users found." />;
  return (
    <ul className="flex flex-col gap-3" aria-label="Search results">
      {search.data.map((found) => (
        <li key={found.id} className="card flex flex-wrap items-center justify-between gap-3">
          <div className="min-w-0">
            <p className="truncate font-semibold">{found.name}</p>
            <p className="muted truncate text-sm">{found.email}</p>
          </div>
          <button type="button" className="btn btn-primary btn-sm focus-ring" onClick={() => onChoose(found)}>
            Send gift<span className="sr-only"> to {found.name}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
