// QA's replayed paths run beside the journeys (playwright.config.ts: a project of their own, one worker
// each), so they get a server and data of their own: the accounts they sign in as and the documents they
// make never show up in a journey's list. Worker processes are separate, so pointing PARAPH_URL at this
// server here moves support.ts's helpers (signIn, baseUrl, uploadViaApi) for these specs only.
import { rmSync } from 'node:fs';
import { test } from '@playwright/test';
import { startE2eServer, stopE2eServer, type E2eServer } from '../global-setup.ts';

/** Call first in a spec file, before its own hooks: a fresh server for the file, stopped after it. */
export function startPrivateServerForFile(): void {
  let server: E2eServer | null = null;
  let sharedUrl: string | undefined;
  test.beforeAll(async () => {
    server = await startE2eServer();
    sharedUrl = process.env.PARAPH_URL;
    process.env.PARAPH_URL = server.url;
  });
  test.afterAll(async () => {
    if (sharedUrl === undefined) delete process.env.PARAPH_URL;
    else process.env.PARAPH_URL = sharedUrl;
    if (!server) return;
    try {
      await stopE2eServer(server.pid);
    } finally {
      rmSync(server.dataDir, { recursive: true, force: true });
    }
  });
}
