// A real SMTP server inside the test process (smtp-server, from the nodemailer project): Paraph sends to it
// over TCP as it would to any mail server, and the tests read what arrived, parsed as a mail client would.
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { envelopeTo: string[]; envelopeFrom: string; mail: ParsedMail };

export type TestSmtpServer = {
  /** smtp://user:password@127.0.0.1:port */
  url: string;
  received: ReceivedMail[];
  /** Recipients refused so far (each answered 451, as a busy server does). */
  refusals: number;
  close(): Promise<void>;
};

export const SMTP_USER = 'paraph';
export const SMTP_PASSWORD = 'smtp-secret-9d1f';

export async function startTestSmtpServer(options: { refuseFirst?: number } = {}): Promise<TestSmtpServer> {
  const state: TestSmtpServer = {
    url: '',
    received: [],
    refusals: 0,
    close: async () => undefined,
  };
  let toRefuse = options.refuseFirst ?? 0;
  const server = new SMTPServer({
    // No TLS on the loopback: nodemailer sends the credentials only because the test says so.
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) {
        callback(null, { user: auth.username });
      } else {
        callback(new Error('Invalid username or password'));
      }
    },
    onRcptTo(_address, _session, callback) {
      if (toRefuse > 0) {
        toRefuse -= 1;
        state.refusals += 1;
        callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          state.received.push({
            envelopeTo: session.envelope.rcptTo.map((entry) => entry.address),
            envelopeFrom: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
            mail,
          });
          callback();
        })
        .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error))));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  state.url = `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}
