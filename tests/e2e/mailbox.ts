// The journeys' mail server: a real SMTP server (smtp-server) in the Playwright runner, which the e2e
// servers send to (SMTP_URL). Each message that arrives is written, parsed as a mail client reads it, to
// a folder the workers read: a journey opens a person's mailbox like that person would.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type StoredMail = { to: string[]; subject: string; text: string; html: string; receivedAt: string };

/** Starts the server; answers its URL. It lives as long as the runner process, and never holds it open. */
export async function startMailbox(dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          count += 1;
          const stored: StoredMail = {
            to: session.envelope.rcptTo.map((entry) => entry.address.toLowerCase()),
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : '',
            receivedAt: new Date().toISOString(),
          };
          const name = `${String(Date.now()).padStart(15, '0')}-${String(count).padStart(6, '0')}.json`;
          writeFileSync(path.join(dir, name), JSON.stringify(stored));
          callback();
        })
        .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error))));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.server.unref();
  const { port } = server.server.address() as AddressInfo;
  return `smtp://127.0.0.1:${port}`;
}

/** The messages that reached `email`, oldest first. */
export function mailsTo(email: string): StoredMail[] {
  const dir = process.env.PARAPH_E2E_MAILBOX;
  if (!dir) throw new Error('PARAPH_E2E_MAILBOX is not set: the global setup starts the mail server');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as StoredMail)
    .filter((mail) => mail.to.includes(email.toLowerCase()));
}

/** The absolute links of a message's text version, in order. */
export function linksIn(mail: StoredMail): string[] {
  return [...mail.text.matchAll(/https?:\/\/\S+/g)].map((match) => match[0]);
}
