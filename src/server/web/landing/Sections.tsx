import { shares, why } from "../../../ui/content";
import { PAGES } from "../../../shared/pages";
import { Icon } from "../../../ui/icons";

export function SectionHeading({ id, title, lead }: { id: string; title: string; lead: string }) {
  return (
    <div className="mx-auto mb-10 max-w-2xl text-center">
      <h2 id={id} className="m-0 text-title font-bold">
        <span className="heading-gradient">{title}</span>
      </h2>
      <p className="m-0 mt-3 text-fg-soft">{lead}</p>
    </div>
  );
}

export function WhyChooseUs() {
  return (
    <section id="why" aria-labelledby="why-title" className="mx-auto max-w-6xl scroll-mt-20 px-4 pt-section">
      <SectionHeading id="why-title" title={why.title} lead={why.lead} />
      <ul className="m-0 grid list-none gap-4 p-0 sm:grid-cols-2 lg:grid-cols-4">
        {why.items.map((item) => (
          <li key={item.title} className="card transition duration-200 hover:border-line-strong hover:-translate-y-0.5">
            <span className="mb-4 inline-flex size-11 items-center justify-center rounded-control bg-gradient-to-br from-brand-blue to-brand-violet text-2xl text-white">
              <Icon name={item.icon} />
            </span>
            <h3 className="m-0 mb-2 text-lg font-semibold">{item.title}</h3>
            <p className="m-0 text-sm leading-relaxed muted">{item.text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function BuySellShares() {
  return (
    <section id="shares" aria-labelledby="shares-title" className="mx-auto max-w-6xl scroll-mt-20 px-4 pt-section">
      <div className="grid items-center gap-10 md:grid-cols-2">
        <div>
          <h2 id="shares-title" className="m-0 text-title font-bold">
            <span className="heading-gradient">{shares.title}</span>
          </h2>
          <p className="m-0 mt-3 text-fg-soft">{shares.lead}</p>
          <ol className="m-0 mt-8 grid list-none gap-5 p-0">
            {shares.steps.map((step, i) => (
              <li key={step.title} className="flex gap-4">
                <span aria-hidden="true" className="flex size-9 shrink-0 items-center justify-center rounded-pill border border-line-strong font-bold text-figure-violet">
                  {i + 1}
                </span>
                <div>
                  <h3 className="m-0 text-base font-semibold">{step.title}</h3>
                  <p className="m-0 mt-1 text-sm muted">{step.text}</p>
                </div>
              </li>
            ))}
          </ol>
          <div className="mt-8 flex flex-wrap gap-3">
            <a href={PAGES.register} className="btn-primary">{shares.cta.buy}</a>
            <a href={PAGES.login} className="btn-secondary">{shares.cta.sell}</a>
          </div>
        </div>
        {/* A static market card: decoration that reads as a list for assistive technology. */}
        <div className="card">
          <p className="m-0 mb-4 flex items-center justify-between text-sm muted">
            <span>{shares.tickerTitle}</span>
            <span className="badge-active">{shares.tickerBadge}</span>
          </p>
          <ul className="m-0 grid list-none gap-3 p-0">
            {shares.ticker.map((row) => (
              <li key={row.pair} className="flex items-center justify-between rounded-control border border-line-subtle bg-ink/60 px-4 py-3">
                <span className="font-medium">{row.pair}</span>
                <span className="font-semibold tabular-nums text-figure-green">{row.change}</span>
              </li>
            ))}
          </ul>
          <svg viewBox="0 0 300 80" className="mt-5 h-20 w-full text-figure-blue" aria-hidden="true" focusable="false" preserveAspectRatio="none">
            <path d="M0 70 L30 62 L60 66 L90 48 L120 52 L150 36 L180 40 L210 24 L240 30 L270 14 L300 10" fill="none" stroke="currentColor" strokeWidth="2.5" vectorEffect="non-scaling-stroke" />
            <path d="M0 70 L30 62 L60 66 L90 48 L120 52 L150 36 L180 40 L210 24 L240 30 L270 14 L300 10 V80 H0 Z" fill="currentColor" fillOpacity=".12" />
          </svg>
        </div>
      </div>
    </section>
  );
}
