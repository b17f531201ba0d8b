// The deployment's private keys at rest (AES-256-GCM under a key scrypt derives from PARAPH_CA_PASSPHRASE)
// and where the passphrase comes from; and a CA given as files (PARAPH_CA_CERT, PARAPH_CA_KEY), made here
// with openssl as an operator would, an intermediate under a root, its key encrypted.
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { openMigratedDatabase } from '../../server/db/database.ts';
import {
  loadDeploymentPki,
  SigningCaMismatchError,
  WrongPassphraseError,
} from '../../server/signing/ca/index.ts';
import { Keyring } from '../../server/signing/ca/keyring.ts';
import { PassphraseRequiredError, resolvePassphrase } from '../../server/signing/ca/passphrase.ts';
import { createLocalSigner } from '../../server/signing/local-signer.ts';
import { makePdf } from '../fixtures/pdfs.ts';
import { certificatePem, memoryLog, openStandalonePki, TEST_CA_PASSPHRASE } from './deployment-pki-support.ts';

const run = promisify(execFile);
let workDir: string;
let counter = 0;

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'paraph-ca-keys-'));
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

const openssl = async (...args: string[]): Promise<string> => (await run('openssl', args)).stdout;

describe('keys at rest', () => {
  it('are sealed under the passphrase: no key is readable in the database, and each opens only as itself', async () => {
    const dataDir = await folder('sealed');
    const first = await openStandalonePki(dataDir);
    const caKey = first.pki.ca.privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
    const rows = await first.db
      .selectFrom('pki_keys')
      .select(['serial_number', 'role', 'private_key'])
      .execute();
    expect(rows.map((row) => row.role).sort()).toEqual(['ca', 'ocsp', 'tsa']);
    for (const row of rows) {
      expect(row.private_key).not.toContain('PRIVATE KEY');
      expect(row.private_key).not.toContain(caKey.slice(40, 80));
      expect(JSON.parse(row.private_key)).toMatchObject({ v: 1, kdf: 'scrypt', N: 32768, r: 8, p: 1 });
    }
    await first.close();

    // A later start opens them again: the same CA, its key whole.
    const again = await openStandalonePki(dataDir);
    try {
      expect(again.pki.caFingerprint).toBe(first.pki.caFingerprint);
      expect(again.pki.ca.privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64')).toBe(caKey);
      expect(new X509Certificate(again.pki.tsa.certificate).checkPrivateKey(again.pki.tsa.privateKey)).toBe(
        true,
      );
    } finally {
      await again.close();
    }

    const keyring = await Keyring.create(TEST_CA_PASSPHRASE);
    const sealed = await keyring.seal(Buffer.from('secret bytes'), 'pki key 01');
    expect((await keyring.open(sealed, 'pki key 01'))?.toString()).toBe('secret bytes');
    // Bound to its label: a key moved onto another certificate's row does not open.
    expect(await keyring.open(sealed, 'pki key 02')).toBeNull();
    const tampered = JSON.parse(sealed) as { data: string };
    tampered.data = Buffer.from('secret bytez').toString('base64');
    expect(await keyring.open(JSON.stringify(tampered), 'pki key 01')).toBeNull();
    expect(
      await (await Keyring.create('another passphrase, also long')).open(sealed, 'pki key 01'),
    ).toBeNull();
  });

  it('stay shut to a wrong passphrase: one clear error, and nothing is made', async () => {
    const dataDir = await folder('wrong');
    const first = await openStandalonePki(dataDir);
    await first.close();
    const load = openStandalonePki(dataDir, { PARAPH_CA_PASSPHRASE: 'this is not the passphrase' });
    await expect(load).rejects.toThrow(WrongPassphraseError);
    await expect(load).rejects.toThrow(
      /^PARAPH_CA_PASSPHRASE does not open the signing keys kept in the database: it is not the passphrase they were stored under\./,
    );
    const { db } = await openMigratedDatabase({ dataDir, databaseUrl: null });
    try {
      const rows = await db.selectFrom('pki_keys').select('serial_number').execute();
      expect(rows).toHaveLength(3);
    } finally {
      await db.destroy();
    }
  });

  it('without PARAPH_CA_PASSPHRASE on SQLite: a passphrase generated into the data folder, with a warning', async () => {
    const dataDir = await folder('generated');
    const first = await openStandalonePki(dataDir, { PARAPH_CA_PASSPHRASE: '' });
    await first.close();
    const file = path.join(dataDir, 'ca-passphrase');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, 'utf8')).trim()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.logs).toContainEqual(
      expect.stringMatching(/^warn: PARAPH_CA_PASSPHRASE is not set: the signing keys/),
    );

    const again = await openStandalonePki(dataDir, { PARAPH_CA_PASSPHRASE: '' });
    await again.close();
    expect(again.pki.caFingerprint).toBe(first.pki.caFingerprint);

    await writeFile(file, 'a value someone put there by hand\n');
    await expect(openStandalonePki(dataDir, { PARAPH_CA_PASSPHRASE: '' })).rejects.toThrow(
      `The passphrase in ${file} does not open the signing keys kept in the database`,
    );
    // Once the keys are sealed, a lost file is not silently replaced by a new passphrase.
    await rm(file);
    await expect(openStandalonePki(dataDir, { PARAPH_CA_PASSPHRASE: '' })).rejects.toThrow(
      /PARAPH_CA_PASSPHRASE is not set, and the signing keys in the database were not sealed under a passphrase generated into/,
    );
  });

  it('without PARAPH_CA_PASSPHRASE on PostgreSQL: refused, since the other instances could not share it', async () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://paraph@db.example.test/paraph',
      PARAPH_DATA_DIR: workDir,
    });
    await expect(resolvePassphrase(config, memoryLog([]), async () => false)).rejects.toThrow(
      PassphraseRequiredError,
    );
    await expect(resolvePassphrase(config, memoryLog([]), async () => false)).rejects.toThrow(
      /^PARAPH_CA_PASSPHRASE must be set with DATABASE_URL/,
    );
    expect(() => loadConfig({ PARAPH_CA_PASSPHRASE: 'too short' })).toThrow(/at least 16 characters/);
  });

  it('a lost passphrase, with PARAPH_REPLACE_SIGNING_CA=1 once: new keys; what was issued keeps its status', async () => {
    const dataDir = await folder('lost');
    const first = await openStandalonePki(dataDir);
    const signer = await first.pki.signerKey(
      { userId: 'u1', fullName: 'Lin', email: 'lin@paraph.test' },
      new Date(),
    );
    const serial = new X509Certificate(signer.certificate).serialNumber;
    await first.close();

    const env = { PARAPH_CA_PASSPHRASE: 'the new passphrase of the deployment' };
    await expect(openStandalonePki(dataDir, env)).rejects.toThrow(WrongPassphraseError);
    const replaced = await openStandalonePki(dataDir, { ...env, PARAPH_REPLACE_SIGNING_CA: '1' });
    try {
      expect(replaced.pki.caFingerprint).not.toBe(first.pki.caFingerprint);
      expect(replaced.logs).toContainEqual(
        expect.stringMatching(/^warn: PARAPH_REPLACE_SIGNING_CA=1 with a passphrase that does not open/),
      );
      expect(replaced.logs).toContainEqual(
        expect.stringMatching(/^warn: this CA now replaces the one recorded for the deployment/),
      );
      const next = await replaced.pki.signerKey(
        { userId: 'u1', fullName: 'Lin', email: 'lin@paraph.test' },
        new Date(),
      );
      expect(
        new X509Certificate(next.certificate).checkIssued(new X509Certificate(replaced.pki.ca.certificate)),
      ).toBe(true);
      const old = await replaced.db
        .selectFrom('signing_certificates')
        .select(['revoked_at', 'current_for'])
        .where('serial_number', '=', serial)
        .executeTakeFirstOrThrow();
      expect(old).toEqual({ revoked_at: null, current_for: null });
    } finally {
      await replaced.close();
    }
    // The next start, the setting removed, opens the new keys.
    const later = await openStandalonePki(dataDir, env);
    await later.close();
    expect(later.pki.caFingerprint).toBe(replaced.pki.caFingerprint);
  });
});

