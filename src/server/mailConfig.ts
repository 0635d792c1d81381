import { BRAND_NAME } from "../shared/constants";
import { httpUrl } from "./envValues";

/**
 * Mail (docs/rules.md#account-recovery-and-mail): the SMTP server, the sender, and the site's
 * address that links in mails point to.
 */
export interface MailSettings {
  /** smtp:// or smtps://, user and password in the URL; undefined: mails are written to the log. */
  smtpUrl?: string;
  /** The From of every mail: an address, or `Name <address>`. */
  from: string;
  /** The site's address, without a trailing slash: `PUBLIC_URL/reset-password?token=...`. */
  publicUrl: string;
}

export const MAIL_CONFIG_HELP: [name: string, meaning: string, fallback: string][] = [
  ["SMTP_URL", "SMTP server mail goes through: smtp://user:password@host:587 (STARTTLS when offered) or smtps://user:password@host:465; unset: each mail's subject and link are printed to the log", "(unset: the log)"],
  ["MAIL_FROM", "sender of every mail: an address, or Name <address>", `"${BRAND_NAME}" <no-reply@the host of PUBLIC_URL>`],
  ["PUBLIC_URL", "the site's address, for the links in mails (http:// or https://)", "http://localhost:PORT"],
];

/** The URL with its password hidden, for a message that names it. */
function shown(url: URL): string {
  const copy = new URL(url.href);
  if (copy.password) copy.password = "***";
  return copy.href;
}

function smtpUrl(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value.trim());
  } catch {}
  // Its text may hold a password: a value that is no smtp(s) URL at all is not repeated.
  if (!url || (url.protocol !== "smtp:" && url.protocol !== "smtps:")) {
    throw new Error("SMTP_URL must be an smtp:// or smtps:// URL with a host, such as smtp://user:password@mail.example.com:587; the value given is not one");
  }
  if (url.hostname === "") throw new Error(`SMTP_URL must be an smtp:// or smtps:// URL with a host, such as smtp://user:password@mail.example.com:587, got ${shown(url)}`);
  return url.href;
}

/** `someone@host` or `Name <someone@host>`: what a From header holds. */
const FROM = /^(?:[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/;

export function loadMailConfig(env: Record<string, string | undefined>, port: number): MailSettings {
  const publicText = env.PUBLIC_URL?.trim();
  let publicUrl = `http://localhost:${port}`;
  if (publicText) {
    const url = httpUrl(publicText);
    if (!url || url.search || url.hash) throw new Error(`PUBLIC_URL must be the site's http:// or https:// address, such as https://matrix.example.com, got ${publicText}`);
    publicUrl = `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
  }
  const fromText = env.MAIL_FROM?.trim();
  if (fromText && !FROM.test(fromText)) throw new Error(`MAIL_FROM must be an address or Name <address>, got ${fromText}`);
  const host = new URL(publicUrl).hostname;
  return { smtpUrl: smtpUrl(env.SMTP_URL), from: fromText || `"${BRAND_NAME}" <no-reply@${host}>`, publicUrl };
}
