import type { Preflight, UserConfig } from "@unocss/core";
import presetWind4, { type Theme } from "@unocss/preset-wind4";
import { colors } from "./src/shared/tokens";

/**
 * The ONE set of design tokens and the shortcuts every screen uses. Components reach for these
 * names (bg-ink, text-muted, card, btn-primary...) and never for raw hex values, so the look can
 * change here in one place. The colour values live in src/shared/tokens.ts only so that inline
 * SVG (gradient stops) can read the same values at run time without loading UnoCSS.
 */

const theme: Theme = {
  colors,
  font: {
    sans: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
    mono: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  },
  radius: { control: "0.625rem", card: "1rem", pill: "9999px" },
  shadow: {
    glow: "0 0 0 1px rgb(124 58 237 / 0.18), 0 10px 30px -12px rgb(147 51 234 / 0.45)",
    raised: "0 12px 32px -12px rgb(2 6 23 / 0.8)",
  },
  duration: { fast: "150ms", base: "200ms", slow: "250ms" },
  spacing: { gutter: "1rem", section: "4.5rem" },
  text: {
    display: { fontSize: "clamp(2rem, 3.6vw + 1rem, 3.4rem)", lineHeight: "1.08" },
    title: { fontSize: "clamp(1.6rem, 2.5vw + 1rem, 2.4rem)", lineHeight: "1.2" },
  },
};

/**
 * Page basics, keyframes, sweetalert2's colours from our tokens, and short motion or none at
 * all for people who ask for less (design.md).
 */
const base: Preflight = {
  getCSS: () => `
html{color-scheme:dark;-webkit-text-size-adjust:100%}
body{margin:0;background:${colors.ink.DEFAULT};color:${colors.fg.DEFAULT}}
@media (prefers-reduced-motion: no-preference){html{scroll-behavior:smooth}}
@media (prefers-reduced-motion: reduce){*,::before,::after{animation-duration:.01ms!important;animation-iteration-count:1!important;transition-duration:.01ms!important;scroll-behavior:auto!important}}
.swal2-popup{--swal2-background:${colors.panel.DEFAULT};--swal2-color:${colors.fg.DEFAULT}}
@keyframes marquee{from{transform:translateX(0)}to{transform:translateX(-50%)}}
@keyframes spin{to{transform:rotate(360deg)}}
@keyframes slide-in{from{transform:translateX(-100%)}to{transform:none}}
@keyframes fade-in{from{opacity:0;transform:translateY(4px)}to{opacity:1;transform:none}}
`,
};

/** "#9333ea" -> "147_51_234" for arbitrary values (underscores stand for spaces in class names). */
const rgbOf = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join("_");