type OperatorCa = {
  root: string;
  intermediate: string;
  chain: string;
  key: string;
  otherKey: string;
  leaf: string;
  leafKey: string;
};

const KEY_PASSPHRASE = 'the key file passphrase';

/** A root, an issuing CA under it with an encrypted key, and a leaf: as an operator makes them with openssl. */
async function operatorCa(dir: string): Promise<OperatorCa> {
  const file = (name: string) => path.join(dir, name);
  await writeFile(
    file('ext.cnf'),
    [
      '[ca]',
      'basicConstraints = critical, CA:TRUE, pathlen:0',
      'keyUsage = critical, keyCertSign, cRLSign',
      'subjectKeyIdentifier = hash',
      'authorityKeyIdentifier = keyid',
      '[leaf]',
      'basicConstraints = critical, CA:FALSE',
      'keyUsage = critical, digitalSignature',
      '',
    ].join('\n'),
  );
  await openssl(
    ...[
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '3650',
      '-subj',
      '/CN=Example Root CA/O=Example',
    ],
    ...['-keyout', file('root.key'), '-out', file('root.pem')],
    ...['-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'],
  );
  for (const [name, subject] of [
    ['int', '/CN=Example Issuing CA/O=Example'],
    ['leaf', '/CN=Not a CA/O=Example'],
  ]) {
    await openssl(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      subject ?? '',
      '-keyout',
      file(`${name}.key`),
      '-out',
      file(`${name}.csr`),
    );
    await openssl(
      'x509',
      '-req',
      '-in',
      file(`${name}.csr`),
      '-CA',
      file('root.pem'),
      '-CAkey',
      file('root.key'),
      '-CAcreateserial',
      '-days',
      '1825',
      '-extfile',
      file('ext.cnf'),
      '-extensions',
      name === 'int' ? 'ca' : 'leaf',
      '-out',
      file(`${name}.pem`),
    );
  }
  await openssl(
    'pkcs8',
    '-topk8',
    '-v2',
    'aes-256-cbc',
    '-in',
    file('int.key'),
    '-out',
    file('int.enc.key'),
    '-passout',
    `pass:${KEY_PASSPHRASE}`,
  );
  await openssl(
    'genpkey',
    '-algorithm',
    'RSA',
    '-pkeyopt',
    'rsa_keygen_bits:2048',
    '-out',
    file('other.key'),
  );
  await writeFile(
    file('chain.pem'),
    (await readFile(file('int.pem'), 'utf8')) + (await readFile(file('root.pem'), 'utf8')),
  );
  return {
    root: file('root.pem'),
    intermediate: file('int.pem'),
    chain: file('chain.pem'),
    key: file('int.enc.key'),
    otherKey: file('other.key'),
    leaf: file('leaf.pem'),
    leafKey: file('leaf.key'),
  };
}

