import { hero, stats } from "../../../ui/content";
import { HeroArt } from "./HeroArt";
import { Icon } from "../../../ui/icons";

const FIGURE_TONES = ["text-figure-blue", "text-figure-violet", "text-figure-green", "text-figure-blue"];

export function Hero() {
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
              {hero.primaryCta.label} <Icon name="arrow" />
            </a>
            <a href={hero.secondaryCta.href} className="btn-secondary px-6 py-3 text-base">
              {hero.secondaryCta.label}
            </a>
          </div>
        </div>
        <HeroArt className="mx-auto h-auto w-full max-w-md md:max-w-none" />
      </div>
      <div className="relative mx-auto max-w-6xl px-4 pb-6">
        <dl className="m-0 grid grid-cols-2 gap-3 md:grid-cols-4">
          {stats.map((s, i) => (
            <div key={s.label} className="card flex flex-col-reverse items-center gap-1 py-5 text-center">
              <dt className="text-sm muted">{s.label}</dt>
              <dd className={`m-0 text-3xl font-extrabold tabular-nums ${FIGURE_TONES[i % FIGURE_TONES.length]}`}>{s.value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}
