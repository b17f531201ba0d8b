// A remote TSA (PARAPH_TSA_URL) whose certificate another CA issued: the DSS carries the answer of the
// OCSP responder that certificate names, fetched once and kept for the next signatures until its
// nextUpdate; a responder that is down is a RevocationUnavailableError (the request stays pending), a
// revoked TSA certificate gives no signature, and one that names no responder gets no revocation data and
// a warning. The TSA is OpenSSL's own (`openssl ts -reply`) behind a local HTTP server, its chain made by
// openssl (tests/api/pki-support.ts); the responder is the project's, signing with that chain's delegated
// responder key; `openssl ocsp` checks the answer in the file.
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef, decodePDFRawStream } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signEngine } from '../../server/signing/engine.ts';
import { createLocalSigner } from '../../server/signing/local-signer.ts';
import { RevocationUnavailableError, TimeStampUnavailableError } from '../../server/signing/pki/errors.ts';
import { readCadesSignature } from '../../server/signing/pki/cms.ts';
import { ocspResponder } from '../../server/signing/pki/ocsp.ts';
import { readTimeStampToken } from '../../server/signing/pki/tsa.ts';
import type { CertificateStatus } from '../../server/signing/pki/types.ts';
import { signingServices } from '../../server/signing/services.ts';
import type { SignatureRequest } from '../../server/signing/signer.ts';
import { makePdf } from '../fixtures/pdfs.ts';
import { openStandalonePki, type StandalonePki } from './deployment-pki-support.ts';
import { parsePdfsigReport } from './pdf-signatures.ts';
import { answerWith, makeTestPki, startServer, type TestPki, type TestServer } from './pki-support.ts';

const run = promisify(execFile);

const TSA_CONFIG = `
[ tsa ]
default_tsa = tsa_config
[ tsa_config ]
serial = ./tsa-serial
crypto_device = builtin
signer_digest = sha256
default_policy = 1.2.3.4.1
digests = sha256
accuracy = secs:1
ess_cert_id_alg = sha256
`;

let dir: string;
let external: TestPki;
let deployment: StandalonePki;
let tsa: TestServer;
let responder: TestServer;
let responderDown = false;
let tsaStatus: CertificateStatus = { status: 'good' };
/** Which TSA certificate OpenSSL signs with: the one naming the responder, or one naming none. */
let tsaCertificate = 'tsa';
let counter = 0;

async function openssl(args: string[]): Promise<string> {
  const { stdout, stderr } = await run('openssl', args, { cwd: dir });
  return `${stdout}${stderr}`;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'paraph-remote-tsa-'));
  responder = await startServer(async (body, request, response) => {
    if (responderDown) {
      return answerWith('text/plain', () => Buffer.from('Service Unavailable'), 503)(body, request, response);
    }
    const answer = await ocspResponder({
      issuerCertificate: external.ca.certificate,
      responderCertificate: external.ocsp.certificate,
      responderKey: external.ocsp.privateKey,
      status: async () => tsaStatus,
      clock: () => new Date(),
      validityMs: 3600 * 1000,
    }).answer(body);
    return answerWith('application/ocsp-response', () => answer)(body, request, response);
  });
  external = await makeTestPki(dir, {
    ocspUrl: `${responder.url}/signer`,
    tsaOcspUrl: `${responder.url}/ocsp`,
  });
  // A second TSA certificate of the same CA that names no responder.
  await openssl([
    ...['x509', '-req', '-in', 'tsa.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-set_serial', '0x1004'],
    ...[
      '-days',
      '30',
      '-sha256',
      '-extfile',
      'extensions.cnf',
      '-extensions',
      'tsa',
      '-out',
      'tsa-plain.pem',
    ],
  ]);
  await writeFile(path.join(dir, 'tsa.cnf'), TSA_CONFIG);
  await writeFile(path.join(dir, 'tsa-serial'), '01\n');
  tsa = await startServer(async (body, request, response) => {
    counter += 1;
    const query = `q-${counter}.tsq`;
    const reply = `r-${counter}.tsr`;
    await writeFile(path.join(dir, query), body);
    await openssl([
      ...['ts', '-reply', '-config', 'tsa.cnf', '-queryfile', query],
      ...[
        '-signer',
        `${tsaCertificate}.pem`,
        '-inkey',
        'tsa.key',
        '-chain',
        external.chainFile,
        '-out',
        reply,
      ],
    ]);
    const answer = await readFile(path.join(dir, reply));
    return answerWith('application/timestamp-reply', () => answer)(body, request, response);
  });
  deployment = await openStandalonePki(path.join(dir, 'data'), { PARAPH_TSA_URL: `${tsa.url}/tsr` });
}, 120_000);

