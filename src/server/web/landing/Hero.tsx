import type { PlatformStats } from "../../../core/platformStats";
import { hero, stats } from "../../../ui/content";
import { formatUsdt } from "../../../shared/money";
import { HeroArt } from "./HeroArt";
import { SiteIcon } from "../../../ui/siteIcons";

const count = (n: number) => n.toLocaleString("en-US");

/** `figures`: the platform's real figures, or null when they could not be read (then none are shown). */
export function Hero({ figures }: { figures: PlatformStats | null }) {
  return (
    <section aria-labelledby="hero-title" className="relative overflow-hidden">
      {/* The faint violet glow of the old site, as a gradient instead of an image. */}
      <div aria-hidden="true" className="pointer-events-none absolute inset-0 bg-glow" />
      <div className="relative mx-auto grid max-w-6xl items-center gap-10 px-4 pb-12 pt-12 md:grid-cols-2 md:pt-20">
        <div>
          <p className="m-0 mb-4 inline-flex items-center gap-2 rounded-pill border border-line bg-panel/60 px-3 py-1 text-xs font-semibold uppercase tracking-wider text-figure-violet">
            <span aria-hidden="true" className="size-2 rounded-pill bg-figure-green" />
            {hero.eyebrow}
          </p>
          <h1 id="hero-title" className="m-0 text-display font-extrabold tracking-tight">
            <span className="heading-gradient">{hero.title}</span>
          </h1>
          <p className="m-0 mt-5 max-w-xl text-lg leading-relaxed text-fg-soft">{hero.lead}</p>
          <div className="mt-8 flex flex-wrap gap-3">
            <a href={hero.primaryCta.href} className="btn-primary px-6 py-3 text-base">
              {hero.primaryCta.label} <SiteIcon name="arrow" />
            </a>
            <a href={hero.secondaryCta.href} className="btn-secondary px-6 py-3 text-base">
              {hero.secondaryCta.label}
            </a>
          </div>
        </div>
        <HeroArt className="mx-auto h-auto w-full max-w-md md:max-w-none" />
      </div>
      {figures && <Figures figures={figures} />}
    </section>
  );
}

function Figures({ figures }: { figures: PlatformStats }) {
  // Whole dollars: the cents of a large sum say nothing here, and rounding down never overstates.
  const items = [
    { key: "paid-out", label: stats.paidOut, value: formatUsdt(figures.paidOut - (figures.paidOut % 100n)), tone: "text-figure-green", wide: true },
    { key: "members", label: stats.members, value: count(figures.members), tone: "text-figure-blue" },
    { key: "levels-active", label: stats.levelsActive, value: count(figures.levelsActive), tone: "text-figure-violet" },
  ];
  return (
    <section aria-labelledby="figures-title" className="relative mx-auto max-w-6xl px-4 pb-6">
      <h2 id="figures-title" className="sr-only">{stats.title}</h2>
      <dl className="m-0 grid grid-cols-2 gap-3 md:grid-cols-3">
        {items.map((s) => (
          <div key={s.key} data-figure={s.key} className={`card flex flex-col-reverse items-center gap-1 py-5 text-center ${s.wide ? "col-span-2 md:col-span-1" : ""}`}>
            <dt className="text-sm muted">{s.label}</dt>
            <dd className={`m-0 break-words text-3xl font-extrabold tabular-nums ${s.tone}`}>{s.value}</dd>
          </div>
        ))}
      </dl>
      <p className="m-0 mt-3 text-center text-xs muted">{stats.note}</p>
    </section>
  );
}
