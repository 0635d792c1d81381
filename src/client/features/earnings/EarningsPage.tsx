import { Link, useSearchParams } from "react-router";
import { EARNINGS_DAYS } from "../../../shared/constants";
import { PAGES } from "../../../shared/pages";
import { formatMoney, Money } from "../../components/Money";
import { QueryState } from "../../components/QueryState";
import { EARNINGS_RANGES, useEarnings, type Earnings } from "./api/getEarnings";
import { EarningsChart } from "./EarningsChart";

const readDays = (params: URLSearchParams): number => {
  const days = Number(params.get("days"));
  return (EARNINGS_RANGES as readonly number[]).includes(days) ? days : EARNINGS_DAYS;
};

/** "12 Mar 2026" for a UTC day written YYYY-MM-DD: the server's day, whatever the reader's time zone. */
const DAY = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" });
const dayText = (date: string) => {
  const time = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(time) ? date : DAY.format(time);
};

function Total({ label, value, tone, link }: { label: string; value: bigint; tone: string; link?: { to: string; text: string } }) {
  return (
    <div className="card flex flex-col gap-1">
      <span className="muted text-sm">{label}</span>
      <Money value={value} className={`text-2xl font-bold ${tone}`} />
      {link && (
        <Link to={link.to} className="link text-sm">
          {link.text}
        </Link>
      )}
    </div>
  );
}

/** The missed totals lead to the list of what was missed, payment by payment. */
const MISSED_LIST = { to: PAGES.missed, text: "See each missed payment" };

function Figures({ data, days }: { data: Earnings; days: number }) {
  const quiet = data.totalEarned === 0n && data.totalMissed === 0n;
  return (
    <>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Total label={`Earned, last ${days} days`} value={data.totalEarned} tone="text-figure-green" />
        <Total label={`Missed, last ${days} days`} value={data.totalMissed} tone="text-pending" link={data.totalMissed > 0n ? MISSED_LIST : undefined} />
        <Total label="Earned, all time" value={data.lifetimeEarned} tone="text-figure-green" />
        <Total label="Missed, all time" value={data.lifetimeMissed} tone="text-pending" link={MISSED_LIST} />
      </div>
      <section aria-labelledby="earnings-chart-title" className="card flex flex-col gap-3">
        <h2 id="earnings-chart-title" className="card-title mb-0">
          Earned and missed per day
        </h2>
        {quiet && <p className="m-0 muted">Nothing earned or missed in the last {days} days.</p>}
        <EarningsChart days={data.days} />
        <table className="sr-only">
          <caption>{`Earned and missed per day, last ${days} days (UTC)`}</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Earned</th>
              <th scope="col">Missed</th>
            </tr>
          </thead>
          <tbody>
            {data.days.map((day) => (
              <tr key={day.date}>
                <th scope="row">{dayText(day.date)}</th>
                <td>{formatMoney(day.earned)}</td>
                <td>{formatMoney(day.missed)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="m-0 muted text-sm">
          Missed: payments that passed you by because your level was frozen or not bought yet.{" "}
          <Link to={PAGES.missed} className="link">
            See each missed payment
          </Link>{" "}
          ·{" "}
          <Link to={PAGES.package} className="link">
            See your levels
          </Link>
        </p>
      </section>
    </>
  );
}

/** What the member earned and missed, day by day, over 7, 30 or 90 days. */
export default function EarningsPage() {
  const [params, setParams] = useSearchParams();
  const days = readDays(params);
  const earnings = useEarnings(days);

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="heading-gradient m-0 text-2xl font-bold">Earnings</h1>
        <div role="group" aria-label="Days shown" className="flex gap-1 rounded-pill border border-line bg-panel/70 p-1">
          {EARNINGS_RANGES.map((range) => (
            <button
              key={range}
              type="button"
              aria-pressed={range === days}
              className={`btn btn-sm focus-ring rounded-pill ${range === days ? "btn-primary" : "bg-transparent text-fg-soft hover:text-fg"}`}
              onClick={() => setParams(range === EARNINGS_DAYS ? {} : { days: String(range) }, { replace: true })}
            >
              {range} days
            </button>
          ))}
        </div>
      </div>
      <QueryState query={earnings} error="Could not load your earnings." empty="" isEmpty={() => false} loadingLabel="Loading your earnings...">
        {(data) => (
          <div className={`flex flex-col gap-6 ${earnings.isPlaceholderData ? "opacity-60" : ""}`} aria-busy={earnings.isPlaceholderData}>
            <Figures data={data} days={earnings.isPlaceholderData ? data.days.length : days} />
          </div>
        )}
      </QueryState>
    </div>
  );
}
