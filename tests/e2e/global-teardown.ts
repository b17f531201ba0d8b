import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

export default async function globalTeardown(): Promise<void> {
  const stateFile = path.resolve('test-results/.e2e-server.json');
  const { pid, dataDir } = JSON.parse(readFileSync(stateFile, 'utf8')) as { pid: number; dataDir: string };
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // already gone
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(stateFile, { force: true });
}
