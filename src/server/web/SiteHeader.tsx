import { brand, nav } from "../../ui/content";
import { PAGES } from "../../shared/pages";
import { Logo } from "../../ui/Brand";
import { SiteIcon } from "../../ui/siteIcons";

/**
 * The top bar of the marketing site. Works with JavaScript off (plain links); the landing
 * island swaps the Log In / Register pair for the avatar menu when a token is stored, and
 * reveals the mobile menu button it drives. `current`: the href of the page shown, marked as such.
 */
export function SiteHeader({ current }: { current?: string } = {}) {
  const here = (href: string) => (href === current ? "page" : undefined);
  return (
    <header className="sticky top-0 z-40 border-b border-line-subtle bg-ink/90 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-3 px-4">
        <a href={PAGES.home} className="flex shrink-0 items-center gap-2 rounded-control text-lg font-bold text-fg no-underline focus-ring">
          <Logo />
          <span className="hidden min-[400px]:inline">
            {brand.name.split(" ")[0]} <span className="heading-gradient">{brand.name.split(" ").slice(1).join(" ")}</span>
          </span>
          <span className="sr-only min-[400px]:hidden">{brand.name}</span>
        </a>
        <nav aria-label="Main" className="hidden flex-1 justify-center gap-1 lg:flex">
          {nav.map((link) => (
            <a key={link.href} href={link.href} aria-current={here(link.href)} className="site-link">
              {link.label}
            </a>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-2 lg:ml-0" data-auth-slot>
          <a href={PAGES.login} className="btn-secondary btn-sm">
            Log In
          </a>
          <a href={PAGES.register} className="btn-primary btn-sm">
            Register
          </a>
        </div>
        <button
          type="button"
          hidden
          data-nav-toggle
          aria-controls="mobile-nav"
          aria-expanded="false"
          aria-label="Open menu"
          className="btn-secondary btn-sm px-2.5 text-lg lg:hidden"
        >
          <SiteIcon name="menu" />
        </button>
      </div>
      <nav id="mobile-nav" aria-label="Main" hidden className="border-t border-line-subtle px-4 pb-4 pt-2 lg:hidden">
        <ul className="m-0 grid list-none gap-1 p-0">
          {nav.map((link) => (
            <li key={link.href}>
              <a href={link.href} aria-current={here(link.href)} className="site-menu-link">
                {link.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
