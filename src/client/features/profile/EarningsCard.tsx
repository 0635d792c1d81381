import { Link } from "react-router";
import { PAGES } from "../../../shared/pages";
import { Figure } from "../../components/Figure";
import { formatMoney } from "../../components/Money";
import { useEarnings } from "../earnings/api/getEarnings";

/** Lifetime earned and missed, with the way to the chart. */
export function EarningsCard() {
  const earnings = useEarnings();
  const rows = [
    { label: "Earned, all time", value: earnings.data?.lifetimeEarned, tone: "text-figure-green" },
    { label: "Missed, all time", value: earnings.data?.lifetimeMissed, tone: "text-pending" },
  ];
  return (
    <section aria-labelledby="earnings-title" className="card">
      <h2 id="earnings-title" className="card-title">Earnings</h2>
      {earnings.isError ? (
        <p className="m-0 muted">Could not load your earnings.</p>
      ) : (
        <dl className="m-0 grid gap-2 sm:grid-cols-2">
          {rows.map((r) => (
            <div key={r.label} className="flex flex-col gap-1">
              <dt className="muted text-sm">{r.label}</dt>
              <dd className={`m-0 text-2xl font-bold tabular-nums ${r.tone}`}>{r.value === undefined ? "…" : <Figure>{formatMoney(r.value)}</Figure>}</dd>
            </div>
          ))}
        </dl>
      )}
      <p className="m-0 mt-4">
        <Link to={PAGES.earnings} className="link">
          See earned and missed, day by day
        </Link>
      </p>
    </section>
  );
}
