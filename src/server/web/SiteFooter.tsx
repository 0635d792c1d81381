import { brand, footer } from "../../ui/content";
import { Logo } from "../../ui/Brand";
import { SiteIcon } from "../../ui/siteIcons";

/** What the no-JS newsletter form reports after the redirect back to the page. */
export type NewsletterNotice = { ok: boolean; text: string } | null;

/** Footer of the marketing site (spec section 1: every column, the newsletter and the 2017 line). */
export function SiteFooter({ notice = null }: { notice?: NewsletterNotice }) {
  return (
    <footer className="mt-section border-t border-line-subtle bg-ink-raised">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-14 sm:grid-cols-2 lg:grid-cols-4">
        <section aria-labelledby="footer-brand">
          <h2 id="footer-brand" className="m-0 mb-4 flex items-center gap-2 text-lg font-bold">
            <Logo size={28} />
            {` ${brand.name}`}
          </h2>
          <p className="m-0 mb-5 text-sm leading-relaxed muted">{brand.blurb}</p>
          <ul className="m-0 flex list-none gap-2 p-0">
            {footer.socials.map((s) => (
              <li key={s.icon}>
                <a href={s.href} aria-label={s.label} className="btn-secondary btn-sm size-10 p-0 text-lg">
                  <SiteIcon name={s.icon} />
                </a>
              </li>
            ))}
          </ul>
        </section>
        <nav aria-labelledby="footer-quick">
          <h2 id="footer-quick" className="footer-heading">Quick Links</h2>
          <ul className="m-0 grid list-none gap-2.5 p-0 text-sm">
            {footer.quickLinks.map((l) => (
              <li key={l.label}>
                <a href={l.href} className="footer-link">{l.label}</a>
              </li>
            ))}
          </ul>
        </nav>
        <section aria-labelledby="footer-services">
          <h2 id="footer-services" className="footer-heading">Our Services</h2>
          <ul className="m-0 grid list-none gap-2.5 p-0 text-sm text-fg-soft">
            {footer.services.map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ul>
        </section>
        <section id="contact" aria-labelledby="footer-contact">
          <h2 id="footer-contact" className="footer-heading">Get in Touch</h2>
          <address className="grid gap-3 text-sm not-italic text-fg-soft">
            <span className="flex gap-2"><SiteIcon name="pin" className="mt-0.5 text-figure-violet" />{footer.contact.address}</span>
            <a className="footer-link flex gap-2" href={`tel:${footer.contact.phone.replace(/[^+\d]/g, "")}`}>
              <SiteIcon name="phone" className="mt-0.5 text-figure-violet" />{footer.contact.phone}
            </a>
            <a className="footer-link flex gap-2 break-all" href={`mailto:${footer.contact.email}`}>
              <SiteIcon name="mail" className="mt-0.5 text-figure-violet" />{footer.contact.email}
            </a>
          </address>
        </section>
      </div>
      <NewsletterForm notice={notice} />
      <div className="border-t border-line-subtle">
        <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-3 px-4 py-6 text-sm muted md:flex-row">
          <p className="m-0">{`© ${brand.copyrightYear} ${brand.name}. All rights reserved.`}</p>
          <ul className="m-0 flex list-none flex-wrap justify-center gap-x-5 gap-y-2 p-0">
            {footer.legal.map((l) => (
              <li key={l.label}>
                <a href={l.href} className="footer-link">{l.label}</a>
              </li>
            ))}
          </ul>
        </div>
      </div>
      {/* A plain anchor, so it works without JavaScript; the island only hides it near the top. */}
      <a href="#top" id="to-top" aria-label="Scroll to top" className="btn-primary fixed bottom-5 right-5 z-30 size-11 rounded-pill p-0 text-xl">
        <SiteIcon name="up" />
      </a>
    </footer>
  );
}

function NewsletterForm({ notice }: { notice: NewsletterNotice }) {
  const { newsletter } = footer;
  return (
    <section id="newsletter" aria-labelledby="newsletter-title" className="mx-auto max-w-6xl px-4 pb-12">
      <div className="card flex flex-col gap-5 md:flex-row md:items-center md:justify-between">
        <div>
          <h2 id="newsletter-title" className="m-0 text-lg font-semibold">{newsletter.title}</h2>
          <p className="m-0 mt-1 text-sm muted">{newsletter.text}</p>
        </div>
        {/* Posts to /newsletter without JavaScript; the island sends it to /api/newsletter. */}
        <form action="/newsletter" method="post" data-newsletter className="flex w-full flex-col gap-2 sm:flex-row md:max-w-md">
          <label htmlFor="newsletter-email" className="sr-only">Email address</label>
          <input id="newsletter-email" name="email" type="email" required autoComplete="email" placeholder="you@example.com" className="input" />
          <button type="submit" className="btn-primary shrink-0">{newsletter.button}</button>
        </form>
      </div>
      <p role="status" data-newsletter-status className={`m-0 mt-3 min-h-5 text-sm ${notice?.ok === false ? "text-declined" : "text-active"}`}>
        {notice?.text}
      </p>
    </section>
  );
}
