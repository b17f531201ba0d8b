// The deployment's certificate authority (server/signing/ca/): the certificates it issues, read back with
// openssl rather than the code that made them; people's certificates reused, renewed and revoked; the
// status and revocation list an OCSP responder and a CRL are built from; one CA when loads race on a fresh
// database; and issuance that leaves the event loop free.
import { execFile } from 'node:child_process';
import { randomBytes, X509Certificate } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMigratedDatabase } from '../../server/db/database.ts';
import { loadDeploymentPki, type DeploymentPki } from '../../server/signing/ca/index.ts';
import { generateRsaKey, issueSignerCertificate, KEY_BITS } from '../../server/signing/ca/issue.ts';
import {
  certificatePem,
  memoryLog,
  openStandalonePki,
  type StandalonePki,
} from './deployment-pki-support.ts';

const run = promisify(execFile);
const ORIGIN = 'https://sign.example.test';
const DAY_MS = 24 * 3600 * 1000;

let workDir: string;
let standalone: StandalonePki;
let pki: DeploymentPki;
let caFile: string;
let fileCounter = 0;

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'paraph-ca-'));
  standalone = await openStandalonePki(path.join(workDir, 'data'));
  pki = standalone.pki;
  caFile = await pemFile(pki.ca.certificate);
});

afterAll(async () => {
  await standalone.close();
  await rm(workDir, { recursive: true, force: true });
});

async function pemFile(der: Uint8Array): Promise<string> {
  fileCounter += 1;
  const file = path.join(workDir, `cert-${fileCounter}.pem`);
  await writeFile(file, certificatePem(der));
  return file;
}

async function x509Text(der: Uint8Array): Promise<string> {
  const { stdout } = await run('openssl', [
    'x509',
    '-noout',
    '-text',
    '-nameopt',
    'utf8',
    '-in',
    await pemFile(der),
  ]);
  return stdout;
}

/** `openssl verify` against the deployment's root, for a purpose; its output or its error. */
async function opensslVerify(der: Uint8Array, purpose: string, trusted = caFile): Promise<string> {
  try {
    const { stdout } = await run('openssl', [
      'verify',
      '-purpose',
      purpose,
      '-CAfile',
      trusted,
      await pemFile(der),
    ]);
    return stdout.trim();
  } catch (error) {
    return String((error as { stdout?: unknown }).stdout ?? error);
  }
}

/** Years between notBefore and notAfter, as openssl reads them. */
function validityYears(der: Uint8Array): number {
  const x509 = new X509Certificate(der);
  return (new Date(x509.validTo).getTime() - new Date(x509.validFrom).getTime()) / (365.25 * DAY_MS);
}

/** The string type openssl reads for the subject's CN (the last commonName: the issuer's comes first). */
async function commonNameType(der: Uint8Array): Promise<string> {
  const { stdout } = await run('openssl', ['asn1parse', '-in', await pemFile(der)]);
  const lines = stdout.split('\n');
  const names = lines.flatMap((line, index) => (line.includes(':commonName') ? [index] : []));
  return /prim:\s+(\S+)/.exec(lines[(names.at(-1) ?? -2) + 1] ?? '')?.[1] ?? '';
}

const person = (name: string) => ({
  userId: `user-${randomBytes(4).toString('hex')}`,
  fullName: name,
  email: `${randomBytes(4).toString('hex')}@paraph.test`,
});