export const shortcuts: Record<string, string> = {
  "focus-ring":
    "outline-none focus-visible:outline-2 focus-visible:outline-solid focus-visible:outline-focus focus-visible:outline-offset-2",
  "page-bg": "min-h-screen bg-ink text-fg font-sans antialiased",
  muted: "text-muted",
  // The faint violet radial glow behind the hero and the login card.
  "bg-glow": `bg-[radial-gradient(ellipse_at_50%_0%,rgb(${rgbOf(colors.brand.violet)}/0.22),transparent_65%)]`,
  link: "text-figure-blue font-medium underline-offset-4 hover:underline focus-ring rounded-sm",
  "heading-gradient": "bg-gradient-to-r from-figure-blue to-figure-violet bg-clip-text text-transparent",

  card: "rounded-card border border-line/70 bg-panel/70 p-5 shadow-glow backdrop-blur-sm",
  "card-title": "m-0 mb-4 text-lg font-semibold text-fg",

  btn: "inline-flex min-h-10 cursor-pointer select-none items-center justify-center gap-2 rounded-control border border-transparent px-4 py-2 text-sm font-semibold leading-none no-underline transition duration-150 focus-ring disabled:cursor-not-allowed disabled:opacity-60",
  "btn-primary":
    "btn bg-gradient-to-r from-brand-blue to-brand-violet text-white shadow-glow hover:brightness-115 disabled:hover:brightness-100",
  "btn-secondary": "btn border-line bg-panel-strong text-fg hover:bg-panel hover:border-line-strong",
  "btn-danger": "btn bg-danger text-white hover:bg-danger-strong",
  "btn-sm": "min-h-8 px-3 py-1.5 text-xs",

  input:
    "block w-full min-h-10 rounded-control border border-line-field bg-ink-deep px-3 py-2 text-base text-fg placeholder:text-muted/80 transition duration-150 focus-ring focus:border-line-strong aria-[invalid=true]:border-declined",
  "field-label": "mb-1.5 block text-sm font-medium text-fg-soft",
  "field-error": "mt-1.5 text-sm text-declined",

  badge: "inline-flex items-center gap-1 whitespace-nowrap rounded-pill border px-2.5 py-0.5 text-xs font-semibold",
  "badge-active": "badge border-active/40 bg-active/12 text-active",
  "badge-frozen": "badge border-frozen/40 bg-frozen/12 text-frozen",
  "badge-locked": "badge border-locked/40 bg-locked/12 text-locked",
  "badge-pending": "badge border-pending/40 bg-pending/12 text-pending",
  "badge-accepted": "badge border-accepted/40 bg-accepted/12 text-accepted",
  "badge-declined": "badge border-declined/40 bg-declined/12 text-declined",

  table: "w-full border-collapse text-sm",
  th: "border-b border-line-subtle px-3 py-2.5 text-left text-xs font-semibold uppercase tracking-wide text-muted",
  td: "border-b border-line-subtle/60 px-3 py-2.5 align-middle text-fg-soft",
  "td-money": "td text-right tabular-nums whitespace-nowrap text-fg",

  // The 24-unit stroked line icon (src/ui/icons.tsx): its look in one rule, not in attributes on every icon.
  icon: "size-[1em] shrink-0 fill-none stroke-current stroke-[1.8] stroke-cap-round stroke-join-round",

  // The marketing site's repeated parts: one name each, so the landing's HTML does not spell the
  // same list on every link, chip and level (its size is a budget: docs/performance.md#pages).
  "site-link":
    "whitespace-nowrap rounded-control px-3 py-2 text-sm font-medium text-fg-soft no-underline hover:text-fg hover:bg-panel focus-ring aria-[current=page]:bg-panel aria-[current=page]:text-fg",
  "site-menu-link": "block rounded-control px-3 py-2.5 font-medium text-fg no-underline hover:bg-panel focus-ring aria-[current=page]:bg-panel",
  "footer-heading": "m-0 mb-4 text-sm font-semibold uppercase tracking-wider text-fg",
  "footer-link": "rounded-sm text-fg-soft no-underline hover:text-figure-blue focus-ring",
  "feature-mark":
    "mb-4 inline-flex size-11 items-center justify-center rounded-control bg-gradient-to-br from-brand-blue to-brand-violet text-2xl text-white",
  "step-mark": "flex size-9 shrink-0 items-center justify-center rounded-pill border border-line-strong font-bold text-figure-violet",
  "slot-chip": "inline-flex items-center gap-1 rounded-pill border px-2 py-0.5 text-xs font-semibold",
  "slot-paid": "slot-chip border-active/40 bg-active/12 text-active",
  "slot-up": "slot-chip border-line bg-panel text-figure-violet",
  "slot-dot": "size-6 rounded-pill border-2",
  // A list of levels and prices: each item a small tile, the level in small muted type, then its price.
  "level-list":
    "m-0 mt-5 grid list-none grid-cols-[repeat(auto-fill,minmax(6.75rem,1fr))] gap-2 p-0 *:flex *:flex-col *:rounded-control *:border *:border-line-subtle *:bg-ink/60 *:px-3 *:py-2 *:text-xs *:text-muted",
  "level-price": "whitespace-nowrap text-sm font-semibold tabular-nums text-fg",
  // The partners' names (in the lists under it): each a chip with its initial on a brand tile.
  "partner-list":
    "[&_li]:flex [&_li]:items-center [&_li]:gap-2.5 [&_li]:whitespace-nowrap [&_li]:rounded-card [&_li]:border [&_li]:border-line-subtle [&_li]:bg-panel/60 [&_li]:px-5 [&_li]:py-3 [&_li]:font-semibold [&_li]:text-fg-soft " +
    "[&_span]:flex [&_span]:size-7 [&_span]:items-center [&_span]:justify-center [&_span]:rounded-control [&_span]:bg-gradient-to-br [&_span]:from-brand-blue [&_span]:to-brand-violet [&_span]:text-xs [&_span]:font-bold [&_span]:text-white",
};

const config: UserConfig<Theme> = {
  // Variants only with ":" (hover:x). With "-" too, the `focus-ring` shortcut would be read as
  // the `focus:` variant of `ring` and never reach the shortcut.
  separators: [":"],
  presets: [presetWind4({ preflights: { reset: true } })],
  theme,
  shortcuts,
  preflights: [base],
  // Classes composed at runtime (e.g. `badge-${status}`) are listed so they always exist.
  safelist: ["badge-active", "badge-frozen", "badge-locked", "badge-pending", "badge-accepted", "badge-declined"],
};

export default config;
