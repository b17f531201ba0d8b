// The first start after the upgrade moves the CA earlier versions kept in the data folder into the
// database, with the signer certificates it issued, so that a PDF signed before keeps verifying against the
// same root. The fixture (tests/fixtures/legacy-ca/) was made by the old server/signing/ca.ts.
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { openMigratedDatabase } from '../../server/db/database.ts';
import type { Database } from '../../server/db/schema.ts';
import {
  DeploymentCaMissingError,
  loadDeploymentPki,
  SigningCaMismatchError,
} from '../../server/signing/ca/index.ts';
import { createLocalSigner } from '../../server/signing/local-signer.ts';
import { parsePdfsigReport } from './pdf-signatures.ts';
import { certificatePem, memoryLog, TEST_CA_PASSPHRASE } from './deployment-pki-support.ts';

const run = promisify(execFile);
const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/legacy-ca');
let workDir: string;
let counter = 0;
let legacyCa: X509Certificate;
let legacySigner: X509Certificate;

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'paraph-ca-move-'));
  legacyCa = new X509Certificate(await readFile(path.join(FIXTURE, 'ca', 'ca-cert.pem')));
  legacySigner = new X509Certificate(
    await readFile(path.join(FIXTURE, 'ca', 'signers', 'legacy-user.cert.pem')),
  );
});

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

async function folder(name: string): Promise<string> {
  counter += 1;
  const dir = path.join(workDir, `${counter}-${name}`);
  await mkdir(dir, { recursive: true });
  return dir;
}

/** A data folder as the old version left it: its CA and signer pairs, and a database. */
async function upgradedDataDir(): Promise<{ dataDir: string; db: Kysely<Database> }> {
  const dataDir = await folder('upgraded');
  await cp(path.join(FIXTURE, 'ca'), path.join(dataDir, 'ca'), { recursive: true });
  const { db } = await openMigratedDatabase({ dataDir, databaseUrl: null });
  await db
    .insertInto('users')
    .values({
      id: 'legacy-user',
      email: 'zoe@paraph.test',
      full_name: 'Zoë Ångström',
      initials: 'ZÅ',
      password_hash: 'x',
      locale: 'en',
      country_code: 'be',
      location: '',
      welcome_screen_watched: 1,
      plan: 'basic',
      created_at: '2026-01-01T00:00:00.000Z',
      last_seen_at: null,
    })
    .execute();
  return { dataDir, db };
}

function load(db: Kysely<Database>, dataDir: string, logs: string[] = []) {
  const config = loadConfig({
    PARAPH_DATA_DIR: dataDir,
    PARAPH_CA_PASSPHRASE: TEST_CA_PASSPHRASE,
    PARAPH_PUBLIC_ORIGIN: 'https://sign.example.test',
  });
  return loadDeploymentPki({ db, config, clock: () => new Date(), log: memoryLog(logs) });
}

async function pemFile(der: Uint8Array): Promise<string> {
  const file = path.join(await folder('pem'), 'cert.pem');
  await writeFile(file, certificatePem(der));
  return file;
}

/** The CMS of each signature of a PDF and the bytes it covers, as files for openssl. */
async function signatures(pdf: Buffer): Promise<{ cms: string; content: string }[]> {
  const text = pdf.toString('latin1');
  const dir = await folder('cms');
  return Promise.all(
    [...text.matchAll(/\/ByteRange \[\s*(\d+) (\d+) (\d+) (\d+)\s*\]/g)].map(async (match, index) => {
      const [a, b, c, d] = match.slice(1).map(Number) as [number, number, number, number];
      const padded = Buffer.from(text.slice(b + 1, c - 1), 'hex');
      const cms = path.join(dir, `${index}.der`);
      const content = path.join(dir, `${index}.bin`);
      await writeFile(cms, padded.subarray(0, 4 + padded.readUInt16BE(2)));
      await writeFile(content, Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]));
      return { cms, content };
    }),
  );
}

