import { partners, programs } from "../../../ui/content";
import { SLOTS_PER_LEVEL } from "../../../shared/constants";
import { PAGES } from "../../../shared/pages";
import { formatDollars } from "../../../shared/money";
import { SiteIcon } from "../../../ui/siteIcons";
import type { LevelPrices } from "../pageData";
import type { SlotRow, SlotTables } from "../slots";
import { SectionHeading } from "./Sections";

/** Program cards with the live level prices (program_levels), so the marketing never lies about cost. */
export function Programs({ prices, slots }: { prices: LevelPrices; slots: SlotTables }) {
  return (
    <section id="programs" aria-labelledby="programs-title" className="mx-auto max-w-6xl scroll-mt-20 px-4 pt-section">
      <SectionHeading id="programs-title" title={programs.title} lead={programs.lead}>
        <a href={programs.more.href} className="link mt-4 inline-flex items-center gap-1.5">
          {programs.more.label} <SiteIcon name="arrow" />
        </a>
      </SectionHeading>
      <div className="grid gap-6 md:grid-cols-2">
        {programs.cards.map((card) => {
          const levels = prices[card.id];
          const first = levels[0];
          return (
            <article key={card.id} aria-labelledby={`program-${card.id}`} className="card flex flex-col">
              <header className="mb-4 flex flex-wrap items-start justify-between gap-3">
                <div>
                  <h3 id={`program-${card.id}`} className="m-0 text-2xl font-bold">{card.name}</h3>
                  <p className="m-0 mt-1 text-sm text-figure-violet">{card.tagline(SLOTS_PER_LEVEL[card.id])}</p>
                </div>
                {first && (
                  <p className="m-0 text-right">
                    <span className="block text-xs muted">{programs.fromLabel}</span>
                    <span className="text-2xl font-extrabold tabular-nums text-figure-green">{`${formatDollars(first.cost)} $`}</span>
                  </p>
                )}
              </header>
              <p className="m-0 mb-5 text-sm leading-relaxed text-fg-soft">{card.text}</p>
              <SlotPicture slots={slots[card.id]} />
              {levels.length > 0 && (
                <ol aria-label={`${card.name} level prices`} className="level-list">
                  {levels.map((l) => (
                    <li key={l.level}>
                      {`Level ${l.level}`}
                      <span className="level-price">{`${formatDollars(l.cost)} $`}</span>
                    </li>
                  ))}
                </ol>
              )}
              <a href={PAGES.register} className="btn-primary mt-6 self-start">{programs.join(card.name)}</a>
            </article>
          );
        })}
      </div>
    </section>
  );
}

/**
 * One level drawn as the owner above its slots (three in one row, or six in two rows), the
 * slots that pay the owner filled green, the ones that pass up outlined: decoration, as the
 * slot rules themselves are told in words on the shares card and /how-it-works.
 */
function SlotPicture({ slots }: { slots: SlotRow[] }) {
  const rows = slots.length === 6 ? [slots.slice(0, 2), slots.slice(2)] : [slots];
  return (
    <div aria-hidden="true" className="flex flex-col items-center gap-2 rounded-control bg-ink/50 py-4">
      <span className="size-8 rounded-pill bg-gradient-to-br from-brand-blue to-brand-violet" />
      {rows.map((row, r) => (
        <div key={r} className="flex gap-2">
          {row.map((slot) => (
            <span key={slot.slot} className={`slot-dot ${slot.rule === "paid" ? "border-figure-green bg-figure-green/25" : "border-line-strong"}`} />
          ))}
        </div>
      ))}
    </div>
  );
}

export function PartnersMarquee() {
  const row = (hidden: boolean) => (
    <ul aria-hidden={hidden || undefined} className={`m-0 flex shrink-0 list-none gap-4 p-0 pr-4 ${hidden ? "motion-reduce:hidden" : "motion-reduce:w-full motion-reduce:shrink motion-reduce:flex-wrap motion-reduce:justify-center"}`}>
      {partners.names.map((name) => (
        <li key={name}>
          <span>{name.slice(0, 1)}</span>
          {name}
        </li>
      ))}
    </ul>
  );
  return (
    <section id="partners" aria-labelledby="partners-title" className="scroll-mt-20 pt-section">
      <div className="mx-auto max-w-6xl px-4">
        <h2 id="partners-title" className="m-0 mb-8 text-center text-title font-bold">
          <span className="heading-gradient">{partners.title}</span>
        </h2>
      </div>
      {/* Two copies scroll by half their width for a seamless loop; reduced motion shows one, wrapped. */}
      <div className="partner-list overflow-hidden [mask-image:linear-gradient(90deg,transparent,black_8%,black_92%,transparent)]">
        <div className="flex w-max animate-[marquee_40s_linear_infinite] hover:[animation-play-state:paused] motion-reduce:w-full motion-reduce:animate-none">
          {row(false)}
          {row(true)}
        </div>
      </div>
    </section>
  );
}
