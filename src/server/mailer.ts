import { createTransport } from "nodemailer";
import { claimDueMail, type ClaimedMail, markFailed, markSent, sweepSentMail } from "../core/mail/outbox";
import { renderMail } from "../core/mail/templates";
import { withoutQueryParams } from "../core/errors";
import type { Deps } from "./env";
import type { MailSettings } from "./mailConfig";
import { startPassLoop } from "./passLoop";

/**
 * Sends the mail outbox (docs/rules.md#account-recovery-and-mail), one mailer per server
 * process. Every MAIL_POLL_MS, and at once when a request of this process queued a mail
 * (`kick`), it claims due mails (src/core/mail/outbox.ts: SKIP LOCKED and a lease, so any number
 * of processes share one Postgres and each mail goes out once), renders them, hands them to the
 * SMTP server, and marks them sent. A mail the server does not take is tried again after a pause
 * that grows with each attempt (`retryAfterSeconds`), for as long as it takes: it is delayed,
 * never lost, and no request ever waits for it. Without SMTP_URL each mail's subject and link are
 * printed to the log instead, so the embedded default works end to end.
 */
export interface Mailer {
  /** Run a pass soon (a mail was just queued). */
  kick(): void;
  /** Run a pass now and answer what it did (tests). */
  runOnce(): Promise<MailPass>;
  /** Stop, after the pass in flight. */
  stop(): Promise<void>;
}

export interface MailPass {
  sent: number;
  failed: number;
}

/** One message as handed to the SMTP server. */
export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
}

/** Where mail goes: an SMTP server (nodemailer), or the log. */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

const MAIL_POLL_MS = 5_000;
const BATCH = 20;
/** Longer than one send can take (connection, greeting and socket time-outs below): then another process may take it. */
const LEASE_SECONDS = 120;
const SENT_KEPT_DAYS = 30;

/** 30 s after the first failure, doubling, at most an hour between two attempts. */
export const retryAfterSeconds = (attempt: number) => Math.min(30 * 2 ** Math.max(0, attempt - 1), 3_600);

export function smtpTransport(url: string): MailTransport {
  const transport = createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
  return {
    send: async (mail) => {
      await transport.sendMail({ ...mail, headers: { "Auto-Submitted": "auto-generated" } });
    },
    close: () => transport.close(),
  };
}

/** No SMTP server: a line per mail, with the link that matters, in the log. */
export function logTransport(print: (line: string) => void = console.log): MailTransport {
  return {
    send: async (mail) => {
      const link = /https?:\/\/\S+\?token=\S+/.exec(mail.text)?.[0];
      print(`Mail to ${mail.to}: ${mail.subject}${link ? ` ${link}` : ""} (SMTP_URL is not set: not sent)`);
    },
    close: () => {},
  };
}

export const transportFor = (mail: MailSettings): MailTransport => (mail.smtpUrl ? smtpTransport(mail.smtpUrl) : logTransport());

/** A refusal of the SMTP server about this one mail (a reply code) rather than the server not answering at all. */
const aboutThisMail = (error: unknown) => typeof (error as { responseCode?: unknown })?.responseCode === "number";

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ").trim();

export interface MailerOptions {
  transport?: MailTransport;
  pollMs?: number;
  batch?: number;
  /** Seconds before attempt `attempt + 1` of a mail that failed (tests shorten it). */
  retryAfter?: (attempt: number) => number;
  /** Start the timer (default); off, passes run only on runOnce (tests). */
  poll?: boolean;
}

export function startMailer(deps: Pick<Deps, "db" | "config" | "log">, options: MailerOptions = {}): Mailer {
  const { db } = deps;
  const settings = deps.config.mail;
  const transport = options.transport ?? transportFor(settings);
  const retryAfter = options.retryAfter ?? retryAfterSeconds;
  const batch = options.batch ?? BATCH;
  const periodMs = options.pollMs ?? MAIL_POLL_MS;
  const log = deps.log ?? ((message: string, error?: unknown) => console.error(message, error ?? ""));
  const host = new URL(settings.publicUrl).hostname || "localhost";
  async function send(mail: ClaimedMail): Promise<void> {
    const rendered = renderMail({ template: mail.template, to: mail.to, data: mail.data, at: mail.createdAt }, settings.publicUrl);
    // The same Message-ID for every attempt at one cause: a copy sent twice (a process that died
    // after the server took it, before marking it) reads as one message in the member's client.
    const messageId = `<${new Bun.CryptoHasher("sha256").update(mail.causeKey).digest("hex").slice(0, 32)}@${host}>`;
    await transport.send({ from: settings.from, to: mail.to, subject: rendered.subject, text: rendered.text, html: rendered.html, messageId });
    await markSent(db, mail, rendered.subject);
  }

  const pass = async (): Promise<MailPass> => {
    const result: MailPass = { sent: 0, failed: 0 };
    for (let round = 0; round < 10; round++) {
      const claimed = await claimDueMail(db, batch, LEASE_SECONDS);
      for (const [i, mail] of claimed.entries()) {
        try {
          await send(mail);
          result.sent++;
        } catch (error) {
          result.failed++;
          const reason = reasonOf(error);
          await markFailed(db, mail, reason, retryAfter(mail.attempt));
          if (aboutThisMail(error)) continue;
          // The server did not answer: the rest of the batch would only wait for it too.
          for (const rest of claimed.slice(i + 1)) await markFailed(db, rest, reason, retryAfter(rest.attempt));
          result.failed += claimed.length - i - 1;
          log(`mail: the SMTP server did not take ${claimed.length - i} mail(s); they are tried again later (${reason})`);
          return result;
        }
      }
      if (claimed.length < batch) break;
    }
    if (Math.random() < 0.02) await sweepSentMail(db, SENT_KEPT_DAYS);
    return result;
  };

  const loop = startPassLoop(pass, {
    periodMs,
    poll: options.poll !== false,
    failed: (error) => {
      log("mail: a pass of the mailer failed; it runs again at the next poll", withoutQueryParams(error));
      return { sent: 0, failed: 0 };
    },
  });
  return {
    kick: loop.soon,
    runOnce: loop.runOnce,
    stop: async () => {
      await loop.stop();
      transport.close();
    },
  };
}
