// The long-term parts of a report: a signature's time-stamp, a DSS with OCSP responses and CRLs, a
// document time-stamp last (PAdES B-LTA), and revocation read from them or from the CMS. The server does
// not write these yet, so the PDFs are built here (tests/api/verification-support.ts) with tokens and
// responses made by `openssl ts`, `openssl ocsp` and `openssl ca -gencrl`, under the app's own CA.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/schema';
import { makePdf } from '../fixtures/pdfs.ts';
import { buildTestApp, expectMatchesContract, type TestApp } from './helpers.ts';
import { parsePdfsigReport } from './pdf-signatures.ts';
import {
  appCertificateAuthority,
  appendDss,
  appendSignature,
  buildCms,
  TestPki,
  type CmsOptions,
  type Issued,
} from './verification-support.ts';

type Report = components['schemas']['VerificationReport'];
type Signature = components['schemas']['VerificationSignature'];

const run = promisify(execFile);
const HOUR_MS = 3_600_000;

describe('verification of long-term signatures', () => {
  let t: TestApp;
  let pki: TestPki;
  let ca: Issued;
  let signer: Issued;
  let tsa: Issued;
  let address = 0;

  beforeAll(async () => {
    t = await buildTestApp();
    pki = await TestPki.create();
    ca = await appCertificateAuthority(t, pki);
    signer = await pki.issue(ca, '/CN=Grace Hopper/emailAddress=grace@paraph.test', 'signer');
    tsa = await pki.issue(ca, '/CN=Paraph Test TSA', 'tsa');
  });
  afterAll(async () => {
    await pki.close();
    await t.close();
  });

  async function reportOf(pdf: Buffer): Promise<Report> {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/verifications',
      remoteAddress: `192.0.2.${(address += 1)}`,
      headers: { 'content-type': 'application/pdf' },
      payload: pdf,
    });
    expectMatchesContract('createVerification', response.statusCode, response.json());
    expect(response.statusCode, response.body).toBe(200);
    return response.json<components['schemas']['VerificationResponse']>().data.attributes;
  }

  function first(report: Report): Signature {
    const signature = report.signatures[0];
    if (signature === undefined) throw new Error('no signature in the report');
    return signature;
  }

  const stamp = (value: Buffer) => pki.timeStampToken(value, tsa, ca);

  /** A PDF signed by Grace with the CMS built from `options` (signer and chain set here). */
  async function signedPdf(options: Partial<CmsOptions> = {}): Promise<Buffer> {
    return appendSignature(await makePdf(), {
      name: 'Grace Hopper',
      signedAt: t.deps.clock(),
      contents: async (parts) => {
        const cms = await buildCms(parts, { signer, chain: [ca], signingTime: t.deps.clock(), ...options });
        // The builder is checked by a verifier that shares nothing with Paraph's.
        expect(await pki.opensslVerifies(cms, Buffer.concat(parts), ca)).toBe(true);
        return cms;
      },
    });
  }

  it('reads a B-LTA document: the time-stamped signature, the DSS and the document time-stamp', async () => {
    const signed = await signedPdf({ timeStamp: stamp });
    const withDss = await appendDss(signed, {
      certs: [signer.der, tsa.der, ca.der],
      ocsps: [await pki.ocspResponse(ca, signer, 'good')],
    });
    const pdf = await appendSignature(withDss, {
      type: 'DocTimeStamp',
      contents: (parts) => stamp(Buffer.concat(parts)),
    });

    const report = await reportOf(pdf);
    expect(report).toMatchObject({
      verdict: 'valid',
      level: 'B-LTA',
      hasDss: true,
      lastRevisionIsDocumentTimeStamp: true,
      changedAfterLastSignature: false,
    });
    const [signature, documentStamp] = report.signatures;
    expect(signature).toMatchObject({
      kind: 'signature',
      verdict: 'valid',
      problems: [],
      signer: { name: 'Grace Hopper', email: 'grace@paraph.test' },
      timeStamp: { authority: 'CN=Paraph Test TSA', isValid: true, imprintMatches: true, isTrusted: true },
      integrity: { isIntact: true },
      byteRange: { coversWholeRevision: true, coversWholeFile: false },
      changesAfter: { isChanged: true, onlyAllowed: true, kinds: ['document_time_stamp', 'dss'] },
      chain: { isTrusted: true },
    });
    expect(Date.parse(signature?.timeStamp?.time ?? '')).toBeGreaterThan(Date.now() - HOUR_MS);
    expect(signature?.signingTime.cms).not.toBeNull();
    expect(signature?.chain.certificates[0]?.revocation).toMatchObject({
      status: 'good',
      kind: 'ocsp',
      source: 'dss',
    });
    expect(documentStamp).toMatchObject({
      index: 2,
      kind: 'document_time_stamp',
      verdict: 'valid',
      subFilter: 'ETSI.RFC3161',
      signer: { name: 'Paraph Test TSA' },
      timeStamp: { isValid: true, imprintMatches: true, isTrusted: true },
      integrity: { isIntact: true, digestMatches: true },
      byteRange: { coversWholeFile: true },
      changesAfter: { isChanged: false },
    });

    // poppler, which shares no code with Paraph, agrees the signature covers its bytes.
    const file = path.join(t.config.dataDir, 'b-lta.pdf');
    await writeFile(file, pdf);
    const { stdout } = await run('pdfsig', [file]);
    expect(parsePdfsigReport(stdout)[0]).toMatchObject({ isValid: true, commonName: 'Grace Hopper' });
  });

  it('reads a revocation from the signature itself: revoked with no proof of time is invalid', async () => {
    const revokedAt = new Date(t.deps.clock().getTime() - HOUR_MS);
    const pdf = await signedPdf({
      ocspResponses: [await pki.ocspResponse(ca, signer, { revokedAt, reason: 'keyCompromise' })],
    });
    const signature = first(await reportOf(pdf));
    expect(signature.verdict).toBe('invalid');
    expect(signature.problems).toContain('revoked');
    expect(signature.chain.certificates[0]?.revocation).toEqual({
      status: 'revoked',
      kind: 'ocsp',
      source: 'signature',
      checkedAt: expect.any(String),
      revokedAt: new Date(Math.floor(revokedAt.getTime() / 1000) * 1000).toISOString(),
      reason: 'keyCompromise',
    });
  });

  it('reads a CRL from the DSS', async () => {
    const revokedAt = new Date(t.deps.clock().getTime() - HOUR_MS);
    const crl = await pki.crl(ca, [{ certificate: signer, revokedAt, reason: 'superseded' }]);
    const pdf = await appendDss(await signedPdf(), { crls: [crl] });
    const signature = first(await reportOf(pdf));
    expect(signature.verdict).toBe('invalid');
    expect(signature.chain.certificates[0]?.revocation).toMatchObject({
      status: 'revoked',
      kind: 'crl',
      source: 'dss',
      reason: 'superseded',
    });
    // The DSS is an allowed update after the signature.
    expect(signature.changesAfter).toEqual({ isChanged: true, onlyAllowed: true, kinds: ['dss'] });

    const goodCrl = await pki.crl(ca, []);
    const good = first(await reportOf(await appendDss(await signedPdf(), { crls: [goodCrl] })));
    expect(good.chain.certificates[0]?.revocation).toMatchObject({
      status: 'good',
      kind: 'crl',
      source: 'dss',
    });
    expect(good.problems).toEqual([]);
  });

  it('keeps a signature valid when its certificate was revoked after a sound time-stamp', async () => {
    const pdf = await signedPdf({ timeStamp: stamp });
    // A revocation dated after the time-stamp: the signature was made while the certificate was good.
    const revokedAt = new Date(t.deps.clock().getTime() + HOUR_MS);
    const withDss = await appendDss(pdf, {
      ocsps: [await pki.ocspResponse(ca, signer, { revokedAt, reason: 'cessationOfOperation' })],
    });
    const signature = first(await reportOf(withDss));
    expect(signature.verdict).toBe('valid');
    expect(signature.problems).toEqual(['revoked_after_signing']);
  });

  it('reports a time-stamp token that stamps something else as invalid', async () => {
    const pdf = await signedPdf({ timeStamp: () => stamp(Buffer.from('another signature value')) });
    const report = await reportOf(pdf);
    const signature = first(report);
    expect(report.level).toBe('B-T');
    expect(signature.timeStamp).toMatchObject({ isValid: true, imprintMatches: false });
    expect(signature.verdict).toBe('invalid');
    expect(signature.problems).toContain('time_stamp_invalid');
  });
});
