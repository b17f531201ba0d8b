// Where the passphrase that seals the deployment's private keys comes from: PARAPH_CA_PASSPHRASE; or, for
// the embedded SQLite database only, one generated into the data folder on first start, so that
// `npm install && npm start` works. A fleet on PostgreSQL must be given one: a value generated in one
// instance's data folder would not reach the others.
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config.ts';

export const GENERATED_PASSPHRASE_FILE = 'ca-passphrase';

export type Passphrase =
  { value: string; source: 'environment' } | { value: string; source: 'generated'; file: string };

export type PassphraseLog = { warn(details: Record<string, unknown>, message: string): void };

export class PassphraseRequiredError extends Error {
  constructor() {
    super(
      "PARAPH_CA_PASSPHRASE must be set with DATABASE_URL: the deployment's signing keys are kept in the " +
        'database encrypted under it, and every instance needs the same one. Choose a long random value ' +
        "(e.g. openssl rand -base64 32) and keep it apart from the database's backups",
    );
    this.name = 'PassphraseRequiredError';
  }
}

async function readGenerated(file: string): Promise<string | null> {
  try {
    const value = (await readFile(file, 'utf8')).trim();
    return value === '' ? null : value;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

// Written to a temporary name and hard-linked into place: of two processes starting on one data folder,
// one links its value, the other's link fails and it reads the winner's.
async function generate(file: string): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const value = randomBytes(32).toString('base64url');
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temp, `${value}\n`, { mode: 0o600 });
  try {
    await link(temp, file);
    return value;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const theirs = await readGenerated(file);
    if (theirs === null) throw new Error(`${file} exists but is empty`);
    return theirs;
  } finally {
    await rm(temp, { force: true });
  }
}

export async function resolvePassphrase(
  config: Pick<Config, 'caPassphrase' | 'databaseUrl' | 'dataDir'>,
  log: PassphraseLog,
  // Whether keys were sealed already: a passphrase generated now could not open them.
  hasSealedKeys: () => Promise<boolean>,
): Promise<Passphrase> {
  if (config.caPassphrase !== null) return { value: config.caPassphrase, source: 'environment' };
  if (config.databaseUrl !== null) throw new PassphraseRequiredError();
  const file = path.join(config.dataDir, GENERATED_PASSPHRASE_FILE);
  let value = await readGenerated(file);
  if (value === null) {
    if (await hasSealedKeys()) {
      throw new Error(
        `PARAPH_CA_PASSPHRASE is not set, and the signing keys in the database were not sealed under a ` +
          `passphrase generated into ${file} (there is none): set PARAPH_CA_PASSPHRASE to theirs`,
      );
    }
    value = await generate(file);
  }
  log.warn(
    { file },
    `PARAPH_CA_PASSPHRASE is not set: the signing keys in the database are encrypted under a passphrase ` +
      `generated into ${file}, beside the database. Fine for a demo; for real use set PARAPH_CA_PASSPHRASE ` +
      "(npm run ca -- rekey moves the keys to it) and keep it out of the data folder's backups",
  );
  return { value, source: 'generated', file };
}
