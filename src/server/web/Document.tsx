import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { brand } from "../../ui/content";

export interface Assets {
  css: string[];
  /**
   * The stylesheet's text, when it is inlined in a <style> instead of linked (the landing-side
   * pages: nothing to fetch before the first paint; the CSP allows inline styles, not scripts).
   */
  inlineCss?: string;
  /** Module scripts, placed at the end of <body> so no script precedes the content. */
  scripts: string[];
  /** Chunks the entry imports statically, fetched in parallel with it. */
  preload: string[];
}

export const NO_ASSETS: Assets = { css: [], scripts: [], preload: [] };

interface DocumentProps {
  title: string;
  description?: string;
  assets: Assets;
  bodyClass?: string;
  children: ReactNode;
}

/** The one HTML document every server-rendered page uses. */
export function Document({ title, description = brand.blurb, assets, bodyClass = "page-bg", children }: DocumentProps) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        <meta name="description" content={description} />
        <meta name="theme-color" content="#0f172a" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {assets.inlineCss !== undefined ? (
          <style dangerouslySetInnerHTML={{ __html: assets.inlineCss }} />
        ) : (
          assets.css.map((href) => <link key={href} rel="stylesheet" href={href} />)
        )}
        {assets.preload.map((href) => (
          <link key={href} rel="modulepreload" href={href} />
        ))}
      </head>
      <body className={bodyClass}>
        {children}
        {/* Module scripts are deferred by nature; they sit last so the page paints first. */}
        {assets.scripts.map((src) => (
          <script key={src} type="module" src={src} />
        ))}
      </body>
    </html>
  );
}

export const renderDocument = (page: ReactNode) => `<!DOCTYPE html>${renderToString(page)}`;
