import { AuthFrame } from "../../ui/AuthFrame";
import { PAGES } from "../../shared/pages";
import { brand } from "../../ui/content";
import { FullScreenLoader } from "../../ui/FullScreenLoader";
import { Document, type Assets } from "./Document";

export type ShellKind = "auth" | "dashboard";

/**
 * The document for the client-routed pages. Before the bundle runs it already paints the
 * frame the app will show (the login card outline, or the dashboard's loading screen), so
 * the first paint is never a blank white page. React replaces the content of #root; both
 * frames are the app's own components, so the hand-over does not flicker.
 */
export function ShellPage({ assets, kind, title }: { assets: Assets; kind: ShellKind; title: string }) {
  return (
    <Document title={`${title} | ${brand.name}`} assets={assets} bodyClass={kind === "dashboard" ? "page-bg bg-black" : "page-bg"}>
      <div id="root">{kind === "auth" ? <AuthFrame busy /> : <FullScreenLoader />}</div>
      <noscript>
        <p className="fixed inset-x-0 bottom-0 m-0 bg-danger p-4 text-center text-white">
          This page needs JavaScript. Please enable it, or visit the <a className="text-white underline" href={PAGES.home}>home page</a>.
        </p>
      </noscript>
    </Document>
  );
}