afterAll(async () => {
  signEngine().stop();
  await deployment?.close();
  await Promise.all([tsa?.close(), responder?.close()]);
  await rm(dir, { recursive: true, force: true });
});

const warnings: string[] = [];

function signer() {
  const services = signingServices(deployment.pki, deployment.config, () => new Date(), {
    remoteTimeoutMs: 5000,
    log: { warn: (_details, message) => warnings.push(message) },
  });
  return createLocalSigner({ pki: deployment.pki, services });
}

function request(pdf: Uint8Array, index: number, extra: Partial<SignatureRequest> = {}): SignatureRequest {
  return {
    pdf,
    signer: { userId: `user-${index}`, fullName: `Signer ${index}`, email: `signer${index}@paraph.test` },
    smartCardType: 'personal_level3',
    locale: 'en',
    location: 'Brussels',
    reason: '',
    signedAt: new Date(),
    placement: { kind: 'page', signPageNumber: 0 },
    signatureIndex: index,
    ...extra,
  };
}

function dssStreams(doc: PDFDocument, key: string): Buffer[] {
  const dss = doc.catalog.lookup(PDFName.of('DSS'));
  if (!(dss instanceof PDFDict)) return [];
  const array = dss.lookup(PDFName.of(key));
  if (!(array instanceof PDFArray)) return [];
  return array.asArray().map((ref) => {
    const stream = ref instanceof PDFRef ? doc.context.lookup(ref) : undefined;
    if (!(stream instanceof PDFRawStream)) throw new Error('not a stream');
    return Buffer.from(decodePDFRawStream(stream).decode());
  });
}

async function pdfsig(pdf: Uint8Array): Promise<boolean[]> {
  counter += 1;
  const file = path.join(dir, `signed-${counter}.pdf`);
  await writeFile(file, pdf);
  let report: string;
  try {
    report = (await run('pdfsig', [file])).stdout;
  } catch (error) {
    // pdfsig exits non-zero when it does not trust a certificate; its report is still complete.
    report = (error as { stdout: string }).stdout;
  }
  return parsePdfsigReport(report).map((signature) => signature.isValid);
}

const der = (pem: string): Buffer => Buffer.from(new X509Certificate(pem).raw);

