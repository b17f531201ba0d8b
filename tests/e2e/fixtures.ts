// The journeys' test: every journey worker starts a server of its own, with fresh demo data and a mail
// server whose mailbox only its journeys read, and keeps it for the files it runs. Journeys then run
// side by side (a journey mostly waits on the browser and uses half a core) without one seeing another's
// documents, mail or sign-ins; files in one worker still share one, as a person's workspace does.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test as base } from '@playwright/test';
import { startE2eServer, stopE2eServer, type E2eServer } from './global-setup.ts';
import { startMailbox } from './mailbox.ts';

export { expect } from '@playwright/test';

export const test = base.extend<object, { journeyServer: E2eServer }>({
  journeyServer: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from its first parameter
    async ({}, runWorker) => {
      const mailbox = mkdtempSync(path.join(tmpdir(), 'paraph-e2e-mailbox-'));
      const server = await startE2eServer(await startMailbox(mailbox));
      // support.ts and mailbox.ts read these in this worker process only.
      process.env.PARAPH_URL = server.url;
      process.env.PARAPH_E2E_MAILBOX = mailbox;
      try {
        await runWorker(server);
      } finally {
        try {
          await stopE2eServer(server.pid);
        } finally {
          rmSync(server.dataDir, { recursive: true, force: true });
          rmSync(mailbox, { recursive: true, force: true });
        }
      }
    },
    // A server starts in seconds on a quiet machine; startE2eServer gives it up to 180 s under load.
    { scope: 'worker', auto: true, timeout: 200_000 },
  ],
});
