// The deployment's CA on PostgreSQL, where several instances share the database: instances loading at
// once on a fresh one make one CA, instances issuing a person's first certificate at once leave one
// current certificate, and an instance without the passphrase is refused. Each "instance" is a pool of its
// own. PostgreSQL only: `sh scripts/pg-test.sh tests/api/signing-ca.pg.test.ts`.
import { randomUUID, X509Certificate } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { dropPgSchema, openMigratedDatabase } from '../../server/db/database.ts';
import type { Database } from '../../server/db/schema.ts';
import { loadDeploymentPki, PassphraseRequiredError } from '../../server/signing/ca/index.ts';
import { memoryLog, TEST_CA_PASSPHRASE } from './deployment-pki-support.ts';

const DATABASE_URL = process.env.TEST_DATABASE_URL?.trim() || null;
if (DATABASE_URL === null) {
  throw new Error('These tests need PostgreSQL: run them with sh scripts/pg-test.sh <this file>');
}
const databaseUrl: string = DATABASE_URL;

let workDir: string;
const schemas: string[] = [];
const databases: Kysely<Database>[] = [];

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'paraph-ca-pg-'));
});

afterAll(async () => {
  await Promise.all(databases.map((db) => db.destroy()));
  for (const schema of schemas) await dropPgSchema(databaseUrl, schema);
  await rm(workDir, { recursive: true, force: true });
});

/** Instances on one fresh schema, each with its own pool and data folder. */
async function instances(count: number, env: Record<string, string> = {}) {
  const schema = `t_${randomUUID().replaceAll('-', '')}`;
  schemas.push(schema);
  return Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const dataDir = await mkdtemp(path.join(workDir, `instance-${index}-`));
      const config = loadConfig({
        PARAPH_DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        PARAPH_CA_PASSPHRASE: TEST_CA_PASSPHRASE,
        PARAPH_PUBLIC_ORIGIN: 'https://sign.example.test',
        ...env,
      });
      const { db } = await openMigratedDatabase({ dataDir, databaseUrl, pgSchema: schema });
      databases.push(db);
      const logs: string[] = [];
      return {
        db,
        logs,
        load: () => loadDeploymentPki({ db, config, clock: () => new Date(), log: memoryLog(logs) }),
      };
    }),
  );
}

describe('the deployment CA on PostgreSQL', () => {
  it('is made once when instances start at once on a fresh database', async () => {
    const fleet = await instances(3);
    const loaded = await Promise.all(fleet.map((instance) => instance.load()));
    const fingerprints = new Set(loaded.map((pki) => pki.caFingerprint));
    expect(fingerprints.size).toBe(1);
    const [first] = fleet;
    if (first === undefined) throw new Error('no instance');
    const keys = await first.db.selectFrom('pki_keys').select(['role', 'current_role']).execute();
    expect(
      keys
        .filter((row) => row.current_role !== null)
        .map((row) => row.role)
        .sort(),
    ).toEqual(['ca', 'ocsp', 'tsa']);
    expect(keys.filter((row) => row.role === 'ca')).toHaveLength(1);
    const made = fleet
      .flatMap((instance) => instance.logs)
      .filter((line) => line.includes("made the deployment's signing CA"));
    expect(made).toHaveLength(1);
    const tsa = new Set(loaded.map((pki) => new X509Certificate(pki.tsa.certificate).serialNumber));
    expect(tsa.size).toBe(1);
  }, 120_000);

  it("leaves one current certificate when instances issue a person's first one at once", async () => {
    const fleet = await instances(2);
    const [a, b] = await Promise.all(fleet.map((instance) => instance.load()));
    if (a === undefined || b === undefined) throw new Error('no instance');
    const subject = { userId: 'u-race', fullName: 'Race Person', email: 'race@paraph.test' };
    const keys = await Promise.all([a.signerKey(subject, new Date()), b.signerKey(subject, new Date())]);
    const serials = keys.map((key) => new X509Certificate(key.certificate).serialNumber);
    expect(serials[1]).toBe(serials[0]);
    const rows = await fleet[0]?.db
      .selectFrom('signing_certificates')
      .select(['serial_number', 'current_for', 'revoked_at'])
      .where('user_id', '=', 'u-race')
      .execute();
    expect(rows).toEqual([{ serial_number: serials[0], current_for: 'u-race', revoked_at: null }]);
    // A renewal on one instance is what the other signs with next.
    const renamed = await a.signerKey({ ...subject, fullName: 'Race P. Person' }, new Date());
    const seen = await b.signerKey({ ...subject, fullName: 'Race P. Person' }, new Date());
    expect(Buffer.from(seen.certificate).equals(Buffer.from(renamed.certificate))).toBe(true);
    expect(await b.certificateStatus(serials[0] ?? '')).toMatchObject({
      status: 'revoked',
      reason: 'superseded',
    });
  }, 120_000);

  it('refuses an instance without PARAPH_CA_PASSPHRASE', async () => {
    const [instance] = await instances(1, { PARAPH_CA_PASSPHRASE: '' });
    await expect(instance?.load()).rejects.toThrow(PassphraseRequiredError);
    expect(await instance?.db.selectFrom('pki_keys').select('serial_number').execute()).toEqual([]);
  }, 60_000);
});
