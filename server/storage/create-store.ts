// Chooses the object store from the configuration: S3 when S3_BUCKET is set, the embedded store otherwise.
import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { createLocalStore } from './local-store.ts';
import type { ObjectStore } from './object-store.ts';
import { createS3Store } from './s3-store.ts';

export async function createStore(
  config: Config,
  db: Kysely<Database>,
  clock: () => Date = () => new Date(),
): Promise<ObjectStore> {
  if (config.s3 !== null) return createS3Store(config.s3);
  return createLocalStore({ dataDir: config.dataDir, db, clock });
}
