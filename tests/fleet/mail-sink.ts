// The fleet's mail server: a real SMTP server (smtp-server) that keeps what arrives, so the test can tell
// that each queued message was delivered once. Unlike the API tests' server, it expects its clients to
// die mid-conversation (an instance stopped or crashing), so a broken connection is noted, not thrown.
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type ReceivedMessage = { to: string; subject: string };

export type MailSink = {
  url: string;
  received: ReceivedMessage[];
  // Connections that ended in an error (a client that went away).
  brokenConnections: number;
  close(): Promise<void>;
};

export async function startMailSink(): Promise<MailSink> {
  const sink: MailSink = { url: '', received: [], brokenConnections: 0, close: async () => undefined };
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          for (const recipient of session.envelope.rcptTo) {
            sink.received.push({ to: recipient.address, subject: mail.subject ?? '' });
          }
          callback();
        })
        .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error))));
    },
  });
  server.on('error', () => {
    sink.brokenConnections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  sink.url = `smtp://127.0.0.1:${port}`;
  sink.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return sink;
}
