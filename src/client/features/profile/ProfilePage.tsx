import { lazy, Suspense } from "react";
import { useMe } from "../../lib/me";
import { EarningsCard } from "./EarningsCard";
import { PartnersCounter } from "./PartnersCounter";
import { ActivePackages, BalanceCard, IdentityCard, ReferralCard } from "./ProfileCards";

// The forms arrive after the cards: the dashboard's first page carries only what it shows first.
const AccountSettings = lazy(() => import("./AccountSettings"));

/** The dashboard's index: who you are, who referred you, your team, money and invitation. */
export default function ProfilePage() {
  const { user } = useMe();
  // The dashboard's guard renders pages only once the user is loaded.
  if (!user) return null;
  return (
    <div className="grid gap-6">
      <header>
        <h1 className="m-0 text-2xl font-bold sm:text-3xl">
          <span className="heading-gradient">Profile</span>
        </h1>
        <p className="m-0 mt-1 muted">Welcome back, {user.name}.</p>
      </header>
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <IdentityCard user={user} />
        </div>
        <PartnersCounter total={user.totalPartners} />
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <BalanceCard user={user} />
        <ReferralCard user={user} />
      </div>
      <EarningsCard />
      <ActivePackages user={user} />
      <Suspense fallback={null}>
        <AccountSettings key={`${user.name}\u0001${user.email}`} user={user} />
      </Suspense>
    </div>
  );
}