describe('a remote TSA certified by another CA', () => {
  it('gets its responder’s answer in the DSS, which openssl verifies, fetched once for two signatures', async () => {
    tsaCertificate = 'tsa';
    const sign = signer();
    const asked = responder.requests;
    const first = await sign.sign(request(await makePdf({ pages: 1 }), 0));
    const second = await sign.sign(request(first.pdf, 1, { completesFlow: true }));

    // Two signature time-stamps and a document time-stamp by the remote TSA; one answer from its responder.
    expect(responder.requests - asked).toBe(1);
    expect(await pdfsig(second.pdf)).toEqual([true, true]);

    const doc = await PDFDocument.load(second.pdf, { updateMetadata: false });
    const certs = dssStreams(doc, 'Certs');
    for (const pem of [external.tsa.pem, external.ca.pem, external.root.pem, external.ocsp.pem]) {
      expect(certs.some((cert) => cert.equals(der(pem)))).toBe(true);
    }
    const tsaSerial = new X509Certificate(external.tsa.pem).serialNumber;
    const verified: string[] = [];
    for (const [index, answer] of dssStreams(doc, 'OCSPs').entries()) {
      const file = path.join(dir, `dss-ocsp-${index}.der`);
      await writeFile(file, answer);
      const text = await openssl(['ocsp', '-respin', file, '-resp_text', '-noverify']);
      if (!new RegExp(`Serial Number: 0*${tsaSerial}\\b`).test(text)) continue;
      const checked = await openssl([
        ...['ocsp', '-respin', file, '-CAfile', external.root.file],
        ...['-issuer', external.ca.file, '-cert', external.tsa.file, '-no_nonce'],
      ]);
      expect(checked).toContain('Response verify OK');
      expect(checked).toContain(`${external.tsa.file}: good`);
      verified.push(file);
    }
    // The same answer served both signatures: stored once.
    expect(verified).toHaveLength(1);
    expect(warnings).toEqual([]);
  }, 120_000);

  it('fails with RevocationUnavailableError when its responder is down', async () => {
    tsaCertificate = 'tsa';
    responderDown = true;
    try {
      const asked = responder.requests;
      const attempt = signer().sign(request(await makePdf({ pages: 1 }), 0));
      await expect(attempt).rejects.toThrow(RevocationUnavailableError);
      await expect(attempt).rejects.toThrow(/HTTP 503/);
      expect(responder.requests - asked).toBe(1);
    } finally {
      responderDown = false;
    }
  }, 60_000);

  it('gives no signature when its certificate is revoked', async () => {
    tsaCertificate = 'tsa';
    tsaStatus = { status: 'revoked', revokedAt: new Date(Date.now() - 60_000), reason: 'keyCompromise' };
    try {
      const attempt = signer().sign(request(await makePdf({ pages: 1 }), 0));
      await expect(attempt).rejects.toThrow(TimeStampUnavailableError);
      await expect(attempt).rejects.toThrow(/is revoked according to its OCSP responder/);
    } finally {
      tsaStatus = { status: 'good' };
    }
  }, 60_000);

  it('signs without revocation data for a TSA certificate that names no responder, and says so once', async () => {
    tsaCertificate = 'tsa-plain';
    warnings.length = 0;
    const sign = signer();
    const asked = responder.requests;
    const first = await sign.sign(request(await makePdf({ pages: 1 }), 0));
    await sign.sign(request(first.pdf, 1));

    expect(responder.requests).toBe(asked);
    expect(warnings).toEqual([
      'a certificate of another CA names no OCSP responder: no revocation data for it',
    ]);
    // The token's TSA is the plain certificate; no answer in the DSS is about it.
    const token = readTimeStampToken(
      readCadesSignature(contentsOf(first.pdf)).timeStampToken ?? new Uint8Array(),
    );
    const plain = der(await readFile(path.join(dir, 'tsa-plain.pem'), 'utf8'));
    expect(Buffer.from(token.signerCertificate ?? []).equals(plain)).toBe(true);
    const doc = await PDFDocument.load(first.pdf, { updateMetadata: false });
    expect(dssStreams(doc, 'Certs').some((cert) => cert.equals(plain))).toBe(true);
    const answers = dssStreams(doc, 'OCSPs');
    expect(answers.length).toBeGreaterThan(0);
    for (const [index, answer] of answers.entries()) {
      const file = path.join(dir, `plain-ocsp-${index}.der`);
      await writeFile(file, answer);
      const text = await openssl(['ocsp', '-respin', file, '-resp_text', '-noverify']);
      expect(text).not.toMatch(/Serial Number: 0*1004\b/);
    }
  }, 60_000);
});

// The first signature's value: the DER of its /Contents, without the zero padding.
function contentsOf(pdf: Uint8Array): Buffer {
  const match = /\/Contents <([0-9A-F]+)>/.exec(Buffer.from(pdf).toString('latin1'));
  if (match?.[1] === undefined) throw new Error('no signature');
  const value = Buffer.from(match[1], 'hex');
  const second = value[1] ?? 0;
  const lengthBytes = second & 0x80 ? second & 0x7f : 0;
  let length = second & 0x80 ? 0 : second;
  for (let index = 0; index < lengthBytes; index += 1) length = length * 256 + (value[2 + index] ?? 0);
  return value.subarray(0, 2 + lengthBytes + length);
}
