import { Link } from "react-router";
import { PROGRAMS } from "../../../shared/constants";
import { PAGES, referralLink } from "../../../shared/pages";
import { CopyButton } from "../../components/CopyButton";
import { Figure } from "../../components/Figure";
import { formatMoney } from "../../components/Money";
import { availableBalance, type Me } from "../../lib/me";
import { Avatar } from "../../layout/Avatar";
import { useReferrer } from "./api/getReferrer";
import { Icon } from "../../../ui/icons";

const rowLabel = "m-0 text-xs font-semibold uppercase tracking-wider muted";

export function IdentityCard({ user }: { user: Me }) {
  return (
    <section aria-labelledby="identity-title" className="card flex h-full flex-col gap-5 sm:flex-row sm:items-center">
      <h2 id="identity-title" className="sr-only">Account</h2>
      <Avatar name={user.name} size={72} />
      <dl className="m-0 grid min-w-0 flex-1 gap-4 sm:grid-cols-2">
        <div className="min-w-0">
          <dt className={rowLabel}>Name</dt>
          <dd className="m-0 mt-1 truncate text-lg font-semibold">{user.name}</dd>
        </div>
        <div className="min-w-0">
          <dt className={rowLabel}>Email</dt>
          <dd className="m-0 mt-1 break-all text-fg-soft">{user.email}</dd>
        </div>
        <div className="min-w-0 sm:col-span-2">
          <dt className={rowLabel}>Referrer</dt>
          <dd className="m-0 mt-1 text-fg-soft">
            <ReferrerText referredBy={user.referredBy} />
          </dd>
        </div>
      </dl>
    </section>
  );
}

function ReferrerText({ referredBy }: { referredBy: string | null }) {
  const referrer = useReferrer(referredBy);
  if (!referredBy) return <span className="muted">None: you are at the top of the tree.</span>;
  if (referrer.isPending) return <span className="muted">Loading...</span>;
  if (referrer.isError) return <span className="font-mono">{referredBy}</span>;
  return (
    <span>
      {referrer.data.name} <span className="font-mono text-sm muted">({referrer.data.myReferralId})</span>
    </span>
  );
}

export function BalanceCard({ user }: { user: Me }) {
  const rows = [
    { label: "Pending withdrawals", value: user.pendingWithdrawalsTotal },
    { label: "Available", value: availableBalance(user) },
  ];
  return (
    <section aria-labelledby="balance-title" className="card">
      <h2 id="balance-title" className="card-title">Balance</h2>
      <p className="m-0 text-4xl font-extrabold tabular-nums text-figure-green">
        <Figure>{formatMoney(user.balance)}</Figure>
      </p>
      <dl className="m-0 mt-4 grid gap-2 text-sm">
        {rows.map((r) => (
          <div key={r.label} className="flex justify-between gap-4 border-t border-line-subtle pt-2">
            <dt className="muted">{r.label}</dt>
            <dd className="m-0 tabular-nums">
              <Figure>{formatMoney(r.value)}</Figure>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export function ReferralCard({ user }: { user: Me }) {
  const link = referralLink(window.location.origin, user.myReferralId);
  const fields = [
    { id: "referral-id", label: "Referral ID", value: user.myReferralId, copy: "Copy ID" },
    { id: "referral-link", label: "Referral link", value: link, copy: "Copy link" },
  ];
  return (
    <section aria-labelledby="referral-title" className="card">
      <h2 id="referral-title" className="card-title">Invite partners</h2>
      <div className="grid gap-4">
        {fields.map((f) => (
          <div key={f.id}>
            <label htmlFor={f.id} className="field-label">{f.label}</label>
            <div className="flex gap-2">
              <input id={f.id} readOnly value={f.value} className="input min-w-0 font-mono text-sm" onFocus={(e) => e.currentTarget.select()} />
              <div className="shrink-0 whitespace-nowrap">
                <CopyButton text={f.value} label={f.copy} />
              </div>
            </div>
          </div>
        ))}
      </div>
    </section>
  );
}

export function ActivePackages({ user }: { user: Me }) {
  const active = PROGRAMS.flatMap((program) =>
    (user.packages[program]?.levels ?? []).filter((l) => l.status === "active").map((l) => ({ program, level: l.level })),
  );
  return (
    <section aria-labelledby="packages-title" className="card">
      <h2 id="packages-title" className="card-title">Active packages</h2>
      {active.length === 0 ? (
        <p className="m-0 muted">
          No active packages yet.{" "}
          <Link to={PAGES.package} className="link">Buy your first level</Link>
        </p>
      ) : (
        <ul className="m-0 flex list-none flex-wrap gap-2 p-0">
          {active.map((p) => (
            <li key={`${p.program}-${p.level}`} className="badge-active px-3 py-1 text-sm">
              <Icon name="check" /> {p.program.toUpperCase()} Level {p.level}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
