import { formatDollars } from "../../shared/money";
import { Figure } from "../components/Figure";
import { availableBalance, type Me } from "../lib/me";
import { Avatar } from "./Avatar";
import { Brand } from "../../ui/Brand";
import { Icon } from "../../ui/icons";
import { preloadLogout, useLogout } from "./useLogout";
import { NotificationBell } from "./NotificationBell";

interface HeaderProps {
  user: Me;
  /** Present for admins on mobile: opens the drawer. */
  onOpenMenu?: () => void;
  menuOpen?: boolean;
}

export function Header({ user, onOpenMenu, menuOpen = false }: HeaderProps) {
  const { logout, pending } = useLogout();
  return (
    <header className="sticky top-0 z-30 border-b border-line-subtle bg-ink/90 backdrop-blur">
      <div className="flex h-16 items-center gap-2 px-3 sm:gap-3 sm:px-6">
        {onOpenMenu && (
          <button
            type="button"
            onClick={onOpenMenu}
            aria-label="Open menu"
            aria-expanded={menuOpen}
            className="btn-secondary btn-sm size-10 p-0 text-xl lg:hidden"
          >
            <Icon name="menu" />
          </button>
        )}
        <div className="lg:hidden">
          <Brand compact />
        </div>
        <div className="ml-auto flex min-w-0 items-center gap-2 sm:gap-4">
          <p className="m-0 flex flex-col whitespace-nowrap rounded-pill border border-line bg-panel/70 px-3 py-1 text-sm sm:flex-row sm:items-baseline sm:gap-2 sm:py-1.5">
            <span className="hidden muted sm:inline">Balance</span>
            <span className="sr-only sm:hidden">Balance</span>
            <span className="font-bold tabular-nums text-figure-green">
              <Figure>{`${formatDollars(user.balance)} $`}</Figure>
            </span>
            {/* While a withdrawal is held, what can be spent: cents arithmetic, as everywhere. */}
            {user.pendingWithdrawalsTotal > 0n && (
              <span className="muted text-xs sm:text-sm">
                <Figure>{`· ${formatDollars(availableBalance(user))} $ available`}</Figure>
              </span>
            )}
          </p>
          <NotificationBell unread={user.unreadNotifications ?? 0} />
          <div className="flex min-w-0 items-center gap-2">
            <Avatar name={user.name} size={34} />
            <span className="max-w-16 truncate text-sm font-medium sm:max-w-40">{user.name}</span>
          </div>
          <button
            type="button"
            onClick={() => void logout()}
            onPointerEnter={preloadLogout}
            onFocus={preloadLogout}
            disabled={pending}
            className="btn-secondary btn-sm"
          >
            <Icon name="logout" className="text-base" />
            <span className="sr-only sm:not-sr-only">Sign Out</span>
          </button>
        </div>
      </div>
    </header>
  );
}
