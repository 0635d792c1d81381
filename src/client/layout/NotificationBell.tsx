import { Link } from "react-router";
import { PAGES } from "../../shared/pages";
import { Icon } from "../../ui/icons";

/** The header's bell: the unread count (from GET /api/auth), a link to the notifications page. */
export function NotificationBell({ unread }: { unread: number }) {
  const label = unread === 0 ? "Notifications" : `Notifications, ${unread} unread`;
  return (
    <Link to={PAGES.notifications} aria-label={label} title={label} className="btn-secondary btn-sm relative size-10 p-0 text-xl">
      <Icon name="bell" />
      {unread > 0 && (
        <span aria-hidden="true" data-testid="unread-count" className="absolute -right-1 -top-1 min-w-5 rounded-pill bg-figure-green px-1 text-center text-xs font-bold text-ink">
          {unread > 99 ? "99+" : unread}
        </span>
      )}
    </Link>
  );
}
