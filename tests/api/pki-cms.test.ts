// The CAdES signature of server/signing/pki/cms.ts (PAdES B-B, and B-T with the embedded TSA's token),
// checked by openssl, which shares none of its code: `openssl cms -verify` over the signed content,
// `openssl cms -print` and `asn1parse` for what is in it, `openssl ts -verify` for the time-stamp token.
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCadesSignature, readCadesSignature } from '../../server/signing/pki/cms.ts';
import { TimeStampUnavailableError } from '../../server/signing/pki/errors.ts';
import { embeddedTsa, readTimeStampToken, timeStampSignature } from '../../server/signing/pki/tsa.ts';
import { makeTestPki, run, type TestPki } from './pki-support.ts';

const sha256 = (bytes: Uint8Array): Buffer => createHash('sha256').update(bytes).digest();

let dir: string;
let pki: TestPki;
let fileCounter = 0;
const content = Buffer.from('%PDF-1.7 the byte ranges of a document, as a PAdES signature covers them\n');

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'paraph-pki-cms-'));
  pki = await makeTestPki(dir, { ocspUrl: 'http://127.0.0.1:9/pki/ocsp' });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, bytes: Uint8Array): Promise<string> {
  fileCounter += 1;
  const target = path.join(dir, `${fileCounter}-${name}`);
  await writeFile(target, bytes);
  return target;
}

async function opensslCmsVerify(
  cms: Uint8Array,
  signed: Uint8Array,
): Promise<{ ok: boolean; output: string }> {
  const args = ['cms', '-verify', '-binary', '-inform', 'DER', '-purpose', 'any', '-CAfile', pki.root.file];
  const files = ['-in', await file('cms.der', cms), '-content', await file('content.bin', signed)];
  try {
    const { stderr } = await run('openssl', [...args, ...files, '-out', path.join(dir, 'verified.bin')]);
    return { ok: stderr.includes('Verification successful'), output: stderr };
  } catch (error) {
    return { ok: false, output: String((error as { stderr?: string }).stderr ?? error) };
  }
}

async function opensslTsVerify(
  token: Uint8Array,
  digestHex: string,
): Promise<{ ok: boolean; output: string }> {
  const args = ['ts', '-verify', '-digest', digestHex, '-in', await file('token.der', token), '-token_in'];
  try {
    const { stdout } = await run('openssl', [...args, '-CAfile', pki.root.file, '-untrusted', pki.tsa.file]);
    return { ok: /Verification: OK/.test(stdout), output: stdout };
  } catch (error) {
    return { ok: false, output: String((error as { stdout?: string }).stdout ?? error) };
  }
}

const tsa = () => embeddedTsa({ ...pki.tsa, clock: () => new Date() });

describe('a PAdES B-B signature', () => {
  it('is a detached CMS that openssl verifies against the root, and only over the signed content', async () => {
    const cms = await buildCadesSignature({ contentDigest: sha256(content), signer: pki.signer });

    expect(await opensslCmsVerify(cms, content)).toMatchObject({ ok: true });
    const tampered = Buffer.from(content);
    tampered.writeUInt8(tampered.readUInt8(10) ^ 1, 10);
    expect((await opensslCmsVerify(cms, tampered)).ok).toBe(false);
  });

  it('signs content-type, message-digest and signing-certificate-v2 and nothing else: no signing-time', async () => {
    const cms = await buildCadesSignature({ contentDigest: sha256(content), signer: pki.signer });
    const { stdout } = await run('openssl', [
      'cms',
      '-cmsout',
      '-print',
      '-inform',
      'DER',
      '-in',
      await file('p.der', cms),
    ]);

    const signedAttributes = stdout.slice(
      stdout.indexOf('signedAttrs:'),
      stdout.indexOf('signatureAlgorithm:', stdout.indexOf('signedAttrs:')),
    );
    const objects = [...signedAttributes.matchAll(/object: (.+) \(([\d.]+)\)/g)].map((match) => match[2]);
    expect(objects).toEqual(['1.2.840.113549.1.9.3', '1.2.840.113549.1.9.4', '1.2.840.113549.1.9.16.2.47']);
    expect(stdout).not.toMatch(/signingTime|1\.2\.840\.113549\.1\.9\.5\b/);
    expect(stdout).toMatch(/unsignedAttrs:\s*<ABSENT>|unsignedAttrs:\s*<EMPTY>/);
    // Detached: no eContent; SHA-256 with RSA PKCS #1 v1.5.
    expect(stdout).toMatch(/eContentType: pkcs7-data[\s\S]*?eContent: <ABSENT>/);
    expect(stdout).toMatch(/digestAlgorithm:\s*\n\s*algorithm: sha256/);
    expect(stdout).toMatch(/signatureAlgorithm:\s*\n\s*algorithm: rsaEncryption/);
  });

  it('names its certificate in signing-certificate-v2 by SHA-256, with the default algorithm left out', async () => {
    const cms = await buildCadesSignature({ contentDigest: sha256(content), signer: pki.signer });
    const { stdout } = await run('openssl', ['asn1parse', '-inform', 'DER', '-in', await file('a.der', cms)]);
    const lines = stdout.split('\n');
    const at = lines.findIndex((line) => line.includes(':id-smime-aa-signingCertificateV2'));
    expect(at).toBeGreaterThan(0);
    // SET { SigningCertificateV2 SEQUENCE { certs SEQUENCE { ESSCertIDv2 SEQUENCE { certHash OCTET STRING ...
    const next = lines.slice(at + 1, at + 6).map((line) => line.replace(/^.*?(cons|prim): */, '').trim());
    expect(next.slice(0, 5)).toEqual([
      'SET',
      'SEQUENCE',
      'SEQUENCE',
      'SEQUENCE',
      expect.stringMatching(
        new RegExp(`^OCTET STRING +\\[HEX DUMP\\]:${sha256(pki.signer.certificate).toString('hex')}$`, 'i'),
      ),
    ]);

    const read = readCadesSignature(cms);
    expect(read.signingCertificateHash).toEqual({
      hashAlgorithm: undefined,
      hash: new Uint8Array(sha256(pki.signer.certificate)),
    });
  });

  it('carries the signer certificate and its chain byte for byte, in order', async () => {
    const cms = await buildCadesSignature({ contentDigest: sha256(content), signer: pki.signer });
    const read = readCadesSignature(cms);

    expect(read.certificates.map((der) => Buffer.from(der).toString('hex'))).toEqual(
      [pki.signer.certificate, pki.ca.certificate, pki.root.certificate].map((der) =>
        Buffer.from(der).toString('hex'),
      ),
    );
    expect(Buffer.from(read.signerCertificate).equals(Buffer.from(pki.signer.certificate))).toBe(true);
    expect(Buffer.from(read.messageDigest).equals(sha256(content))).toBe(true);
    expect(read.timeStampToken).toBeUndefined();
    // openssl finds the signer among the certificates it carries, by the issuer and serial it names.
    const signerOut = path.join(dir, 'signer-out.pem');
    const verifyArgs = ['cms', '-verify', '-binary', '-inform', 'DER', '-noverify', '-signer', signerOut];
    const files = ['-in', await file('s.der', cms), '-content', await file('c.bin', content)];
    await run('openssl', [...verifyArgs, ...files, '-out', path.join(dir, 'o.bin')]);
    const { stdout } = await run('openssl', ['x509', '-noout', '-serial', '-in', signerOut]);
    expect(stdout.trim()).toBe('serial=0ABC1234');
  });

  it('refuses a key that is not the certificate’s, rather than make a signature that cannot verify', async () => {
    await expect(
      buildCadesSignature({
        contentDigest: sha256(content),
        signer: { ...pki.signer, privateKey: pki.tsa.privateKey },
      }),
    ).rejects.toThrow(/private key does not belong to its certificate/);
  });
});

