import { brand, howItWorks as t } from "../../../ui/content";
import { PAGES } from "../../../shared/pages";
import { Document, type Assets } from "../Document";
import { SkipLink } from "../landing/LandingPage";
import type { LevelPrices } from "../pageData";
import { SiteFooter } from "../SiteFooter";
import { SiteHeader } from "../SiteHeader";
import type { SlotTables as Slots } from "../slots";
import { PriceTables } from "./PriceTables";
import { CycleSections, MoneySection, ReceiverSection } from "./RuleSections";
import { SlotTables } from "./SlotTables";

interface HowItWorksProps {
  assets: Assets;
  /** Current prices; empty lists when they could not be read (the page says so). */
  prices: LevelPrices;
  slots: Slots;
}

const CONTENTS = [
  { id: "programs", label: t.programs.title },
  { id: "slots", label: t.slots.title },
  { id: "cycles", label: t.cycles.title },
  { id: "unfreeze", label: t.unfreeze.title },
  { id: "receivers", label: t.receivers.title },
  { id: "money", label: t.money.title },
];

/**
 * /how-it-works: the rules of the money, complete with JavaScript off. Prices come from
 * program_levels, slot rules from the matrix code, the rest from the constants; it loads only
 * the landing page's small island.
 */
export function HowItWorksPage({ assets, prices, slots }: HowItWorksProps) {
  return (
    <Document title={`${t.title} | ${brand.name}`} description={t.lead} assets={assets}>
      <SkipLink />
      <div id="top" className="min-h-screen overflow-x-clip">
        <SiteHeader current={PAGES.howItWorks} />
        <main id="main">
          <header className="relative overflow-hidden">
            <div aria-hidden="true" className="pointer-events-none absolute inset-0 bg-glow" />
            <div className="relative mx-auto max-w-6xl px-4 pt-12 md:pt-16">
              <p className="m-0 mb-3 text-xs font-semibold uppercase tracking-wider text-figure-violet">{t.eyebrow}</p>
              <h1 className="m-0 text-display font-extrabold tracking-tight">
                <span className="heading-gradient">{t.title}</span>
              </h1>
              <p className="m-0 mt-5 max-w-3xl text-lg leading-relaxed text-fg-soft">{t.lead}</p>
              <nav aria-labelledby="contents-title" className="mt-8">
                <h2 id="contents-title" className="m-0 mb-3 text-sm font-semibold uppercase tracking-wider muted">{t.tocLabel}</h2>
                <ol className="m-0 flex list-none flex-wrap gap-2 p-0">
                  {CONTENTS.map((c) => (
                    <li key={c.id}>
                      <a href={`#${c.id}`} className="btn-secondary btn-sm text-sm">{c.label}</a>
                    </li>
                  ))}
                </ol>
              </nav>
            </div>
          </header>
          <div className="mx-auto max-w-6xl px-4">
            <PriceTables prices={prices} />
            <SlotTables slots={slots} />
            <CycleSections slots={slots} />
            <ReceiverSection />
            <MoneySection />
            <section aria-labelledby="start-title" className="pt-section">
              <div className="card flex flex-col gap-5 md:flex-row md:items-center md:justify-between">
                <div>
                  <h2 id="start-title" className="m-0 text-xl font-bold">{t.cta.title}</h2>
                  <p className="m-0 mt-1 text-sm muted">{t.cta.text}</p>
                </div>
                <div className="flex flex-wrap gap-3">
                  <a href={t.cta.register.href} className="btn-primary">{t.cta.register.label}</a>
                  <a href={t.cta.dashboard.href} className="btn-secondary">{t.cta.dashboard.label}</a>
                </div>
              </div>
            </section>
          </div>
        </main>
        <SiteFooter />
      </div>
      <div data-toast-region aria-live="polite" className="pointer-events-none fixed right-4 top-4 z-50 grid max-w-[calc(100vw-2rem)] gap-2" />
    </Document>
  );
}
