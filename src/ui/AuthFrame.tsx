import { useEffect, type ReactNode } from "react";
import { Brand } from "./Brand";
import { brand } from "./content";

interface AuthFrameProps {
  /** The browser tab's title, kept right when moving between login and register. */
  pageTitle?: string;
  title?: string;
  subtitle?: string;
  children?: ReactNode;
  /** The skeleton shown before the page's code arrives (also painted by the server shell). */
  busy?: boolean;
}

/** The login and register pages: one centred card on the dark page with a faint violet glow, no site chrome. */
export function AuthFrame({ pageTitle, title, subtitle, children, busy = false }: AuthFrameProps) {
  useEffect(() => {
    if (pageTitle) document.title = `${pageTitle} | ${brand.name}`;
  }, [pageTitle]);
  return (
    <div className="relative flex min-h-screen items-center justify-center px-4 py-10">
      <div aria-hidden="true" className="pointer-events-none fixed inset-0 bg-glow" />
      <main className="card relative w-full max-w-md p-6 sm:p-8" aria-busy={busy || undefined}>
        {busy ? (
          <Skeleton />
        ) : (
          <>
            <div className="mb-6 flex flex-col items-center gap-4 text-center">
              <Brand />
              <div>
                <h1 className="m-0 text-2xl font-bold heading-gradient">{title}</h1>
                {subtitle && <p className="m-0 mt-1.5 text-sm muted">{subtitle}</p>}
              </div>
            </div>
            {children}
          </>
        )}
      </main>
    </div>
  );
}

function Skeleton() {
  return (
    <>
      <div className="mx-auto mb-3 h-8 w-40 rounded-control bg-panel-strong" />
      <div className="mx-auto mb-8 h-6 w-28 rounded-control bg-panel-strong" />
      {[0, 1].map((i) => (
        <div key={i} className="mb-5">
          <div className="mb-2 h-4 w-24 rounded-control bg-panel-strong" />
          <div className="h-10 rounded-control border border-line-subtle bg-ink-deep" />
        </div>
      ))}
      <div className="h-10 rounded-control bg-gradient-to-r from-brand-blue to-brand-violet opacity-60" />
      <span className="sr-only">Loading, please wait...</span>
    </>
  );
}
