import type { Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { compress } from "hono/compress";
import { subscribe } from "../../core/newsletter";
import { MSG } from "../../shared/messages";
import { isPage, PAGES, type PagePath } from "../../shared/pages";
import { newsletterSchema } from "../../shared/schemas";
import type { AppEnv } from "../env";
import { NO_ASSETS, renderDocument, type Assets } from "./Document";
import { HowItWorksPage } from "./howItWorks/HowItWorksPage";
import { LandingPage } from "./landing/LandingPage";
import { manifestReader, PUBLIC_DIR, type Manifest } from "./manifest";
import { NotFoundPage } from "./NotFoundPage";
import { levelPrices, platformFigures } from "./pageData";
import { ShellPage, type ShellKind } from "./ShellPage";
import type { NewsletterNotice } from "./SiteFooter";
import { slotTables } from "./slots";
import { servePublic } from "./static";

export interface WebOptions {
  /** The build manifest; default: read public/build/manifest.json. `null`: no assets. */
  manifest?: Manifest | null;
  publicDir?: string;
}

/** Client-routed pages, compared case-insensitively (/logIn, /Register...); the dashboard with every page below it. */
const SHELLS: { page: PagePath; nested?: boolean; kind: ShellKind; title: string }[] = [
  { page: PAGES.login, kind: "auth", title: "Log In" },
  { page: PAGES.register, kind: "auth", title: "Register" },
  { page: PAGES.dashboard, nested: true, kind: "dashboard", title: "Dashboard" },
];

/** The no-JS newsletter form comes back to "/" with one of these in ?newsletter=. */
const NOTICES: Record<string, NewsletterNotice> = {
  subscribed: { ok: true, text: MSG.subscribed },
  already: { ok: true, text: MSG.alreadySubscribed },
  invalid: { ok: false, text: "Please enter a valid email address." },
};

/** Pages and assets, mounted after the API by createApp(deps, { web: mountWeb }). */
export function mountWeb(app: Hono<AppEnv>, options: WebOptions = {}) {
  const fixed = options.manifest;
  const manifest = fixed !== undefined ? () => fixed : manifestReader();
  const assets = (bundle: "landing" | "app"): Assets => {
    const m = manifest();
    return m ? { css: m.css, scripts: [m[bundle].entry], preload: m[bundle].preload } : NO_ASSETS;
  };

  // HTML is small but compresses ~5x; assets come precompressed from the build instead.
  const html = (c: Context<AppEnv>, body: string, status: 200 | 404 = 200) =>
    c.html(body, status, { "Cache-Control": "no-cache" });

  app.get(PAGES.home, compress(), async (c) => {
    const [prices, figures] = await Promise.all([levelPrices(c), platformFigures(c)]);
    const notice = NOTICES[c.req.query("newsletter") ?? ""] ?? null;
    const page = <LandingPage assets={assets("landing")} prices={prices} figures={figures} slots={slotTables()} notice={notice} />;
    return html(c, renderDocument(page));
  });

  // Server-rendered like the landing page, and as light: its only script is the landing island.
  app.get("*", compress(), async (c, next) => {
    if (!isPage(c.req.path, PAGES.howItWorks)) return next();
    const prices = await levelPrices(c);
    return html(c, renderDocument(<HowItWorksPage assets={assets("landing")} prices={prices} slots={slotTables()} />));
  });

  app.post("/newsletter", bodyLimit({ maxSize: 4096 }), async (c) => {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const parsed = newsletterSchema.safeParse({ email: form.email });
    let outcome = "invalid";
    if (parsed.success) {
      const subscription = await subscribe(c.get("deps").db, parsed.data.email);
      outcome = subscription === "subscribed" ? "subscribed" : "already";
    }
    return c.redirect(`${PAGES.home}?newsletter=${outcome}#newsletter`, 303);
  });

  app.get("*", compress(), async (c, next) => {
    const shell = SHELLS.find((s) => isPage(c.req.path, s.page, s));
    if (!shell) return next();
    return html(c, renderDocument(<ShellPage assets={assets("app")} kind={shell.kind} title={shell.title} />));
  });

  app.use("*", servePublic(options.publicDir ?? PUBLIC_DIR));

  app.get("*", compress(), (c) => html(c, renderDocument(<NotFoundPage assets={assets("landing")} path={c.req.path} />), 404));
}
