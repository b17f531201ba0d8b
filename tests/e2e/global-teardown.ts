import { existsSync, readFileSync, rmSync } from 'node:fs';
import { STATE_FILE } from './server-state.ts';

export default async function globalTeardown(): Promise<void> {
  // A setup that failed left nothing to remove, and its own error is the one to read.
  if (!existsSync(STATE_FILE)) return;
  const { mailbox, demoData } = JSON.parse(readFileSync(STATE_FILE, 'utf8')) as {
    mailbox: string;
    demoData: string;
  };
  rmSync(mailbox, { recursive: true, force: true });
  rmSync(demoData, { recursive: true, force: true });
  rmSync(STATE_FILE, { force: true });
}