describe('a PAdES B-T signature', () => {
  it('carries a time-stamp token over its signature value that openssl ts verifies', async () => {
    const before = Date.now();
    const cms = await buildCadesSignature({
      contentDigest: sha256(content),
      signer: pki.signer,
      timeStamp: timeStampSignature(tsa()),
    });

    expect(await opensslCmsVerify(cms, content)).toMatchObject({ ok: true });
    const { stdout } = await run('openssl', [
      'cms',
      '-cmsout',
      '-print',
      '-inform',
      'DER',
      '-in',
      await file('bt.der', cms),
    ]);
    const unsigned = stdout.slice(stdout.indexOf('unsignedAttrs:'));
    expect(unsigned).toMatch(/object: id-smime-aa-timeStampToken \(1\.2\.840\.113549\.1\.9\.16\.2\.14\)/);

    const read = readCadesSignature(cms);
    expect(read.timeStampToken).toBeDefined();
    const token = read.timeStampToken ?? new Uint8Array();
    const imprint = sha256(read.signatureValue).toString('hex');
    expect(await opensslTsVerify(token, imprint)).toMatchObject({ ok: true });
    // Over the signature value, not over anything else.
    expect((await opensslTsVerify(token, sha256(content).toString('hex'))).ok).toBe(false);

    const info = readTimeStampToken(token);
    expect(info.genTime.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(info.genTime.getTime()).toBeLessThanOrEqual(Date.now());
    // Still no signing-time among the signed attributes.
    expect(read.signedAttributeTypes).not.toContain('1.2.840.113549.1.9.5');
  });

  it('fails with TimeStampUnavailableError, and no signature, when the token is not over this signature', async () => {
    const stamper = tsa();
    const elsewhere = sha256(Buffer.from('another signature'));
    await expect(
      buildCadesSignature({
        contentDigest: sha256(content),
        signer: pki.signer,
        timeStamp: () => stamper.timeStamp(elsewhere),
      }),
    ).rejects.toThrow(TimeStampUnavailableError);
    await expect(
      buildCadesSignature({
        contentDigest: sha256(content),
        signer: pki.signer,
        timeStamp: async () => new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x00]),
      }),
    ).rejects.toThrow(TimeStampUnavailableError);
  });

  it('passes on the time-stamper’s TimeStampUnavailableError', async () => {
    const down = new TimeStampUnavailableError('no answer within 50 ms', { service: 'http://tsa.test' });
    const attempt = buildCadesSignature({
      contentDigest: sha256(content),
      signer: pki.signer,
      timeStamp: () => Promise.reject(down),
    });
    await expect(attempt).rejects.toBe(down);
    expect(down.message).toBe(
      'No time-stamp from the time-stamping authority (http://tsa.test): no answer within 50 ms',
    );
  });
});
