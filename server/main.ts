// `npm start`: configuration from the environment, the server, demo data on first start, and the page
// image worker and the auto-deletion job; stops cleanly on SIGINT / SIGTERM.
import type { AddressInfo } from 'node:net';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { startImageWorker } from './images/worker.ts';
import { autodeleteIntervalMs, startAutodeletion } from './jobs/autodeletion.ts';
import { idpAutoconfirmOptions, startIdpAutoconfirm } from './jobs/idp-autoconfirm.ts';
import { SIGNING_EXPIRY_INTERVAL_MS, startSigningExpiry } from './documents/signing-expiry.ts';
import { DEMO_PASSWORD, seedDemo } from './seed.ts';

const IMAGE_POLL_MS = 1000;

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const autodeleteEveryMs = autodeleteIntervalMs(process.env);
  const autoconfirm = idpAutoconfirmOptions(process.env);
  const app = await buildApp(config);
  if (config.demo) {
    const seed = await seedDemo(app.deps);
    if (seed.seeded) app.log.info('demo data created');
    console.log(
      `Demo accounts (password ${DEMO_PASSWORD}): ${seed.accounts.map((account) => account.email).join(', ')}`,
    );
  }
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address() as AddressInfo | null;
  const port = address?.port ?? config.port;
  const worker = startImageWorker(app.deps, { pollMs: IMAGE_POLL_MS });
  const autodeletion = startAutodeletion(app.deps, { intervalMs: autodeleteEveryMs });
  const signingExpiry = startSigningExpiry(app.deps, { intervalMs: SIGNING_EXPIRY_INTERVAL_MS });
  const autoconfirmJob = autoconfirm === null ? null : startIdpAutoconfirm(app.deps, autoconfirm);
  console.log(`Paraph is running at http://localhost:${port}/app/`);

  let isStopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (isStopping) return;
    isStopping = true;
    app.log.info({ signal }, 'shutting down');
    void (async () => {
      try {
        await worker.stop();
        await autodeletion.stop();
        await signingExpiry.stop();
        await autoconfirmJob?.stop();
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
