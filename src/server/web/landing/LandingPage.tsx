import { brand, hero } from "../../../ui/content";
import { Document, type Assets } from "../Document";
import { SiteFooter, type NewsletterNotice } from "../SiteFooter";
import { SiteHeader } from "../SiteHeader";
import type { PlatformStats } from "../../../core/platformStats";
import type { LevelPrices } from "../pageData";
import type { SlotTables } from "../slots";
import { Hero } from "./Hero";
import { PartnersMarquee, Programs } from "./Programs";
import { BuySellShares, WhyChooseUs } from "./Sections";

interface LandingProps {
  assets: Assets;
  prices: LevelPrices;
  /** The real platform figures; null when they could not be read. */
  figures: PlatformStats | null;
  slots: SlotTables;
  notice?: NewsletterNotice;
}

/** "/": complete and readable with JavaScript off; the island only adds conveniences. */
export function LandingPage({ assets, prices, figures, slots, notice }: LandingProps) {
  return (
    <Document title={`${brand.name} | ${hero.eyebrow}`} assets={assets}>
      <SkipLink />
      <div id="top" className="min-h-screen overflow-x-clip">
        <SiteHeader />
        <main id="main">
          <Hero figures={figures} />
          <WhyChooseUs />
          <BuySellShares slots={slots} />
          <Programs prices={prices} slots={slots} />
          <PartnersMarquee />
        </main>
        <SiteFooter notice={notice} />
      </div>
      {/* Where the island shows its small toast-like messages. */}
      <div data-toast-region aria-live="polite" className="pointer-events-none fixed right-4 top-4 z-50 grid max-w-[calc(100vw-2rem)] gap-2" />
    </Document>
  );
}

export function SkipLink() {
  return (
    <a href="#main" className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-50 btn-primary">
      Skip to content
    </a>
  );
}
