import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/** A mail as the test SMTP server received it, parsed (mailparser). */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  messageId?: string;
  /** The raw message's size in bytes. */
  size: number;
  /** The first link of ours with a token, if any. */
  link?: string;
  token?: string;
}

export const SMTP_USER = "mailer";
export const SMTP_PASSWORD = "smtp-secret";

/**
 * A real SMTP server on 127.0.0.1 (the npm `smtp-server` package) for the tests of the mail
 * outbox: it takes what the mailer sends (with the user and password of SMTP_URL), parses each
 * message with `mailparser`, and keeps it. `stop()` and `start()` again on the same port stand
 * for a server that is down for a while. `refuse` makes it answer every message with 451.
 */
export async function startSmtpServer(options: { port?: number } = {}) {
  const received: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  let refuse = false;
  let server: SMTPServer | undefined;
  let port = options.port ?? 0;

  const make = () =>
    new SMTPServer({
      disabledCommands: ["STARTTLS"],
      allowInsecureAuth: true,
      authMethods: ["PLAIN", "LOGIN"],
      logger: false,
      onAuth(auth, _session, callback) {
        if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) return callback(null, { user: auth.username });
        return callback(new Error("Invalid username or password"));
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", async () => {
          if (refuse) {
            const error = new Error("Try again later") as Error & { responseCode: number };
            error.responseCode = 451;
            return callback(error);
          }
          const raw = Buffer.concat(chunks);
          const parsed = await simpleParser(raw);
          const text = parsed.text ?? "";
          const link = /https?:\/\/\S+\?token=[A-Za-z0-9_-]+/.exec(text)?.[0];
          received.push({
            from: parsed.from?.text ?? "",
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject ?? "",
            text,
            html: typeof parsed.html === "string" ? parsed.html : "",
            messageId: parsed.messageId,
            size: raw.length,
            link,
            token: link ? new URL(link).searchParams.get("token") ?? undefined : undefined,
          });
          for (const wake of waiters.splice(0)) wake();
          callback();
        });
      },
    });

  async function start(): Promise<void> {
    server = make();
    await new Promise<void>((resolve, reject) => {
      server!.once("error", reject);
      server!.listen(port, "127.0.0.1", () => resolve());
    });
    port = (server.server.address() as { port: number }).port;
  }

  async function stop(): Promise<void> {
    const running = server;
    server = undefined;
    if (running) await new Promise<void>((resolve) => running.close(() => resolve()));
  }

  await start();
  return {
    received,
    get port() {
      return port;
    },
    /** SMTP_URL for this server, with its user and password. */
    get url() {
      return `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${port}`;
    },
    /** The mails sent to `address` (any case), in order. */
    to: (address: string) => received.filter((m) => m.to.some((t) => t.toLowerCase() === address.toLowerCase())),
    /** Waits until `count` mails arrived in all (at most `ms`). */
    async waitFor(count: number, ms = 10_000): Promise<void> {
      const until = Date.now() + ms;
      while (received.length < count) {
        if (Date.now() > until) throw new Error(`only ${received.length} of ${count} mails arrived`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    refuseAll: (on: boolean) => void (refuse = on),
    start,
    stop,
  };
}

export type SmtpServer = Awaited<ReturnType<typeof startSmtpServer>>;
