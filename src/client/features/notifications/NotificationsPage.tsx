import { lazy, Suspense, useState } from "react";
import { DateTime } from "../../components/DateTime";
import { QueryState } from "../../components/QueryState";
import { Pagination } from "../../components/Pagination";
import { Spinner } from "../../components/Spinner";
import { useMarkRead, useNotifications } from "./api/notifications";

/** The settings load on their own, after the list: most visits only read. */
const NotificationSettings = lazy(() => import("./NotificationSettings"));

/** The member's notifications, newest first; unread ones stand out and can be marked read. */
export default function NotificationsPage() {
  const [page, setPage] = useState(1);
  const query = useNotifications(page);
  const markRead = useMarkRead();
  return (
    <section aria-labelledby="notifications-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="notifications-title" className="m-0 text-2xl font-bold">
          Notifications
        </h1>
        <button
          type="button"
          className="btn-secondary btn-sm"
          disabled={markRead.isPending || !query.data || query.data.unread === 0}
          onClick={() => markRead.mutate({ all: true })}
        >
          Mark all as read
        </button>
      </div>
      <QueryState
        query={query}
        error="Your notifications could not be loaded."
        empty="No notifications yet. We will tell you here when something happens in your account."
        isEmpty={(data) => data.items.length === 0}
      >
        {(data) => (
          <>
            <ul className="m-0 flex list-none flex-col gap-2 p-0" aria-label="Notifications">
              {data.items.map((item) => (
                <li key={item.id} data-testid="notification" className={`card flex flex-wrap items-start gap-3 ${item.read ? "opacity-75" : "border-figure-green"}`}>
                  <p className="m-0 min-w-0 flex-1">
                    {!item.read && <span className="sr-only">Unread: </span>}
                    {item.text}
                  </p>
                  <span className="muted text-sm">
                    <DateTime value={item.createdAt} />
                  </span>
                  {!item.read && (
                    <button type="button" className="btn-secondary btn-sm" disabled={markRead.isPending} onClick={() => markRead.mutate({ ids: [item.id] })}>
                      Mark read
                    </button>
                  )}
                </li>
              ))}
            </ul>
            <Pagination page={page} totalPages={data.totalPages} onChange={setPage} busy={query.isFetching} />
          </>
        )}
      </QueryState>
      <Suspense fallback={<Spinner label="Loading notification settings" />}>
        <NotificationSettings />
      </Suspense>
    </section>
  );
}
