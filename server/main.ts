// `npm start`: configuration from the environment, the server, demo data on first start, and the page
// image worker and the background jobs. Every line it writes is a pino JSON line, the start-up banner and a
// failed start included, so a log collector reads all of it; the banner's text is in its `msg`.
// On SIGTERM or SIGINT it drains: /readyz answers 503, the jobs and the image worker stop (claimed jobs and
// messages go back to the queue), Fastify stops taking connections and finishes the requests in flight,
// and the process exits 0; after PARAPH_SHUTDOWN_TIMEOUT_MS it exits 1 whatever is still running.
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { startImageWorker } from './images/worker.ts';
import { errorText, logOptions } from './http/logging.ts';
import { warmUpInspection } from './pdf/inspect.ts';
import { autodeleteIntervalMs, startAutodeletion } from './jobs/autodeletion.ts';
import { startCleanup } from './jobs/cleanup.ts';
import { idpAutoconfirmOptions, startIdpAutoconfirm } from './jobs/idp-autoconfirm.ts';
import { SIGNING_EXPIRY_INTERVAL_MS, startSigningExpiry } from './documents/signing-expiry.ts';
import { DEFAULT_MAIL_POLL_MS, DEFAULT_MAIL_STOP_GRACE_MS, startMailSender } from './mail/sender.ts';
import { REMINDER_INTERVAL_MS, startReminders } from './mail/reminders.ts';
import { DEMO_PASSWORD, seedDemo } from './seed.ts';
import { withStartLock } from './db/start-lock.ts';
import { checkAtStart, warnAboutBrowserAccess } from './start-checks.ts';

const IMAGE_POLL_MS = 1000;

type Log = Pick<pino.Logger, 'fatal' | 'error' | 'warn' | 'info'>;

// Until the app's logger exists (a wrong setting stops the start before it does); fatal lines always show.
let log: Log = pino(logOptions('info'));

// Anything that escapes is still one structured line, not a bare stack trace on stderr.
process.on('uncaughtException', (error) => {
  log.fatal({ err: error }, `uncaught error: ${errorText(error)}; exiting`);
  process.exit(1);
});
process.on('unhandledRejection', (reason) => {
  log.fatal({ err: reason }, `unhandled rejection: ${errorText(reason)}; exiting`);
  process.exit(1);
});

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const autodeleteEveryMs = autodeleteIntervalMs(process.env);
  const autoconfirm = idpAutoconfirmOptions(process.env);
  const app = await buildApp(config);
  log = app.log;
  await checkAtStart(app.deps);
  if (config.demo) {
    // Under the start lock: instances started together seed once, the others find it done.
    const seed = await withStartLock({ databaseUrl: config.databaseUrl }, () => seedDemo(app.deps));
    if (seed.seeded) app.log.info('demo data created');
    const accounts = seed.accounts.map((account) => account.email);
    // Loud on purpose: a demo server must never be mistaken for a real deployment.
    app.log.warn(
      { demo: true, accounts },
      [
        'DEMO MODE IS ON: not for real documents.',
        `Anyone can sign in to the demo accounts (${accounts.join(', ')}) with the published password ${DEMO_PASSWORD}.`,
        config.smtpUrl === null
          ? 'Messages are not e-mailed (SMTP_URL is not set): each signed-in person reads theirs at /dev/outbox.'
          : 'Messages are e-mailed through SMTP_URL; each signed-in person also sees theirs at /dev/outbox.',
        'Set PARAPH_DEMO=0 for real use.',
      ].join(' '),
    );
  }
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address() as AddressInfo | null;
  const port = address?.port ?? config.port;
  // PORT=0 picked a free port: links must name the real one.
  if (config.isPublicOriginDerived) config.publicOrigin = `http://localhost:${port}`;
  // Once the origin is final, without holding up the start: never fatal, the server itself can use the bucket.
  void warnAboutBrowserAccess(app.deps).catch((error: unknown) => {
    app.log.warn(
      { error: error instanceof Error ? error.message : String(error) },
      "the bucket's CORS could not be checked",
    );
  });
  warmUpInspection(config.pdfSandbox);
  const worker = startImageWorker(app.deps, { pollMs: IMAGE_POLL_MS });
  const autoconfirmJob = autoconfirm === null ? null : startIdpAutoconfirm(app.deps, autoconfirm);
  const jobs = [
    startAutodeletion(app.deps, { intervalMs: autodeleteEveryMs }),
    startCleanup(app.deps, { intervalMs: config.cleanupIntervalMs }),
    startSigningExpiry(app.deps, { intervalMs: SIGNING_EXPIRY_INTERVAL_MS }),
    ...(autoconfirmJob === null ? [] : [autoconfirmJob]),
    startMailSender(app.deps, {
      intervalMs: DEFAULT_MAIL_POLL_MS,
      // Well inside the shutdown's limit, so the cut message is released before the process must go.
      stopGraceMs: Math.min(DEFAULT_MAIL_STOP_GRACE_MS, Math.floor(config.shutdownTimeoutMs / 4)),
    }),
    startReminders(app.deps, { intervalMs: REMINDER_INTERVAL_MS }),
  ];
  if (config.smtpUrl === null) {
    app.log.warn(
      'SMTP_URL is not set: messages are kept, not e-mailed (demo mode shows them at /dev/outbox)',
    );
  } else {
    // The host only: the URL may carry a password.
    app.log.info({ smtpHost: new URL(config.smtpUrl).host }, 'messages are e-mailed through SMTP');
  }
  const url = `${config.publicOrigin}/app/`;
  app.log.info({ url, port }, `Paraph is running at ${url}`);

  let isStopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    // npm passes a terminal's Ctrl-C on as well, so a second signal is usual: the limit below still holds.
    if (isStopping) return;
    isStopping = true;
    app.deps.readiness.isDraining = true;
    const limitMs = config.shutdownTimeoutMs;
    app.log.info({ signal, limitMs }, 'shutting down: finishing the requests in flight');
    // The last resort: a job that ignores its stop, or a connection that never closes, cannot hold the
    // process. Claimed render jobs and messages are handed back first, so little is left to lose.
    setTimeout(() => {
      app.log.error({ limitMs }, 'shutdown took longer than PARAPH_SHUTDOWN_TIMEOUT_MS; exiting now');
      process.exit(1);
    }, limitMs).unref();
    void (async () => {
      try {
        // The jobs first: they write to the database, which app.close() closes last.
        await Promise.all([worker.stop(), ...jobs.map((job) => job.stop())]);
        await app.close();
        app.log.info('stopped');
        process.exit(0);
      } catch (error) {
        app.log.error({ error: errorText(error) }, 'shutdown failed');
        process.exit(1);
      }
    })();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  log.fatal({ error: errorText(error) }, `Paraph could not start: ${errorText(error)}`);
  process.exit(1);
});