describe('a CA given as files', () => {
  let given: OperatorCa;
  beforeAll(async () => {
    given = await operatorCa(await folder('operator'));
  });

  const filesEnv = (overrides: Record<string, string> = {}) => ({
    PARAPH_CA_CERT: given.chain,
    PARAPH_CA_KEY: given.key,
    PARAPH_CA_KEY_PASSPHRASE: KEY_PASSPHRASE,
    ...overrides,
  });

  it('issues under it, with its chain up to the root, which relying parties trust', async () => {
    const dataDir = await folder('files');
    const standalone = await openStandalonePki(dataDir, filesEnv());
    try {
      const { pki } = standalone;
      const intermediate = new X509Certificate(await readFile(given.intermediate));
      const root = new X509Certificate(await readFile(given.root));
      expect(Buffer.from(pki.ca.certificate).equals(intermediate.raw)).toBe(true);
      expect(pki.ca.chain.map((der) => Buffer.from(der))).toEqual([root.raw]);
      expect(pki.trustAnchors.map((der) => Buffer.from(der))).toEqual([root.raw]);
      expect(pki.caSource).toEqual({ kind: 'files', location: given.chain });

      const signer = await pki.signerKey(
        { userId: 'u-files', fullName: 'Files Person', email: 'f@paraph.test' },
        new Date(),
      );
      expect(signer.chain.map((der) => Buffer.from(der))).toEqual([intermediate.raw, root.raw]);
      const dir = await folder('files-check');
      const signerFile = path.join(dir, 'signer.pem');
      const tsaFile = path.join(dir, 'tsa.pem');
      await writeFile(signerFile, certificatePem(signer.certificate));
      await writeFile(tsaFile, certificatePem(pki.tsa.certificate));
      const verify = (purpose: string, target: string) =>
        openssl(
          'verify',
          '-purpose',
          purpose,
          '-CAfile',
          given.root,
          '-untrusted',
          given.intermediate,
          target,
        );
      expect(await verify('smimesign', signerFile)).toContain(': OK');
      expect(await verify('timestampsign', tsaFile)).toContain(': OK');

      // A signature carries the chain: openssl verifies it with the root alone.
      const signed = await createLocalSigner({ pki }).sign({
        pdf: await makePdf(),
        signer: { userId: 'u-files', fullName: 'Files Person', email: 'f@paraph.test' },
        smartCardType: 'default',
        locale: 'en',
        location: 'Ghent',
        reason: '',
        signedAt: new Date(),
        placement: { kind: 'inline', pageNumber: 1, top: 0.2, left: 0.1 },
        signatureIndex: 0,
      });
      const { stderr } = await run('openssl', [
        ...'cms -verify -binary -inform DER -purpose any'.split(' '),
        ...(await cmsFiles(dir, signed.pdf)),
        '-CAfile',
        given.root,
        '-out',
        path.join(dir, 'out.bin'),
      ]);
      expect(stderr).toContain('Verification successful');
    } finally {
      await standalone.close();
    }
  });

  it('may be given as PEM values rather than file names', async () => {
    const standalone = await openStandalonePki(
      await folder('values'),
      filesEnv({
        PARAPH_CA_CERT: await readFile(given.chain, 'utf8'),
        PARAPH_CA_KEY: await readFile(given.key, 'utf8'),
      }),
    );
    await standalone.close();
    expect(standalone.pki.caSource).toEqual({ kind: 'files', location: 'PARAPH_CA_CERT' });
    expect(
      Buffer.from(standalone.pki.ca.certificate).equals(
        new X509Certificate(await readFile(given.intermediate)).raw,
      ),
    ).toBe(true);
  });

  it('says which setting is wrong', async () => {
    const refused = async (env: Record<string, string>) => {
      const load = openStandalonePki(await folder('refused'), env);
      await expect(load).rejects.toThrow();
      return String(await load.catch((error: unknown) => (error as Error).message));
    };
    expect(await refused(filesEnv({ PARAPH_CA_KEY_PASSPHRASE: '' }))).toBe(
      'PARAPH_CA_KEY is encrypted: set PARAPH_CA_KEY_PASSPHRASE to its passphrase',
    );
    expect(await refused(filesEnv({ PARAPH_CA_KEY_PASSPHRASE: 'not it' }))).toBe(
      'PARAPH_CA_KEY_PASSPHRASE does not decrypt PARAPH_CA_KEY',
    );
    expect(await refused(filesEnv({ PARAPH_CA_KEY: given.otherKey, PARAPH_CA_KEY_PASSPHRASE: '' }))).toBe(
      "PARAPH_CA_KEY is not the key of PARAPH_CA_CERT's first certificate",
    );
    expect(
      await refused(
        filesEnv({ PARAPH_CA_CERT: given.leaf, PARAPH_CA_KEY: given.leafKey, PARAPH_CA_KEY_PASSPHRASE: '' }),
      ),
    ).toMatch(/^PARAPH_CA_CERT's first certificate \(CN=Not a CA, O=Example\) is not a CA/);
    const wrongOrder = path.join(workDir, 'wrong-order.pem');
    await writeFile(
      wrongOrder,
      (await readFile(given.intermediate, 'utf8')) + (await readFile(given.leaf, 'utf8')),
    );
    expect(await refused(filesEnv({ PARAPH_CA_CERT: wrongOrder }))).toMatch(
      /^PARAPH_CA_CERT's certificate 2 did not issue the one before it/,
    );
    expect(await refused(filesEnv({ PARAPH_CA_CERT: path.join(workDir, 'missing.pem') }))).toMatch(
      /^PARAPH_CA_CERT names a file that cannot be read \(.*missing\.pem: ENOENT\)/,
    );
    expect(() => loadConfig({ PARAPH_CA_CERT: given.chain })).toThrow(
      'PARAPH_CA_CERT and PARAPH_CA_KEY must be set together',
    );
  });

  it('must be the same on every instance, unless it is to replace the one recorded', async () => {
    const dataDir = await folder('shared');
    const first = await openStandalonePki(dataDir);
    try {
      // A second instance on the same database, given a CA of its own.
      const config = loadConfig({
        PARAPH_DATA_DIR: await folder('second'),
        PARAPH_PUBLIC_ORIGIN: 'https://sign.example.test',
        PARAPH_CA_PASSPHRASE: TEST_CA_PASSPHRASE,
        ...filesEnv(),
      });
      const logs: string[] = [];
      const load = (replace: boolean) =>
        loadDeploymentPki({
          db: first.db,
          config: { ...config, replaceSigningCa: replace },
          clock: () => new Date(),
          log: memoryLog(logs),
        });
      await expect(load(false)).rejects.toThrow(SigningCaMismatchError);
      await expect(load(false)).rejects.toThrow(
        new RegExp(
          `^This instance's signing CA \\(${given.chain.replaceAll('.', '\\.')}, SHA-256 [0-9A-F:]{95}\\) is not the one the deployment signs with \\(SHA-256 ${first.pki.caFingerprint}\\)`,
        ),
      );
      const replaced = await load(true);
      expect(logs).toContain(
        'warn: this CA now replaces the one recorded for the deployment; signatures made before chain to the old root. Remove PARAPH_REPLACE_SIGNING_CA before the next start',
      );
      // The TSA and the OCSP responder are issued anew under it.
      expect(
        new X509Certificate(replaced.tsa.certificate).checkIssued(
          new X509Certificate(replaced.ca.certificate),
        ),
      ).toBe(true);
      // Left on, the setting is pointed out.
      logs.length = 0;
      await load(true);
      expect(logs).toContain(
        'warn: PARAPH_REPLACE_SIGNING_CA=1 found nothing to replace; remove it so that a stranger CA is refused again',
      );
    } finally {
      await first.close();
    }
  });
});

/** The CMS of a PDF's only signature and the bytes it covers, as files for openssl. */
async function cmsFiles(dir: string, pdf: Uint8Array): Promise<string[]> {
  const bytes = Buffer.from(pdf);
  const match = /\/ByteRange \[\s*(\d+) (\d+) (\d+) (\d+)\s*\]/.exec(bytes.toString('latin1'));
  const [a, b, c, d] = (match?.slice(1) ?? []).map(Number) as [number, number, number, number];
  const padded = Buffer.from(bytes.subarray(b + 1, c - 1).toString('latin1'), 'hex');
  const der = padded.subarray(0, 4 + padded.readUInt16BE(2));
  await writeFile(path.join(dir, 'cms.der'), der);
  await writeFile(
    path.join(dir, 'content.bin'),
    Buffer.concat([bytes.subarray(a, a + b), bytes.subarray(c, c + d)]),
  );
  return ['-in', path.join(dir, 'cms.der'), '-content', path.join(dir, 'content.bin')];
}