describe('the certificates the deployment issues', () => {
  it('a self-signed root: RSA 3072, 20 years, CA and keyCertSign + cRLSign critical, its key identifier', async () => {
    const text = await x509Text(pki.ca.certificate);
    expect(text).toContain('Public-Key: (3072 bit)');
    expect(text).toMatch(/X509v3 Basic Constraints: critical\s+CA:TRUE/);
    expect(text).toMatch(/X509v3 Key Usage: critical\s+Certificate Sign, CRL Sign\n/);
    expect(text).toMatch(/X509v3 Subject Key Identifier:\s+([0-9A-F]{2}:){19}[0-9A-F]{2}/);
    expect(text).toContain('Subject: CN=Paraph Signing CA, OU=sign.example.test, O=Paraph');
    expect(text).toContain('Issuer: CN=Paraph Signing CA, OU=sign.example.test, O=Paraph');
    expect(validityYears(pki.ca.certificate)).toBeCloseTo(20, 1);
    expect(pki.ca.chain).toEqual([]);
    expect(pki.trustAnchors).toEqual([pki.ca.certificate]);
    expect(await opensslVerify(pki.ca.certificate, 'any')).toMatch(/: OK$/);
  });

  it("a person's: UTF8 name, address, signing only, emailProtection, 3 years, where its issuer, status and CRL are", async () => {
    const subject = person('Zoë 王小明 Ångström-Müller');
    const key = await pki.signerKey(subject, new Date());
    const text = await x509Text(key.certificate);
    expect(text).toContain('Public-Key: (2048 bit)');
    expect(text).toContain(`Subject: CN=Zoë 王小明 Ångström-Müller, emailAddress=${subject.email}`);
    expect(await commonNameType(key.certificate)).toBe('UTF8STRING');
    expect(text).toMatch(/X509v3 Key Usage: critical\s+Digital Signature, Non Repudiation\n/);
    expect(text).toMatch(/X509v3 Extended Key Usage: \n\s+E-mail Protection\n/);
    expect(text).toMatch(new RegExp(`X509v3 Subject Alternative Name: \\n\\s+email:${subject.email}\\n`));
    expect(text).toMatch(/X509v3 Basic Constraints: critical\s+CA:FALSE/);
    expect(text).toContain(`OCSP - URI:${ORIGIN}/pki/ocsp`);
    expect(text).toContain(`CA Issuers - URI:${ORIGIN}/pki/ca.crt`);
    expect(text).toMatch(
      new RegExp(`X509v3 CRL Distribution Points: \\n\\s+Full Name:\\n\\s+URI:${ORIGIN}/pki/crl`),
    );
    // The authority key identifier is the CA's subject key identifier.
    const caKeyId = /Subject Key Identifier: \n\s+(\S+)/.exec(await x509Text(pki.ca.certificate))?.[1];
    expect(caKeyId).toMatch(/^([0-9A-F]{2}:){19}[0-9A-F]{2}$/);
    expect(text).toMatch(new RegExp(`Authority Key Identifier: \\n\\s+(keyid:)?${caKeyId}`));
    expect(validityYears(key.certificate)).toBeCloseTo(3, 1);
    expect(await opensslVerify(key.certificate, 'smimesign')).toMatch(/: OK$/);

    const x509 = new X509Certificate(key.certificate);
    // Positive and random: 16 bytes, the top bit clear.
    expect(x509.serialNumber).toMatch(/^[4-7][0-9A-F]{31}$/);
    expect(x509.checkPrivateKey(key.privateKey)).toBe(true);
    expect(key.chain).toEqual([pki.ca.certificate]);
  });

  it('a name without letters for a person with no name: the address', async () => {
    const subject = { ...person(''), fullName: '   ' };
    const key = await pki.signerKey(subject, new Date());
    expect(await x509Text(key.certificate)).toContain(
      `Subject: CN=${subject.email}, emailAddress=${subject.email}`,
    );
  });

  it('a name longer than a commonName may be: cut to 64 characters on whole letters, with an ellipsis', async () => {
    // Letters of two code points each (q with an acute accent has no precomposed form): a cut must not
    // split a letter from its accent.
    const long = `Q${'q\u0301'.repeat(40)} von Habsburg-Lothringen`;
    const subject = person(long);
    const key = await pki.signerKey(subject, new Date());
    const commonName = /Subject: CN=(.*), emailAddress=/.exec(await x509Text(key.certificate))?.[1] ?? '';
    expect(commonName).toBe(`Q${'q\u0301'.repeat(31)}…`);
    expect([...commonName]).toHaveLength(64);
    expect(await opensslVerify(key.certificate, 'smimesign')).toMatch(/: OK$/);
    // Issued once: the same long name finds the same certificate again.
    expect((await pki.signerKey(subject, new Date())).certificate).toEqual(key.certificate);

    const exact = person('A'.repeat(64));
    expect(await x509Text((await pki.signerKey(exact, new Date())).certificate)).toContain(
      `Subject: CN=${'A'.repeat(64)}, emailAddress=`,
    );
  });

  it("the time-stamping authority's: timeStamping as its only and critical extended key usage, 10 years", async () => {
    const text = await x509Text(pki.tsa.certificate);
    expect(text).toMatch(/X509v3 Extended Key Usage: critical\s+Time Stamping\n/);
    expect(text).toMatch(/X509v3 Key Usage: critical\s+Digital Signature, Non Repudiation\n/);
    expect(text).toContain(`OCSP - URI:${ORIGIN}/pki/ocsp`);
    expect(text).toContain(`URI:${ORIGIN}/pki/crl`);
    expect(text).toContain('Subject: CN=Paraph Time-Stamping Authority, OU=sign.example.test, O=Paraph');
    expect(validityYears(pki.tsa.certificate)).toBeCloseTo(10, 1);
    expect(await opensslVerify(pki.tsa.certificate, 'timestampsign')).toMatch(/: OK$/);
    expect(pki.tsa.chain).toEqual([pki.ca.certificate]);
    expect(new X509Certificate(pki.tsa.certificate).checkPrivateKey(pki.tsa.privateKey)).toBe(true);
  });

  it("the OCSP responder's: OCSPSigning, no-check, a year", async () => {
    const text = await x509Text(pki.ocspResponder.certificate);
    expect(text).toMatch(/X509v3 Extended Key Usage: \n\s+OCSP Signing\n/);
    expect(text).toContain('OCSP No Check');
    expect(text).toMatch(/X509v3 Key Usage: critical\s+Digital Signature\n/);
    expect(validityYears(pki.ocspResponder.certificate)).toBeCloseTo(1, 1);
    expect(await opensslVerify(pki.ocspResponder.certificate, 'ocsphelper')).toMatch(/: OK$/);
    expect(
      new X509Certificate(pki.ocspResponder.certificate).checkPrivateKey(pki.ocspResponder.privateKey),
    ).toBe(true);
  });

  it('nothing outlives the CA: a certificate issued near its end ends with it', async () => {
    const caEnd = new Date(new X509Certificate(pki.ca.certificate).validTo);
    const now = new Date(caEnd.getTime() - 365 * DAY_MS);
    const key = await generateRsaKey(KEY_BITS);
    const der = await issueSignerCertificate(key, { fullName: 'Late', email: 'late@paraph.test' }, pki.ca, {
      now,
      publicOrigin: ORIGIN,
    });
    expect(new X509Certificate(der).validTo).toBe(new X509Certificate(pki.ca.certificate).validTo);
  });
});

