import { BRAND_NAME, NOTIFICATION_KIND_INFO } from "../../shared/constants";
import { formatUsdt } from "../../shared/money";
import { PAGES } from "../../shared/pages";
import { colors } from "../../shared/tokens";

/**
 * The mails, each a subject, a text part and an HTML part in the site's look (the design
 * tokens of src/shared/tokens.ts, inline styles: mail clients drop style sheets). Rendered when
 * a mail is sent, from what its outbox row holds (`data`, written with its cause). Pure: no
 * database, no clock but the row's.
 */

export const MAIL_TEMPLATES = [
  "verify_email",
  "change_email",
  "reset_password",
  "password_reset",
  "password_changed",
  "email_changed",
  "new_signin",
  "two_factor_on",
  "two_factor_off",
  "withdrawal_requested",
  "withdrawal_decided",
  "notification",
] as const;
export type MailTemplate = (typeof MAIL_TEMPLATES)[number];

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  /** The link the mail carries, if any (printed to the log when no SMTP server is set). */
  link?: string;
}

/** What a mail is rendered from: the outbox row. */
export interface MailSource {
  template: MailTemplate;
  to: string;
  data: Record<string, unknown>;
  /** When its cause happened (the row's created_at). */
  at: Date;
}

/** How long each mailed link works, for the mails that say so (src/core/account.ts uses them). */
export const RESET_TOKEN_MINUTES = 30;
export const EMAIL_TOKEN_HOURS = 24;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** "2026-11-29 09:38 UTC": one reading of a time, whatever the reader's time zone. */
const when = (date: Date) => `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;

const textOf = (value: unknown, fallback = "") => (typeof value === "string" && value !== "" ? value : fallback);
const centsOf = (value: unknown) => (typeof value === "string" && /^\d+$/.test(value) ? BigInt(value) : 0n);

/** One mail's words: a heading, paragraphs, and at most one button. */
interface Content {
  subject: string;
  heading: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  /** After the button: what to do when it was not the reader. */
  after?: string[];
}

function contentOf(source: MailSource, site: string): Content {
  const { data, to } = source;
  const name = textOf(data.name, "member");
  const hello = `Hello ${name},`;
  const link = (page: string) => `${site}${page}?token=${encodeURIComponent(textOf(data.token))}`;
  const forgot = `${site}${PAGES.forgotPassword}`;
  const at = when(source.at);
  const notYou = (what: string) => `If this was not you, ${what}`;
  switch (source.template) {
    case "verify_email":
      return {
        subject: `Confirm your email address for ${BRAND_NAME}`,
        heading: "Confirm your email address",
        paragraphs: [hello, `Please confirm that ${to} is your address: open the link below. It works for ${EMAIL_TOKEN_HOURS} hours.`],
        action: { label: "Confirm my address", url: link(PAGES.confirmEmail) },
        after: ["If you did not sign up, you can ignore this mail."],
      };
    case "change_email":
      return {
        subject: "Confirm your new email address",
        heading: "Confirm your new email address",
        paragraphs: [hello, `You asked to make ${to} the address of your account. Open the link below to confirm it; until then your address stays as it is. It works for ${EMAIL_TOKEN_HOURS} hours.`],
        action: { label: "Use this address", url: link(PAGES.confirmEmail) },
        after: ["If you did not ask for this, you can ignore this mail."],
      };
    case "reset_password":
      return {
        subject: "Reset your password",
        heading: "Reset your password",
        paragraphs: [hello, `Someone, hopefully you, asked to reset the password of your account. Open the link below to choose a new one. It works once, for ${RESET_TOKEN_MINUTES} minutes.`],
        action: { label: "Choose a new password", url: link(PAGES.resetPassword) },
        after: ["If you did not ask for this, ignore this mail: your password stays as it is."],
      };
    case "password_reset":
      return {
        subject: "Your password was reset",
        heading: "Your password was reset",
        paragraphs: [hello, `The password of your account was reset on ${at} through a link mailed to this address, and every session was signed out.`],
        after: [notYou(`someone can read your mail: secure your mailbox, then reset the password again at ${forgot}.`)],
      };
    case "password_changed":
      return {
        subject: "Your password was changed",
        heading: "Your password was changed",
        paragraphs: [hello, `The password of your account was changed on ${at}, from the address ${textOf(data.source, "unknown")}. Every other session was signed out.`],
        after: [notYou(`reset your password at once: ${forgot}`)],
      };
    case "email_changed":
      return {
        subject: "Your email address was changed",
        heading: "Your email address was changed",
        paragraphs: [hello, `On ${at} the address of your account was changed from ${to} to ${textOf(data.newEmail)}. Mail about your account now goes there.`],
        after: [notYou("someone else may be using your account: contact the platform at once.")],
      };
    case "new_signin":
      return {
        subject: `New sign-in to your ${BRAND_NAME} account`,
        heading: "A new sign-in to your account",
        paragraphs: [
          hello,
          `Your account was signed in to from a browser it was not signed in from before, on ${at}.`,
          `Address: ${textOf(data.source, "unknown")}. Browser: ${textOf(data.browser, "unknown")}.`,
        ],
        after: [`If this was you, there is nothing to do. ${notYou(`change your password at once on the Security page, or reset it: ${forgot}`)}`],
      };
    case "two_factor_on":
      return {
        subject: "Two-factor authentication is on",
        heading: "Two-factor authentication is on",
        paragraphs: [hello, `Two-factor authentication was turned on for your account on ${at}. Logins now ask for a code from the authenticator app, and every other session was signed out.`],
        after: [notYou(`someone has your password and your session: reset your password at once (${forgot}) and use a recovery code to sign in.`)],
      };
    case "two_factor_off":
      return {
        subject: "Two-factor authentication is off",
        heading: "Two-factor authentication is off",
        paragraphs: [hello, `Two-factor authentication was turned off for your account on ${at}. Logins ask for the password only.`],
        after: [notYou(`change your password at once and turn it on again: ${forgot}`)],
      };
    case "withdrawal_requested":
      return {
        subject: `Withdrawal requested: ${formatUsdt(centsOf(data.amount))}`,
        heading: "A withdrawal was requested",
        paragraphs: [hello, `A withdrawal of ${formatUsdt(centsOf(data.amount))} to the ${textOf(data.accountType)} wallet ${textOf(data.accountNumber)} was requested from your account on ${at}. It waits for an admin's decision.`],
        after: [notYou("cancel it from your requests at once and change your password.")],
      };
    case "withdrawal_decided":
      return {
        subject: data.status === "accepted" ? "Your withdrawal was accepted" : "Your withdrawal was declined",
        heading: data.status === "accepted" ? "Your withdrawal was accepted" : "Your withdrawal was declined",
        paragraphs: [hello, textOf(data.text)],
      };
    case "notification": {
      const label = NOTIFICATION_KIND_INFO[textOf(data.kind) as keyof typeof NOTIFICATION_KIND_INFO]?.label ?? "A notification";
      return { subject: `${BRAND_NAME}: ${label}`, heading: label, paragraphs: [hello, textOf(data.text)] };
    }
  }
}

