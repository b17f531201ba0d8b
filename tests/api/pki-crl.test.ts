// CRLs (server/signing/pki/crl.ts), read and checked by `openssl crl` and used by `openssl verify
// -crl_check`, which share none of the code that wrote them.
import { X509Certificate } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCrl, readCrl } from '../../server/signing/pki/crl.ts';
import type { RevokedCertificate } from '../../server/signing/pki/types.ts';
import { makeTestPki, run, type TestPki } from './pki-support.ts';

let dir: string;
let pki: TestPki;
let fileCounter = 0;
const THIS_UPDATE = new Date(Date.now() - 60_000);
const NEXT_UPDATE = new Date(Date.now() + 24 * 60 * 60 * 1000);

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'paraph-pki-crl-'));
  pki = await makeTestPki(dir, { ocspUrl: 'http://127.0.0.1:9/pki/ocsp' });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(name: string, bytes: Uint8Array): Promise<string> {
  fileCounter += 1;
  const file = path.join(dir, `${fileCounter}-${name}`);
  await writeFile(file, bytes);
  return file;
}

const serialOf = (der: Uint8Array) => new X509Certificate(der).serialNumber;

const crl = (revoked: RevokedCertificate[], crlNumber = 7n) =>
  buildCrl({
    issuerCertificate: pki.ca.certificate,
    issuerKey: pki.ca.privateKey,
    revoked,
    thisUpdate: THIS_UPDATE,
    nextUpdate: NEXT_UPDATE,
    crlNumber,
  });

/** openssl's text of a CRL, checked against the issuing CA (whose chain ends at the root). */
async function opensslCrl(der: Uint8Array): Promise<{ text: string; verified: boolean }> {
  const { stdout, stderr } = await run('openssl', [
    ...['crl', '-inform', 'DER', '-in', await write('crl.der', der), '-text', '-noout'],
    ...['-CAfile', pki.chainFile],
  ]);
  return { text: stdout, verified: /verify OK/.test(stderr) };
}

/** `openssl verify -crl_check` of a certificate issued by the CA, with this CRL. */
async function opensslVerifyWith(der: Uint8Array, certificateFile: string): Promise<string> {
  const pem = await write(
    'crl.pem',
    Buffer.from(`-----BEGIN X509 CRL-----\n${Buffer.from(der).toString('base64')}\n-----END X509 CRL-----\n`),
  );
  try {
    const { stdout } = await run('openssl', [
      ...['verify', '-crl_check', '-CRLfile', pem, '-CAfile', pki.root.file, '-untrusted', pki.ca.file],
      ...['-purpose', 'any', certificateFile],
    ]);
    return stdout;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return `${failed.stdout ?? ''}${failed.stderr ?? ''}`;
  }
}

describe('a CRL', () => {
  it('is a v2 CRL openssl verifies, listing each revoked serial with its date and reason', async () => {
    const der = await crl([
      {
        serialNumber: serialOf(pki.signer.certificate),
        revokedAt: new Date('2026-02-03T04:05:06Z'),
        reason: 'keyCompromise',
      },
      { serialNumber: 'F00D', revokedAt: new Date('2026-01-01T00:00:00Z'), reason: 'superseded' },
      { serialNumber: '0A0B', revokedAt: new Date('2026-01-02T00:00:00Z'), reason: 'unspecified' },
    ]);
    const { text, verified } = await opensslCrl(der);

    expect(verified).toBe(true);
    expect(text).toMatch(/Version 2 \(0x1\)/);
    expect(text).toMatch(/Signature Algorithm: sha256WithRSAEncryption/);
    expect(text).toMatch(/Issuer: C = BE, O = Paraph Tests, CN = Paraph Test Issuing CA/);
    expect(text).toMatch(/X509v3 CRL Number: *\n\s*7\n/);
    // The authority key identifier is the CA certificate's subject key identifier.
    const { stdout: caText } = await run('openssl', [
      'x509',
      '-noout',
      '-ext',
      'subjectKeyIdentifier',
      '-in',
      pki.ca.file,
    ]);
    const caKeyId = /Subject Key Identifier: *\n\s*([0-9A-F:]+)/.exec(caText)?.[1];
    expect(caKeyId).toMatch(/^([0-9A-F]{2}:){19}[0-9A-F]{2}$/);
    expect(/X509v3 Authority Key Identifier: *\n\s*(?:keyid:)?([0-9A-F:]+)/.exec(text)?.[1]).toBe(caKeyId);
    expect(text).toMatch(
      /Serial Number: 0ABC1234\n\s*Revocation Date: Feb {2}3 04:05:06 2026 GMT\n\s*CRL entry extensions:\n\s*X509v3 CRL Reason Code: *\n\s*Key Compromise/,
    );
    expect(text).toMatch(
      /Serial Number: F00D\n\s*Revocation Date: Jan {2}1 00:00:00 2026 GMT\n\s*CRL entry extensions:\n\s*X509v3 CRL Reason Code: *\n\s*Superseded/,
    );
    // "unspecified" is said by leaving the reason code out (RFC 5280 5.3.1).
    expect(text).toMatch(
      /Serial Number: 0A0B\n\s*Revocation Date: Jan {2}2 00:00:00 2026 GMT\n\s*(Serial Number|Signature Algorithm)/,
    );

    const read = readCrl(der);
    expect(read.crlNumber).toBe(7n);
    expect(read.thisUpdate).toEqual(new Date(Math.floor(THIS_UPDATE.getTime() / 1000) * 1000));
    expect(read.nextUpdate).toEqual(new Date(Math.floor(NEXT_UPDATE.getTime() / 1000) * 1000));
    expect(read.revoked.map(({ serialNumber, reason }) => [serialNumber, reason])).toEqual([
      ['0ABC1234', 'keyCompromise'],
      ['F00D', 'superseded'],
      ['0A0B', 'unspecified'],
    ]);
  });

  it('makes openssl refuse the certificates it lists, and only those', async () => {
    const der = await crl([
      {
        serialNumber: serialOf(pki.signer.certificate),
        revokedAt: new Date('2026-02-03T04:05:06Z'),
        reason: 'keyCompromise',
      },
    ]);
    expect(await opensslVerifyWith(der, pki.signer.file)).toMatch(/certificate revoked/);
    expect(await opensslVerifyWith(der, pki.tsa.file)).toMatch(/: OK/);
  });

  it('has no revoked-certificates list at all when nothing is revoked, and takes CRL numbers beyond 2^64', async () => {
    const big = 2n ** 100n + 3n;
    const der = await crl([], big);
    const { text, verified } = await opensslCrl(der);
    expect(verified).toBe(true);
    expect(text).toMatch(/No Revoked Certificates\./);
    expect(text).toContain(big.toString());
    expect(readCrl(der)).toMatchObject({ crlNumber: big, revoked: [] });
  });

  it('refuses removeFromCRL (delta CRLs only) and a nextUpdate that is not after thisUpdate', async () => {
    await expect(
      crl([{ serialNumber: 'AB', revokedAt: new Date(), reason: 'removeFromCRL' }]),
    ).rejects.toThrow(/delta CRLs/);
    await expect(
      buildCrl({
        issuerCertificate: pki.ca.certificate,
        issuerKey: pki.ca.privateKey,
        revoked: [],
        thisUpdate: NEXT_UPDATE,
        nextUpdate: THIS_UPDATE,
        crlNumber: 1n,
      }),
    ).rejects.toThrow(/nextUpdate/);
  });
});
