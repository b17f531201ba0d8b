// A deployment's PKI of its own for tests and benches that sign without a server: a migrated SQLite file
// in a folder, the CA made (or read) as the server would, its keys from the test process's pool (key-pool.ts).
import { X509Certificate, type KeyObject } from 'node:crypto';
import type { Kysely } from 'kysely';
import { loadConfig, type Config } from '../../server/config.ts';
import { openMigratedDatabase } from '../../server/db/database.ts';
import type { Database } from '../../server/db/schema.ts';
import { loadDeploymentPki, type DeploymentPki, type PkiLog } from '../../server/signing/ca/index.ts';
import { pooledRsaKey } from './key-pool.ts';

export const TEST_CA_PASSPHRASE = 'a test passphrase, long enough';

export type StandalonePki = {
  pki: DeploymentPki;
  db: Kysely<Database>;
  config: Config;
  // What loading logged, as "level: message" lines.
  logs: string[];
  close(): Promise<void>;
};

export const certificatePem = (der: Uint8Array): string => new X509Certificate(der).toString();

export function memoryLog(lines: string[]): PkiLog {
  return {
    info: (_details, message) => lines.push(`info: ${message}`),
    warn: (_details, message) => lines.push(`warn: ${message}`),
  };
}

/**
 * A PKI on a SQLite database in `dataDir`; `env` adds settings (PARAPH_CA_PASSPHRASE is set unless given).
 * Its keys come from the test process's pool unless `generateKey` makes them (a test of their making).
 */
export async function openStandalonePki(
  dataDir: string,
  env: Record<string, string> = {},
  clock: () => Date = () => new Date(),
  generateKey: (bits: number) => Promise<KeyObject> = pooledRsaKey,
): Promise<StandalonePki> {
  const config = loadConfig({
    PARAPH_DATA_DIR: dataDir,
    PARAPH_CA_PASSPHRASE: TEST_CA_PASSPHRASE,
    PARAPH_PUBLIC_ORIGIN: 'https://sign.example.test',
    ...env,
  });
  const { db } = await openMigratedDatabase({ dataDir, databaseUrl: null });
  const logs: string[] = [];
  try {
    const pki = await loadDeploymentPki({
      db,
      config,
      clock,
      log: memoryLog(logs),
      generateKey,
    });
    return { pki, db, config, logs, close: () => db.destroy() };
  } catch (error) {
    await db.destroy();
    throw error;
  }
}
