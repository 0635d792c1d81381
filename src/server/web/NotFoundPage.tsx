import { brand } from "../../ui/content";
import { PAGES } from "../../shared/pages";
import { Document, type Assets } from "./Document";
import { SkipLink } from "./landing/LandingPage";
import { SiteFooter } from "./SiteFooter";
import { SiteHeader } from "./SiteHeader";

/** Any unknown page (not /api): the site chrome around a clear way back. */
export function NotFoundPage({ assets, path }: { assets: Assets; path: string }) {
  return (
    <Document title={`Page not found | ${brand.name}`} assets={assets}>
      <SkipLink />
      <div id="top" className="flex min-h-screen flex-col overflow-x-clip">
        <SiteHeader />
        <main id="main" className="relative flex flex-1 items-center justify-center px-4 py-20">
          <div aria-hidden="true" className="pointer-events-none absolute inset-0 bg-glow" />
          <div className="card relative max-w-lg text-center">
            <p className="m-0 text-6xl font-extrabold tabular-nums heading-gradient">404</p>
            <h1 className="m-0 mt-3 text-2xl font-bold">Page not found</h1>
            <p className="m-0 mt-3 break-words muted">
              There is no page at <code className="font-mono text-fg-soft">{path}</code>. It may have moved, or the link may be mistyped.
            </p>
            <div className="mt-6 flex flex-wrap justify-center gap-3">
              <a href={PAGES.home} className="btn-primary">Back to home</a>
              <a href={PAGES.dashboard} className="btn-secondary">Open your dashboard</a>
            </div>
          </div>
        </main>
        <SiteFooter />
      </div>
      <div data-toast-region aria-live="polite" className="pointer-events-none fixed right-4 top-4 z-50 grid gap-2" />
    </Document>
  );
}
