// The local certificate authority (server/signing/ca.ts): made once per data folder, also when two
// processes start at the same moment, reused afterwards; and one certificate per signer, reused until the
// person's name or address changes. Certificates are read back with openssl, not with the code that made them.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOrCreateCa, signerCertificate } from '../../server/signing/ca.ts';
import { createLocalSigner } from '../../server/signing/local-signer.ts';
import { makePdf } from '../fixtures/pdfs.ts';

const run = promisify(execFile);
let workDir: string;

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'paraph-ca-'));
});

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

async function x509Text(pem: string): Promise<string> {
  const file = path.join(workDir, `cert-${createHash('sha256').update(pem).digest('hex').slice(0, 8)}.pem`);
  await writeFile(file, pem);
  const { stdout } = await run('openssl', ['x509', '-noout', '-text', '-nameopt', 'utf8', '-in', file]);
  return stdout;
}

const mode = async (file: string): Promise<number> => (await stat(file)).mode & 0o777;

describe('the certificate authority', () => {
  it('is created on first start with a private key only its owner reads, and reused by later starts', async () => {
    const dataDir = path.join(workDir, 'reuse');
    await createLocalSigner({ dataDir });
    const caDir = path.join(dataDir, 'ca');
    const certPem = await readFile(path.join(caDir, 'ca-cert.pem'), 'utf8');
    const keyPem = await readFile(path.join(caDir, 'ca-key.pem'), 'utf8');
    expect(await mode(path.join(caDir, 'ca-key.pem'))).toBe(0o600);

    const text = await x509Text(certPem);
    expect(text).toMatch(/CA:TRUE/);
    expect(text).toMatch(/Certificate Sign/);
    expect(text).toMatch(/Public-Key: \((2048|3072) bit\)/);

    const again = await createLocalSigner({ dataDir });
    expect(await readFile(path.join(caDir, 'ca-cert.pem'), 'utf8')).toBe(certPem);
    expect(await readFile(path.join(caDir, 'ca-key.pem'), 'utf8')).toBe(keyPem);

    // What the second start signs chains to the first start's certificate.
    const signed = await again.sign({
      pdf: await makePdf(),
      signer: { userId: 'user-1', fullName: 'Ada Lovelace', email: 'ada@paraph.test' },
      smartCardType: 'default',
      locale: 'en',
      location: 'Brussels',
      reason: '',
      signedAt: new Date(),
      placement: { kind: 'inline', pageNumber: 1, top: 0.2, left: 0.1 },
      signatureIndex: 0,
    });
    const signerPem = await readFile(path.join(caDir, 'signers', 'user-1.cert.pem'), 'utf8');
    const signerFile = path.join(workDir, 'signer.pem');
    await writeFile(signerFile, signerPem);
    const { stdout } = await run('openssl', [
      'verify',
      '-CAfile',
      path.join(caDir, 'ca-cert.pem'),
      signerFile,
    ]);
    expect(stdout).toContain(': OK');
    expect(signed.pdf.length).toBeGreaterThan(0);
  });

  it('ends with one valid pair when two processes create it at the same moment', async () => {
    const dataDir = path.join(workDir, 'race');
    const script = `
      import { createHash } from 'node:crypto';
      import { loadOrCreateCa } from ${JSON.stringify(path.resolve('server/signing/ca.ts'))};
      const ca = await loadOrCreateCa(${JSON.stringify(dataDir)});
      console.log(createHash('sha256').update(ca.certificateDer).digest('hex'));
    `;
    const scriptFile = path.join(workDir, 'race.mts');
    await writeFile(scriptFile, script);
    const outputs = await Promise.all(
      [0, 1].map(() => run(process.execPath, ['--import', 'tsx', scriptFile], { cwd: process.cwd() })),
    );
    const [first, second] = outputs.map((output) => output.stdout.trim());
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(second).toBe(first);
    const ca = await loadOrCreateCa(dataDir);
    expect(createHash('sha256').update(ca.certificateDer).digest('hex')).toBe(first);
    expect((await readdir(path.join(dataDir, 'ca'))).sort()).toEqual(['ca-cert.pem', 'ca-key.pem']);
  });

  it('ends with one valid pair when one process asks for it twice at once', async () => {
    const dataDir = path.join(workDir, 'race-in-process');
    const [a, b] = await Promise.all([loadOrCreateCa(dataDir), loadOrCreateCa(dataDir)]);
    expect(a.certificateDer.equals(b.certificateDer)).toBe(true);
    expect((await loadOrCreateCa(dataDir)).certificateDer.equals(a.certificateDer)).toBe(true);
  });
});

describe('signer certificates', () => {
  it('names the signer, is for signing only, is reused, and is replaced when the name changes', async () => {
    const dataDir = path.join(workDir, 'signers');
    const ca = await loadOrCreateCa(dataDir);
    const now = new Date();
    const subject = { userId: 'user-7', fullName: 'Grace Hopper', email: 'grace@paraph.test' };
    const first = await signerCertificate(ca, subject, now);
    const text = await x509Text(first.certificatePem);
    expect(text).toContain('CN=Grace Hopper');
    expect(text).toContain('emailAddress=grace@paraph.test');
    expect(text).toMatch(/Digital Signature, Non Repudiation/);
    expect(text).toMatch(/CA:FALSE/);
    expect(text).toContain('Issuer: CN=Paraph Local Signing CA');
    const keyFile = path.join(dataDir, 'ca', 'signers', 'user-7.key.pem');
    expect(await mode(keyFile)).toBe(0o600);

    // A later start reads the stored pair instead of making a new one.
    const reloaded = await signerCertificate(await loadOrCreateCa(dataDir), subject, now);
    expect(reloaded.certificateDer.equals(first.certificateDer)).toBe(true);

    const renamed = await signerCertificate(ca, { ...subject, fullName: 'Grace B. Hopper' }, now);
    expect(renamed.certificateDer.equals(first.certificateDer)).toBe(false);
    expect(await x509Text(renamed.certificatePem)).toContain('CN=Grace B. Hopper');
    expect(await readFile(path.join(dataDir, 'ca', 'signers', 'user-7.cert.pem'), 'utf8')).toBe(
      renamed.certificatePem,
    );
  });
});
