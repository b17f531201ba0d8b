import { readFileSync, rmSync } from 'node:fs';
import { stopE2eServer } from './global-setup.ts';
import { STATE_FILE } from './server-state.ts';

export default async function globalTeardown(): Promise<void> {
  const stateFile = STATE_FILE;
  const { pid, dataDir, mailbox } = JSON.parse(readFileSync(stateFile, 'utf8')) as {
    pid: number;
    dataDir: string;
    mailbox: string;
  };
  try {
    await stopE2eServer(pid);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(mailbox, { recursive: true, force: true });
    rmSync(stateFile, { force: true });
  }
}