const C = colors;
const FONT = 'system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif';

function html(content: Content, site: string): string {
  const p = (text: string, style = "") => `<p style="margin:0 0 14px;line-height:1.55;${style}">${escapeHtml(text)}</p>`;
  const button = content.action
    ? `<p style="margin:22px 0"><a href="${escapeHtml(content.action.url)}" style="display:inline-block;background:${C.brand.blue};background-image:linear-gradient(90deg,${C.brand.blue},${C.brand.violet});color:#ffffff;text-decoration:none;font-weight:600;padding:12px 22px;border-radius:10px">${escapeHtml(content.action.label)}</a></p>` +
      `<p style="margin:0 0 14px;font-size:13px;line-height:1.5;color:${C.muted}">If the button does not work, copy this address into your browser:<br><a href="${escapeHtml(content.action.url)}" style="color:${C.figure.blue};word-break:break-all">${escapeHtml(content.action.url)}</a></p>`
    : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="dark"><title>${escapeHtml(content.subject)}</title></head>
<body style="margin:0;padding:0;background:${C.ink.DEFAULT};color:${C.fg.DEFAULT};font-family:${escapeHtml(FONT)}">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${C.ink.DEFAULT};padding:28px 12px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:${C.panel.DEFAULT};border:1px solid ${C.line.DEFAULT};border-radius:16px"><tr><td style="padding:28px">
<p style="margin:0 0 22px;font-weight:700;font-size:17px;color:${C.figure.violet}">${escapeHtml(BRAND_NAME)}</p>
<h1 style="margin:0 0 18px;font-size:22px;line-height:1.3;color:${C.fg.DEFAULT}">${escapeHtml(content.heading)}</h1>
${content.paragraphs.map((text) => p(text)).join("\n")}
${button}
${(content.after ?? []).map((text) => p(text, `color:${C.fg.soft}`)).join("\n")}
</td></tr></table>
<p style="margin:18px 0 0;font-size:12px;color:${C.muted}">${escapeHtml(BRAND_NAME)}, <a href="${escapeHtml(site)}" style="color:${C.muted}">${escapeHtml(site)}</a>. Security notices about your account are always mailed.</p>
</td></tr></table>
</body></html>`;
}

function text(content: Content, site: string): string {
  const parts = [content.heading, "", ...content.paragraphs.flatMap((p) => [p, ""])];
  if (content.action) parts.push(`${content.action.label}: ${content.action.url}`, "");
  for (const p of content.after ?? []) parts.push(p, "");
  parts.push(`-- ${BRAND_NAME}, ${site}`);
  return parts.join("\n");
}

/** The mail of an outbox row; `site` is PUBLIC_URL (no trailing slash). */
export function renderMail(source: MailSource, site: string): RenderedMail {
  const content = contentOf(source, site);
  return { subject: content.subject, text: text(content, site), html: html(content, site), link: content.action?.url };
}
