// `npm run ca -- <command>` as an operator runs it, with the server's environment: show the CA, export it
// for trust lists, revoke a person's certificates (logged, since no document's audit trail fits it), and
// move the keys to another passphrase.
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TYPESCRIPT_ARGS } from '../../scripts/lib/typescript-args.ts';
import { openStandalonePki, TEST_CA_PASSPHRASE } from '../api/deployment-pki-support.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
let dataDir: string;
let fingerprint: string;
let serials: string[];

type Result = { code: number; stdout: string; stderr: string };

function ca(args: string[], env: Record<string, string> = {}): Promise<Result> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...TYPESCRIPT_ARGS, 'scripts/ca.ts', ...args],
      {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH ?? '',
          NODE_NO_WARNINGS: '1',
          PARAPH_DATA_DIR: dataDir,
          PARAPH_CA_PASSPHRASE: TEST_CA_PASSPHRASE,
          PARAPH_PUBLIC_ORIGIN: 'https://sign.example.test',
          ...env,
        },
      },
      (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'paraph-ca-command-'));
  const standalone = await openStandalonePki(dataDir);
  try {
    fingerprint = standalone.pki.caFingerprint;
    const subject = { userId: 'u-ops', fullName: 'Olga Operator', email: 'olga@paraph.test' };
    const first = await standalone.pki.signerKey(subject, new Date());
    const second = await standalone.pki.signerKey({ ...subject, fullName: 'Olga M. Operator' }, new Date());
    serials = [first, second].map((key) => new X509Certificate(key.certificate).serialNumber);
  } finally {
    await standalone.close();
  }
});

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('npm run ca', () => {
  it('show: the subject, fingerprint, validity and where the CA is kept', async () => {
    const { code, stdout } = await ca(['show']);
    expect(code).toBe(0);
    expect(stdout).toContain('Subject:        CN=Paraph Signing CA, OU=sign.example.test, O=Paraph');
    expect(stdout).toContain(`SHA-256:        ${fingerprint}`);
    expect(stdout).toMatch(/^Valid: {10}\d{4}-\d\d-\d\dT.* to \d{4}-/m);
    expect(stdout).toMatch(/^Kept in: {8}the database \(made by Paraph on \d{4}-/m);
    expect(stdout).toMatch(/^Time-stamping: {2}CN=Paraph Time-Stamping Authority/m);
  }, 60_000);

  it('export-cert: the CA certificate as PEM, which openssl reads', async () => {
    const { code, stdout } = await ca(['export-cert']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^-----BEGIN CERTIFICATE-----\n[\s\S]+-----END CERTIFICATE-----\n$/);
    expect(new X509Certificate(stdout).fingerprint256).toBe(fingerprint);
  }, 60_000);

  it('revoke <email> [reason]: every certificate of the person not yet revoked, logged', async () => {
    const { code, stdout, stderr } = await ca(['revoke', 'olga@paraph.test', 'keyCompromise']);
    expect(code).toBe(0);
    // The first was superseded already by the name change; the current one is revoked now.
    expect(stdout).toBe(`Revoked ${serials[1]} (a person's certificate) as keyCompromise.\n`);
    const logged = stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; serialNumber?: string; reason?: string });
    expect(logged).toContainEqual(
      expect.objectContaining({
        msg: 'a signing certificate was revoked',
        serialNumber: serials[1],
        reason: 'keyCompromise',
      }),
    );

    const again = await ca(['revoke', serials[0] ?? '']);
    expect(again.stdout).toMatch(new RegExp(`^${serials[0]} was revoked already \\(superseded, `));
    const unknown = await ca(['revoke', 'nobody@paraph.test']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No certificate of nobody@paraph.test is left to revoke.');
    const badReason = await ca(['revoke', 'olga@paraph.test', 'boredom']);
    expect(badReason.code).toBe(1);
    expect(badReason.stderr).toContain('Unknown reason "boredom"');
  }, 120_000);

  it('rekey: the keys move to PARAPH_CA_NEW_PASSPHRASE, and only that one opens them after', async () => {
    const next = 'the passphrase after the rekey';
    const { code, stdout } = await ca(['rekey'], { PARAPH_CA_NEW_PASSPHRASE: next });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^\d+ keys are now encrypted under PARAPH_CA_NEW_PASSPHRASE\./);
    const old = await ca(['show']);
    expect(old.code).toBe(1);
    expect(old.stderr).toContain('PARAPH_CA_PASSPHRASE does not open the signing keys kept in the database');
    const shown = await ca(['show'], { PARAPH_CA_PASSPHRASE: next });
    expect(shown.stdout).toContain(`SHA-256:        ${fingerprint}`);
    // The data folder holds no generated passphrase: the keys' was given.
    await expect(stat(path.join(dataDir, 'ca-passphrase'))).rejects.toThrow(/ENOENT/);
  }, 120_000);

  it('says how to use it', async () => {
    const { code, stderr } = await ca([]);
    expect(code).toBe(1);
    expect(stderr).toContain('Usage: npm run ca -- <command>');
  }, 60_000);
});