async function currentRows(userId: string) {
  return standalone.db
    .selectFrom('signing_certificates')
    .select(['serial_number', 'current_for', 'revoked_at', 'revocation_reason'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
}

describe("people's certificates", () => {
  it('are reused while they name the person, with the key decrypted once', async () => {
    const subject = person('Grace Hopper');
    const first = await pki.signerKey(subject, new Date());
    const again = await pki.signerKey(subject, new Date());
    expect(Buffer.from(again.certificate).equals(Buffer.from(first.certificate))).toBe(true);
    expect(again.privateKey).toBe(first.privateKey);
    expect(await currentRows(subject.userId)).toHaveLength(1);

    // Another process reads the same certificate from the database and decrypts its key.
    const other = await loadDeploymentPki({
      db: standalone.db,
      config: standalone.config,
      clock: () => new Date(),
      log: memoryLog([]),
    });
    const read = await other.signerKey(subject, new Date());
    expect(Buffer.from(read.certificate).equals(Buffer.from(first.certificate))).toBe(true);
    expect(read.privateKey.export({ type: 'pkcs8', format: 'der' })).toEqual(
      first.privateKey.export({ type: 'pkcs8', format: 'der' }),
    );
  });

  it('are renewed when the name or address changes, the old one revoked as superseded', async () => {
    const subject = person('Grace Hopper');
    const first = await pki.signerKey(subject, new Date());
    const firstSerial = new X509Certificate(first.certificate).serialNumber;
    const at = new Date();
    const renamed = await pki.signerKey({ ...subject, fullName: 'Grace B. Hopper' }, at);
    const renamedSerial = new X509Certificate(renamed.certificate).serialNumber;
    expect(renamedSerial).not.toBe(firstSerial);
    expect(await x509Text(renamed.certificate)).toContain('CN=Grace B. Hopper');
    expect(await pki.certificateStatus(firstSerial)).toEqual({
      status: 'revoked',
      revokedAt: at,
      reason: 'superseded',
    });
    expect(await pki.certificateStatus(renamedSerial)).toEqual({ status: 'good' });
    expect(await pki.revokedCertificates()).toContainEqual({
      serialNumber: firstSerial,
      revokedAt: at,
      reason: 'superseded',
    });

    const later = new Date(at.getTime() + 1000);
    const readdressed = await pki.signerKey(
      { ...subject, fullName: 'Grace B. Hopper', email: 'grace@navy.test' },
      later,
    );
    expect(await x509Text(readdressed.certificate)).toContain('emailAddress=grace@navy.test');
    const rows = await currentRows(subject.userId);
    expect(rows.filter((row) => row.current_for !== null)).toHaveLength(1);
    expect(rows.map((row) => row.revocation_reason)).toEqual(['superseded', 'superseded', null]);
  });

  it('are renewed when less than 30 days are left', async () => {
    const subject = person('Ada Lovelace');
    const first = await pki.signerKey(subject, new Date());
    const end = new Date(new X509Certificate(first.certificate).validTo).getTime();
    const stillFine = await pki.signerKey(subject, new Date(end - 31 * DAY_MS));
    expect(Buffer.from(stillFine.certificate).equals(Buffer.from(first.certificate))).toBe(true);
    const renewed = await pki.signerKey(subject, new Date(end - 29 * DAY_MS));
    expect(Buffer.from(renewed.certificate).equals(Buffer.from(first.certificate))).toBe(false);
  });

  it('end with one current certificate when two instances issue the first one at once', async () => {
    const other = await loadDeploymentPki({
      db: standalone.db,
      config: standalone.config,
      clock: () => new Date(),
      log: memoryLog([]),
    });
    const subject = person('Katherine Johnson');
    const [a, b] = await Promise.all([
      pki.signerKey(subject, new Date()),
      other.signerKey(subject, new Date()),
    ]);
    expect(Buffer.from(a.certificate).equals(Buffer.from(b.certificate))).toBe(true);
    const rows = await currentRows(subject.userId);
    expect(rows).toEqual([expect.objectContaining({ current_for: subject.userId, revoked_at: null })]);
  });
});

describe('status and revocation', () => {
  it('is good for what the CA issued, unknown for any other serial, in any spelling', async () => {
    const key = await pki.signerKey(person('Hedy Lamarr'), new Date());
    const serial = new X509Certificate(key.certificate).serialNumber;
    expect(await pki.certificateStatus(serial)).toEqual({ status: 'good' });
    expect(await pki.certificateStatus(`00${serial.toLowerCase()}`)).toEqual({ status: 'good' });
    expect(await pki.certificateStatus(new X509Certificate(pki.tsa.certificate).serialNumber)).toEqual({
      status: 'good',
    });
    expect(await pki.certificateStatus('7F00112233445566778899AABBCCDDEE')).toEqual({ status: 'unknown' });
    // The root is no certificate it issued.
    expect(await pki.certificateStatus(new X509Certificate(pki.ca.certificate).serialNumber)).toEqual({
      status: 'unknown',
    });
  });

  it('revokes with a time and a reason once; the person then gets a new certificate', async () => {
    const subject = person('Alan Turing');
    const key = await pki.signerKey(subject, new Date());
    const serial = new X509Certificate(key.certificate).serialNumber;
    const at = new Date('2027-02-03T04:05:06.000Z');
    expect(await pki.revoke(serial.toLowerCase(), 'keyCompromise', at)).toEqual({
      kind: 'revoked',
      serialNumber: serial,
      what: 'signer',
    });
    const revoked = { status: 'revoked', revokedAt: at, reason: 'keyCompromise' };
    expect(await pki.certificateStatus(serial)).toEqual(revoked);
    expect(await pki.revoke(serial, 'unspecified', new Date())).toEqual({
      kind: 'already',
      serialNumber: serial,
      what: 'signer',
      status: revoked,
    });
    expect(await pki.revokedCertificates()).toContainEqual({
      serialNumber: serial,
      revokedAt: at,
      reason: 'keyCompromise',
    });

    const next = await pki.signerKey(subject, new Date());
    expect(new X509Certificate(next.certificate).serialNumber).not.toBe(serial);
    expect(
      await pki.revoke(new X509Certificate(pki.ca.certificate).serialNumber, 'keyCompromise', at),
    ).toMatchObject({
      kind: 'ca',
    });
    expect(await pki.revoke('7F00112233445566778899AABBCCDDEE', 'keyCompromise', at)).toMatchObject({
      kind: 'unknown',
    });
  });
});

describe('one CA per deployment', () => {
  it('when loads race on a fresh database: one CA, one TSA and one OCSP responder key', async () => {
    const dataDir = path.join(workDir, 'race');
    const { db } = await openMigratedDatabase({ dataDir, databaseUrl: null });
    try {
      const config = { ...standalone.config, dataDir };
      const logs: string[] = [];
      const load = () => loadDeploymentPki({ db, config, clock: () => new Date(), log: memoryLog(logs) });
      const [a, b, c] = await Promise.all([load(), load(), load()]);
      expect(b.caFingerprint).toBe(a.caFingerprint);
      expect(c.caFingerprint).toBe(a.caFingerprint);
      expect(Buffer.from(b.tsa.certificate).equals(Buffer.from(a.tsa.certificate))).toBe(true);
      expect(Buffer.from(c.ocspResponder.certificate).equals(Buffer.from(a.ocspResponder.certificate))).toBe(
        true,
      );
      const current = await db
        .selectFrom('pki_keys')
        .select('role')
        .where('current_role', 'is not', null)
        .execute();
      expect(current.map((row) => row.role).sort()).toEqual(['ca', 'ocsp', 'tsa']);
      expect(logs.filter((line) => line.includes("made the deployment's signing CA"))).toHaveLength(1);
      const recorded = await db
        .selectFrom('server_secrets')
        .select('value')
        .where('name', '=', 'signing_ca_sha256')
        .executeTakeFirstOrThrow();
      expect(recorded.value).toBe(a.caFingerprint);
    } finally {
      await db.destroy();
    }
  });
});

describe('issuing leaves the event loop free', () => {
  // A person's first certificate as the server makes it: its key generated then, not taken from the
  // test process's pool (key-pool.ts).
  let generating: StandalonePki;
  beforeAll(async () => {
    generating = await openStandalonePki(
      path.join(workDir, 'generating'),
      {},
      () => new Date(),
      generateRsaKey,
    );
  });
  afterAll(async () => {
    await generating.close();
  });

  it('signs a certificate off the loop, and reports the longest stall while a person gets one', async () => {
    // A timer queued as issuing starts runs before the certificate is done: the RSA signature is not
    // made on the loop (node-forge's took 383 ms on it).
    const key = await generateRsaKey(KEY_BITS);
    const order: string[] = [];
    setImmediate(() => order.push('loop turned'));
    await issueSignerCertificate(key, { fullName: 'Loop', email: 'loop@paraph.test' }, pki.ca, {
      now: new Date(),
      publicOrigin: ORIGIN,
    }).then(() => order.push('issued'));
    expect(order).toEqual(['loop turned', 'issued']);

    const histogram = monitorEventLoopDelay({ resolution: 1 });
    histogram.enable();
    const startedAt = performance.now();
    await generating.pki.signerKey(person('Stall Probe'), new Date());
    const elapsedMs = performance.now() - startedAt;
    histogram.disable();
    const maxMs = histogram.max / 1e6;
    // Printed, not asserted: a loaded machine's scheduler can stall any process.
    console.info(
      `a person's first certificate: ${elapsedMs.toFixed(0)} ms in all; the event loop's longest delay ` +
        `${maxMs.toFixed(1)} ms, p99 ${(histogram.percentile(99) / 1e6).toFixed(1)} ms`,
    );
    expect(histogram.count).toBeGreaterThan(0);
  });
});
