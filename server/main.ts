// `npm start`: configuration from the environment, the server, demo data on first start, and the page
// image worker and the auto-deletion job; stops cleanly on SIGINT / SIGTERM.
import type { AddressInfo } from 'node:net';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { startImageWorker } from './images/worker.ts';
import { warmUpInspection } from './pdf/inspect.ts';
import { autodeleteIntervalMs, startAutodeletion } from './jobs/autodeletion.ts';
import { startCleanup } from './jobs/cleanup.ts';
import { idpAutoconfirmOptions, startIdpAutoconfirm } from './jobs/idp-autoconfirm.ts';
import { SIGNING_EXPIRY_INTERVAL_MS, startSigningExpiry } from './documents/signing-expiry.ts';
import { DEFAULT_MAIL_POLL_MS, startMailSender } from './mail/sender.ts';
import { REMINDER_INTERVAL_MS, startReminders } from './mail/reminders.ts';
import { DEMO_PASSWORD, seedDemo } from './seed.ts';
import { withStartLock } from './db/start-lock.ts';
import { checkAtStart, warnAboutBrowserAccess } from './start-checks.ts';

const IMAGE_POLL_MS = 1000;
// Shutdown ends within this whatever is running; a load balancer or an orchestrator waits no longer.
const SHUTDOWN_LIMIT_MS = 9_000;

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const autodeleteEveryMs = autodeleteIntervalMs(process.env);
  const autoconfirm = idpAutoconfirmOptions(process.env);
  const app = await buildApp(config);
  await checkAtStart(app.deps);
  if (config.demo) {
    // Under the start lock: instances started together seed once, the others find it done.
    const seed = await withStartLock({ databaseUrl: config.databaseUrl }, () => seedDemo(app.deps));
    if (seed.seeded) app.log.info('demo data created');
    // Loud on purpose: a demo server must never be mistaken for a real deployment.
    app.log.warn(
      { demo: true },
      `DEMO MODE IS ON: anyone can sign in to the demo accounts with the published password, and /dev/outbox shows each person their messages. Set PARAPH_DEMO=0 for real use.`,
    );
    console.warn(
      [
        '',
        '!!! DEMO MODE IS ON: not for real documents !!!',
        `!!! Demo accounts with the known password ${DEMO_PASSWORD}: ${seed.accounts.map((account) => account.email).join(', ')}`,
        config.smtpUrl === null
          ? '!!! Messages are not e-mailed (SMTP_URL is not set): each signed-in person reads theirs at /dev/outbox'
          : '!!! Messages are e-mailed through SMTP_URL; each signed-in person also sees theirs at /dev/outbox',
        '!!! Set PARAPH_DEMO=0 to turn it off.',
        '',
      ].join('\n'),
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
  const autodeletion = startAutodeletion(app.deps, { intervalMs: autodeleteEveryMs });
  const cleanup = startCleanup(app.deps, { intervalMs: config.cleanupIntervalMs });
  const signingExpiry = startSigningExpiry(app.deps, { intervalMs: SIGNING_EXPIRY_INTERVAL_MS });
  const autoconfirmJob = autoconfirm === null ? null : startIdpAutoconfirm(app.deps, autoconfirm);
  const mailSender = startMailSender(app.deps, { intervalMs: DEFAULT_MAIL_POLL_MS });
  const reminders = startReminders(app.deps, { intervalMs: REMINDER_INTERVAL_MS });
  if (config.smtpUrl === null) {
    app.log.warn('SMTP_URL is not set: messages are kept, not e-mailed (demo mode shows them at /dev/outbox)');
  } else {
    // The host only: the URL may carry a password.
    app.log.info({ smtpHost: new URL(config.smtpUrl).host }, 'messages are e-mailed through SMTP');
  }
  console.log(`Paraph is running at ${config.publicOrigin}/app/`);

  let isStopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (isStopping) return;
    isStopping = true;
    app.log.info({ signal }, 'shutting down');
    // The last resort: a job that ignores its stop, or a connection that never closes, cannot hold the
    // process. Claimed render jobs are handed back first (worker.stop), so little is left to lose.
    setTimeout(() => {
      app.log.error({ limitMs: SHUTDOWN_LIMIT_MS }, 'shutdown took too long; exiting now');
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS).unref();
    void (async () => {
      try {
        await worker.stop();
        await autodeletion.stop();
        await cleanup.stop();
        await signingExpiry.stop();
        await autoconfirmJob?.stop();
        await reminders.stop();
        await mailSender.stop();
        await app.close();
        process.exit(0);
      } catch (error) {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      }
    })();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error('Paraph could not start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
