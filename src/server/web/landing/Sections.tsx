import type { ReactNode } from "react";
import { shares, why } from "../../../ui/content";
import { PROGRAMS } from "../../../shared/constants";
import { PAGES } from "../../../shared/pages";
import { SiteIcon } from "../../../ui/siteIcons";
import { paidPerCycle, programName, type SlotTables } from "../slots";

export function SectionHeading({ id, title, lead, children }: { id: string; title: string; lead: string; children?: ReactNode }) {
  return (
    <div className="mx-auto mb-10 max-w-2xl text-center">
      <h2 id={id} className="m-0 text-title font-bold">
        <span className="heading-gradient">{title}</span>
      </h2>
      <p className="m-0 mt-3 text-fg-soft">{lead}</p>
      {children}
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
            <span className="feature-mark">
              <SiteIcon name={item.icon} />
            </span>
            <h3 className="m-0 mb-2 text-lg font-semibold">{item.title}</h3>
            <p className="m-0 text-sm leading-relaxed muted">{item.text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function BuySellShares({ slots }: { slots: SlotTables }) {
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
                <span aria-hidden="true" className="step-mark">
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
        <SlotsCard slots={slots} />
      </div>
    </section>
  );
}

/** Each program's slots as the purchase code treats them (slotRule): which pay the owner, which pass up. */
function SlotsCard({ slots }: { slots: SlotTables }) {
  const c = shares.slotsCard;
  return (
    <div className="card">
      <div className="mb-4 flex items-center justify-between gap-3">
        <h3 className="m-0 text-base font-semibold">{c.title}</h3>
        <span className="badge-active">{c.badge}</span>
      </div>
      <ul className="m-0 grid list-none gap-3 p-0">
        {PROGRAMS.map((program) => {
          const rows = slots[program];
          return (
            <li key={program} className="rounded-control border border-line-subtle bg-ink/60 px-4 py-3">
              <p className="m-0 mb-2.5 text-sm font-medium">{c.program(programName(program))}</p>
              <ol className="m-0 flex list-none flex-wrap gap-1.5 p-0">
                {rows.map((row) => {
                  const paid = row.rule === "paid";
                  return (
                    <li key={row.slot} className={paid ? "slot-paid" : "slot-up"}>
                      <SiteIcon name={paid ? "check" : "up"} />
                      <span className="tabular-nums">{row.slot}</span>
                      <span className="sr-only">{paid ? c.paid : c.passedUp}</span>
                    </li>
                  );
                })}
              </ol>
              <p className="m-0 mt-2.5 text-xs muted">{c.perCycle(paidPerCycle(rows), rows.length)}</p>
            </li>
          );
        })}
      </ul>
      <p className="m-0 mt-4 flex flex-wrap items-center gap-x-4 gap-y-1 text-xs muted" aria-hidden="true">
        <span className="inline-flex items-center gap-1 text-active"><SiteIcon name="check" />{c.paid}</span>
        <span className="inline-flex items-center gap-1 text-figure-violet"><SiteIcon name="up" />{c.passedUp}</span>
      </p>
      <a href={c.link.href} className="link mt-4 inline-flex items-center gap-1.5 text-sm">
        {c.link.label} <SiteIcon name="arrow" />
      </a>
    </div>
  );
}
