import { COUNTDOWN_SECONDS } from "../../../shared/constants";
import { Icon } from "../../../ui/icons";
import { useCountdown, useCountUp } from "./useCountUp";

const COUNT_MS = 2000;

/**
 * 'Total Partners': counts up to the user's real team size (not the old app's fixed 156),
 * then a 10-second countdown, then 'Updated just now' and 'New Features Coming Soon!'.
 */
export function PartnersCounter({ total, countdownSeconds = COUNTDOWN_SECONDS }: { total: number; countdownSeconds?: number }) {
  const { value, done } = useCountUp(total, COUNT_MS);
  const left = useCountdown(countdownSeconds, done);
  return (
    <section aria-labelledby="partners-title" className="card flex flex-col items-center justify-center text-center">
      <h2 id="partners-title" className="m-0 flex items-center gap-2 text-sm font-semibold uppercase tracking-wider muted">
        <Icon name="partners" className="text-lg text-figure-violet" /> Total Partners
      </h2>
      {/* The moving figure is hidden from screen readers; they get the final one. */}
      <p className="m-0 my-3 text-5xl font-extrabold tabular-nums text-figure-blue" aria-hidden="true" data-testid="partners-count">
        {value.toLocaleString("en-US")}
      </p>
      <p className="sr-only">{total.toLocaleString("en-US")} partners</p>
      <div className="min-h-10 text-sm">
        {done && left > 0 && (
          <p className="m-0 muted">
            Refreshing in <span className="tabular-nums">{left}</span>s
          </p>
        )}
        {/* Only the outcome is announced, not every tick of the countdown. */}
        <div role="status">
          {done && left === 0 && (
            <>
              <p className="m-0 font-medium text-active">Updated just now</p>
              <p className="m-0 mt-1 font-semibold text-figure-violet">New Features Coming Soon!</p>
            </>
          )}
        </div>
      </div>
    </section>
  );
}
