import type { Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { compress } from "hono/compress";
import { Refusal } from "../../core/errors";
import { subscribe } from "../../core/newsletter";
import type { Db } from "../../db/client";
import { MSG } from "../../shared/messages";
import { isPage, PAGES, type PagePath } from "../../shared/pages";
import { newsletterSchema } from "../../shared/schemas";
import { sourceAddress } from "../middleware/source";
import { buildOf } from "../app";
import type { AppEnv } from "../env";
import { NO_ASSETS, renderDocument, type Assets } from "./Document";
import { HowItWorksPage } from "./howItWorks/HowItWorksPage";
import { LandingPage } from "./landing/LandingPage";
import { manifestReader, PUBLIC_DIR, type Manifest } from "./manifest";
import { NotFoundPage } from "./NotFoundPage";
import { FastPages, fastPagesOf, PageCache } from "./pageCache";
import { levelPrices, NO_PRICES, platformFigures } from "./pageData";
import { publicFile } from "./publicFiles";
import { ShellPage, type ShellKind } from "./ShellPage";
import type { NewsletterNotice } from "./SiteFooter";
import { slotTables } from "./slots";
import { servePublic } from "./static";

export interface WebOptions {
  /** The build manifest; default: read public/build/manifest.json. `null`: no assets. */
  manifest?: Manifest | null;
  publicDir?: string;
  /** The clock of the page cache (tests move it on). */
  now?: () => number;
}

/** How often the API's build header looks at the manifest again, at most. */
const BUILD_CHECK_MS = 1000;

/** Client-routed pages, compared case-insensitively (/logIn, /Register...); the dashboard with every page below it. */
const SHELLS: { page: PagePath; nested?: boolean; kind: ShellKind; title: string }[] = [
  { page: PAGES.login, kind: "auth", title: "Log In" },
  { page: PAGES.register, kind: "auth", title: "Register" },
  { page: PAGES.forgotPassword, kind: "auth", title: "Forgot password" },
  { page: PAGES.resetPassword, kind: "auth", title: "Reset password" },
  { page: PAGES.confirmEmail, kind: "auth", title: "Confirm email" },
  { page: PAGES.dashboard, nested: true, kind: "dashboard", title: "Dashboard" },
];

/** The no-JS newsletter form comes back to "/" with one of these in ?newsletter=. */
const NOTICES: Record<string, NewsletterNotice> = {
  subscribed: { ok: true, text: MSG.subscribed },
  already: { ok: true, text: MSG.alreadySubscribed },
  invalid: { ok: false, text: "Please enter a valid email address." },
  throttled: { ok: false, text: MSG.tooManySubscriptionsLater },
};

/**
 * Stylesheets as text, to inline in the landing-side pages: read once per build (the names are
 * content-hashed); undefined when a file cannot be read, and the pages link it instead.
 */
function stylesheetReader(root: string): (hrefs: string[]) => Promise<string | undefined> {
  const read = new Map<string, Promise<string | undefined>>();
  return (hrefs) => {
    if (hrefs.length === 0) return Promise.resolve(undefined);
    const key = hrefs.join("\n");
    let text = read.get(key);
    if (!text) {
      text = (async () => {
        const parts: string[] = [];
        for (const href of hrefs) {
          const file = publicFile(root, href);
          if (!file || !(await file.exists())) return undefined;
          parts.push(await file.text());
        }
        const css = parts.join("\n");
        return /<\/style/i.test(css) ? undefined : css;
      })().catch(() => undefined);
      if (read.size > 8) read.clear();
      read.set(key, text);
    }
    return text;
  };
}

/**
 * Pages and assets, mounted after the API by createApp(deps, { web: mountWeb }).
 *
 * The landing page (each newsletter notice a variant of its own), /how-it-works and the app
 * shells are the same for everyone: they are rendered once per content (prices, platform
 * figures, build) and served from memory, compressed ahead, with an ETag (./pageCache.ts).
 */
export function mountWeb(app: Hono<AppEnv>, options: WebOptions = {}) {
  const fixed = options.manifest;
  const manifest = fixed !== undefined ? () => fixed : manifestReader();
  const publicDir = options.publicDir ?? PUBLIC_DIR;
  const stylesheet = stylesheetReader(publicDir);
  const assets = (m: Manifest | null, bundle: "landing" | "app"): Assets =>
    m ? { css: m.css, scripts: [m[bundle].entry], preload: m[bundle].preload } : NO_ASSETS;
  /**
   * The landing-side pages inline their own stylesheet (only the rules they use): no request
   * before the first paint. A build without page stylesheets has them inline the dashboard's.
   */
  const landingAssets = async (m: Manifest | null, page: keyof NonNullable<Manifest["pageCss"]>): Promise<Assets> => {
    if (!m) return NO_ASSETS;
    const css = m.pageCss ? [m.pageCss[page]] : m.css;
    const inlineCss = await stylesheet(css);
    return { ...assets(m, "landing"), css, ...(inlineCss === undefined ? {} : { inlineCss }) };
  };

  // The API answers name it, so an open page can tell a real update from a reconnection. Looked
  // up at most once a second: the manifest's stat would otherwise come with every API call.
  let build = { at: Number.NEGATIVE_INFINITY, entry: undefined as string | undefined };
  buildOf.set(app, () => {
    const now = Date.now();
    if (now - build.at >= BUILD_CHECK_MS || now < build.at) build = { at: now, entry: manifest()?.app.entry };
    return build.entry;
  });
  // The server answers these pages ahead of the app once it has served them (serverFetch).
  fastPagesOf.set(app, new FastPages());
  // One cache per database (a test may mount one app on several).
  const caches = new WeakMap<Db, PageCache>();
  const pages = (c: Context<AppEnv>) => {
    const { db } = c.get("deps");
    let cache = caches.get(db);
    if (!cache) caches.set(db, (cache = new PageCache(db, manifest, options.now)));
    return cache;
  };

  app.get(PAGES.home, (c) => {
    const wanted = c.req.query("newsletter");
    const variant = wanted !== undefined && Object.hasOwn(NOTICES, wanted) ? wanted : "";
    return pages(c).serve(c, `home?${variant}`, async () => {
      const m = manifest();
      const [prices, figures, pageAssets] = await Promise.all([levelPrices(c), platformFigures(c), landingAssets(m, "landing")]);
      const notice = variant ? NOTICES[variant]! : null;
      const page = <LandingPage assets={pageAssets} prices={prices ?? NO_PRICES} figures={figures} slots={slotTables()} notice={notice} />;
      return { html: renderDocument(page), complete: prices !== null && figures !== null };
    });
  });

  // Server-rendered like the landing page, and as light: its only script is the landing island.
  app.get("*", async (c, next) => {
    if (!isPage(c.req.path, PAGES.howItWorks)) return next();
    return pages(c).serve(c, "how-it-works", async () => {
      const [prices, pageAssets] = await Promise.all([levelPrices(c), landingAssets(manifest(), "howItWorks")]);
      return { html: renderDocument(<HowItWorksPage assets={pageAssets} prices={prices ?? NO_PRICES} slots={slotTables()} />), complete: prices !== null };
    });
  });

  // A form too large to be one address is an invalid one: the page says so, as for any other.
  const newsletterBack = (c: Context<AppEnv>, outcome: string) => c.redirect(`${PAGES.home}?newsletter=${outcome}#newsletter`, 303);
  app.post("/newsletter", bodyLimit({ maxSize: 4096, onError: (c) => newsletterBack(c, "invalid") }), async (c) => {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const parsed = newsletterSchema.safeParse({ email: form.email });
    let outcome = "invalid";
    if (parsed.success) {
      try {
        const subscription = await subscribe(c.get("deps").db, parsed.data.email, sourceAddress(c));
        outcome = subscription === "subscribed" ? "subscribed" : "already";
      } catch (error) {
        if (!(error instanceof Refusal && error.code === "throttled")) throw error;
        outcome = "throttled";
      }
    }
    return newsletterBack(c, outcome);
  });

  app.get("*", async (c, next) => {
    const shell = SHELLS.find((s) => isPage(c.req.path, s.page, s));
    if (!shell) return next();
    return pages(c).serve(c, `shell:${shell.page}`, () => ({
      html: renderDocument(<ShellPage assets={assets(manifest(), "app")} kind={shell.kind} title={shell.title} />),
      complete: true,
    }));
  });

  app.use("*", servePublic(publicDir));

  // Each path its own page (it names the path): rendered per request, and rare.
  app.get("*", compress(), async (c) =>
    c.html(renderDocument(<NotFoundPage assets={await landingAssets(manifest(), "notFound")} path={c.req.path} />), 404, { "Cache-Control": "no-cache" }),
  );
}
