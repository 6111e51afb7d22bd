import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server (smtp-server, nodemailer's author's) on a loopback port, started by a test:
 * it takes mail for anyone from a client that logs in with SMTP_TEST_USER, and keeps each message
 * with its text and HTML parts decoded.
 */

export const SMTP_TEST_USER = { user: 'ctf-mailer', pass: 'smtp-test-password' };

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  raw: string;
  /** The whole message with quoted-printable undone: the text and HTML parts' words. */
  decoded: string;
}

function decodeQuotedPrintable(s: string): string {
  return s
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export class SmtpTestServer {
  readonly mails: ReceivedMail[] = [];
  port = 0;
  private server: SMTPServer | null = null;
  private waiters: (() => void)[] = [];

  async start(): Promise<void> {
    const server = new SMTPServer({
      secure: false,
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      authMethods: ['PLAIN', 'LOGIN'],
      logger: false,
      onAuth: (auth, _session, callback) => {
        if (auth.username === SMTP_TEST_USER.user && auth.password === SMTP_TEST_USER.pass) {
          callback(null, { user: auth.username });
        } else callback(new Error('Invalid username or password'));
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const subject =
            /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)?.[1]?.replace(/\r?\n[ \t]/g, ' ') ?? '';
          this.mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            subject,
            raw,
            decoded: decodeQuotedPrintable(raw),
          });
          for (const w of this.waiters.splice(0)) w();
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    this.port = (server.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  env(): Record<string, string> {
    return {
      SMTP_URL: `smtp://${SMTP_TEST_USER.user}:${SMTP_TEST_USER.pass}@127.0.0.1:${this.port}`,
      MAIL_FROM: 'ctf@club.example',
    };
  }

  /** Waits until a mail to this address has arrived (the outbox sends it off the request's path). */
  async next(to: string, timeoutMs = 15_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.mails.findIndex((m) => m.to.includes(to));
      if (found >= 0) return this.mails.splice(found, 1)[0]!;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}

/** The first link to this path in a mail, with its token. */
export function linkIn(mail: ReceivedMail, path: string): URL {
  const m = new RegExp(`https?://[^\\s"<>]*${path.replace(/\//g, '\\/')}\\?token=[\\w%-]+`).exec(
    mail.decoded,
  );
  if (!m) throw new Error(`no ${path} link in the mail:\n${mail.decoded}`);
  return new URL(m[0]);
}
