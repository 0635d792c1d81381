import type { Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { compress } from "hono/compress";
import { listLevels } from "../../core/levels";
import { subscribe } from "../../core/newsletter";
import { PROGRAMS } from "../../shared/constants";
import { MSG } from "../../shared/messages";
import { isPage, PAGES, type PagePath } from "../../shared/pages";
import { newsletterSchema } from "../../shared/schemas";
import type { AppEnv } from "../env";
import { NO_ASSETS, renderDocument, type Assets } from "./Document";
import { LandingPage } from "./landing/LandingPage";
import type { LevelPrices } from "./landing/Programs";
import { manifestReader, PUBLIC_DIR, type Manifest } from "./manifest";
import { NotFoundPage } from "./NotFoundPage";
import { ShellPage, type ShellKind } from "./ShellPage";
import type { NewsletterNotice } from "./SiteFooter";
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
    const prices = await levelPrices(c);
    const notice = NOTICES[c.req.query("newsletter") ?? ""] ?? null;
    return html(c, renderDocument(<LandingPage assets={assets("landing")} prices={prices} notice={notice} />));
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

/** Level prices for the program cards; the page still renders (without prices) if the query fails. */
async function levelPrices(c: Context<AppEnv>): Promise<LevelPrices> {
  const { db, log } = c.get("deps");
  const prices: LevelPrices = { "3p": [], "6p": [] };
  try {
    for (const program of PROGRAMS) {
      prices[program] = (await listLevels(db, program)).map((l) => ({ level: l.level, cost: l.cost }));
    }
  } catch (error) {
    (log ?? console.error)("Landing page: level prices unavailable", error);
  }
  return prices;
}