async function cmsVerifies(signature: { cms: string; content: string }, trusted: string): Promise<boolean> {
  try {
    const { stderr } = await run('openssl', [
      ...'cms -verify -binary -inform DER -purpose any'.split(' '),
      ...['-in', signature.cms, '-content', signature.content, '-CAfile', trusted],
      ...['-out', path.join(workDir, 'verified.bin')],
    ]);
    return stderr.includes('Verification successful');
  } catch {
    return false;
  }
}

describe("the data folder's CA, moved into the database", () => {
  // Makes the TSA's and the responder's keys and signs a document through the whole B-LTA path: 15 s alone
  // on a busy machine, over 30 s beside a browser run.
  it(
    "becomes the deployment's, with its signers; a PDF signed before still verifies against it",
    { timeout: 90_000 },
    async () => {
      const { dataDir, db } = await upgradedDataDir();
      try {
        const logs: string[] = [];
        const pki = await load(db, dataDir, logs);
        expect(pki.caFingerprint).toBe(legacyCa.fingerprint256);
        expect(Buffer.from(pki.ca.certificate).equals(legacyCa.raw)).toBe(true);
        expect(pki.caSource).toMatchObject({ kind: 'database', origin: 'data-folder' });
        expect(logs).toContain(
          "info: moved this data folder's signing CA into the database: it is the deployment's CA from now on",
        );
        expect(logs).toContain("info: moved the data folder's signer certificates into the database");
        const recorded = await db
          .selectFrom('server_secrets')
          .select('value')
          .where('name', '=', 'signing_ca_sha256')
          .executeTakeFirstOrThrow();
        expect(recorded.value).toBe(legacyCa.fingerprint256);

        // The certificate issued before is known: the OCSP responder will call it good.
        expect(await pki.certificateStatus(legacySigner.serialNumber)).toEqual({ status: 'good' });
        const imported = await db
          .selectFrom('signing_certificates')
          .select(['user_id', 'current_for', 'full_name', 'email', 'public_origin'])
          .where('serial_number', '=', legacySigner.serialNumber)
          .executeTakeFirstOrThrow();
        expect(imported).toEqual({
          user_id: 'legacy-user',
          current_for: 'legacy-user',
          full_name: 'Zoë Ångström',
          email: 'zoe@paraph.test',
          public_origin: null,
        });
        await stat(path.join(dataDir, 'ca', 'moved-into-database'));

        // The PDF signed before the upgrade verifies against the root the deployment now exports.
        const root = await pemFile(pki.trustAnchors[0] ?? new Uint8Array());
        const before = await readFile(path.join(FIXTURE, 'signed-before-upgrade.pdf'));
        const [signature] = await signatures(before);
        expect(signature).toBeDefined();
        expect(await cmsVerifies(signature ?? { cms: '', content: '' }, root)).toBe(true);
        const { stdout } = await run('openssl', ['verify', '-CAfile', root, await pemFile(legacySigner.raw)]);
        expect(stdout.trim()).toMatch(/: OK$/);
        // What the deployment issues now chains to the same root.
        expect(
          (await run('openssl', ['verify', '-CAfile', root, await pemFile(pki.tsa.certificate)])).stdout,
        ).toContain(': OK');

        // The person's next signature, on that PDF: a certificate that says where its status is (the old one
        // had no such URLs), the old one superseded; both signatures verify, as pdfsig and openssl read them.
        const subject = { userId: 'legacy-user', fullName: 'Zoë Ångström', email: 'zoe@paraph.test' };
        const signed = await createLocalSigner({ pki }).sign({
          pdf: before,
          signer: subject,
          smartCardType: 'default',
          locale: 'en',
          location: 'Ghent',
          reason: '',
          signedAt: new Date(),
          placement: { kind: 'inline', pageNumber: 1, top: 0.6, left: 0.1 },
          signatureIndex: 1,
        });
        const both = await signatures(Buffer.from(signed.pdf));
        expect(both).toHaveLength(2);
        for (const each of both) expect(await cmsVerifies(each, root)).toBe(true);
        const file = path.join(await folder('pdf'), 'signed.pdf');
        await writeFile(file, signed.pdf);
        const report = parsePdfsigReport(
          (await run('pdfsig', [file]).catch((error: { stdout: string }) => error)).stdout,
        );
        expect(report.map((entry) => [entry.commonName, entry.isValid])).toEqual([
          ['Zoë Ångström', true],
          ['Zoë Ångström', true],
        ]);
        expect(report[1]?.isTotal).toBe(false);
        expect((await pki.certificateStatus(legacySigner.serialNumber)).status).toBe('revoked');
        expect(await pki.certificateStatus(legacySigner.serialNumber)).toMatchObject({
          reason: 'superseded',
        });
      } finally {
        await db.destroy();
      }
    },
  );

  it("is not taken from an instance whose data folder holds another CA: it warns and uses the database's", async () => {
    const { dataDir, db } = await upgradedDataDir();
    try {
      const deployment = await load(db, dataDir);
      const other = await folder('other');
      await mkdir(path.join(other, 'ca'));
      await run('openssl', [
        ...[
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-days',
          '30',
          '-subj',
          '/CN=Paraph Local Signing CA/O=Paraph',
        ],
        ...['-keyout', path.join(other, 'ca', 'ca-key.pem'), '-out', path.join(other, 'ca', 'ca-cert.pem')],
        ...['-addext', 'basicConstraints=critical,CA:TRUE'],
      ]);
      const logs: string[] = [];
      const pki = await load(db, other, logs);
      expect(pki.caFingerprint).toBe(deployment.caFingerprint);
      expect(logs).toContainEqual(
        expect.stringMatching(
          /^warn: This instance's data folder holds a signing CA \(.*\) other than the deployment's: it is not used/,
        ),
      );
    } finally {
      await db.destroy();
    }
  });

  it('is the one the deployment recorded: an instance without it, or with another, cannot make the first', async () => {
    const dataDir = await folder('fleet');
    const { db } = await openMigratedDatabase({ dataDir, databaseUrl: null });
    try {
      // What an earlier version's fleet recorded at start, before any CA was in the database.
      await db
        .insertInto('server_secrets')
        .values({ name: 'signing_ca_sha256', value: legacyCa.fingerprint256 })
        .execute();
      await expect(load(db, await folder('empty'))).rejects.toThrow(DeploymentCaMissingError);
      await expect(load(db, await folder('empty'))).rejects.toThrow(
        new RegExp(
          `^The deployment's signing CA \\(SHA-256 ${legacyCa.fingerprint256}\\) is not in the database yet`,
        ),
      );
      const stranger = await folder('stranger');
      await mkdir(path.join(stranger, 'ca'));
      await run('openssl', [
        ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '30', '-subj', '/CN=Stranger/O=Paraph'],
        ...[
          '-keyout',
          path.join(stranger, 'ca', 'ca-key.pem'),
          '-out',
          path.join(stranger, 'ca', 'ca-cert.pem'),
        ],
        ...['-addext', 'basicConstraints=critical,CA:TRUE'],
      ]);
      await expect(load(db, stranger)).rejects.toThrow(SigningCaMismatchError);
      expect(await db.selectFrom('pki_keys').select('serial_number').execute()).toEqual([]);

      // The instance that has it moves it in; the others then start with it.
      const holder = await folder('holder');
      await cp(path.join(FIXTURE, 'ca'), path.join(holder, 'ca'), { recursive: true });
      expect((await load(db, holder)).caFingerprint).toBe(legacyCa.fingerprint256);
      expect((await load(db, await folder('empty'))).caFingerprint).toBe(legacyCa.fingerprint256);
    } finally {
      await db.destroy();
    }
  });
});
