// POST /api/verifications: a report on the signatures of any PDF, for anyone, without an account. Signed
// PDFs come from the app's own signer (trusted), from a CA made here with openssl (not trusted), and are
// then damaged, extended or signed again; every answer is checked against the contract.
import { createHash } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/schema';
import type { SignatureRequest } from '../../server/signing/signer.ts';
import { VERIFICATION_LIMIT } from '../../server/handlers/verifications.ts';
import { makeEncryptedPdf, makeNotPdf, makePdf } from '../fixtures/pdfs.ts';
import { bearer, buildTestApp, expectMatchesContract, type TestApp } from './helpers.ts';
import { multipartForm } from './storage-form.ts';
import { appendPageChange, appendSignature, TestPki } from './verification-support.ts';

type Report = components['schemas']['VerificationReport'];

let addressCounter = 0;
/** Each call from an address of its own, unless a test names one: the per-address limit is tested apart. */
const freshAddress = (): string => `192.0.2.${(addressCounter += 1)}`;

type Sent = { status: number; json: unknown; headers: Record<string, unknown> };

async function post(
  t: TestApp,
  payload: Buffer | string,
  options: { contentType?: string; remoteAddress?: string; headers?: Record<string, string> } = {},
): Promise<Sent> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/verifications',
    remoteAddress: options.remoteAddress ?? freshAddress(),
    headers: { 'content-type': options.contentType ?? 'application/pdf', ...options.headers },
    payload,
  });
  const json: unknown = response.body === '' ? undefined : response.json();
  expectMatchesContract('createVerification', response.statusCode, json);
  return { status: response.statusCode, json, headers: response.headers };
}

async function reportOf(t: TestApp, pdf: Buffer, options: Parameters<typeof post>[2] = {}): Promise<Report> {
  const answer = await post(t, pdf, options);
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  const body = answer.json as components['schemas']['VerificationResponse'];
  expect(body.data.id).toBe(createHash('sha256').update(pdf).digest('hex'));
  return body.data.attributes;
}

function signatureOf(report: Report, index = 0) {
  const signature = report.signatures[index];
  if (signature === undefined) throw new Error(`no signature ${index + 1} in the report`);
  return signature;
}

describe('POST /api/verifications', () => {
  let t: TestApp;
  let pki: TestPki;
  let signed: Buffer;
  let signedAt: Date;

  const request = (pdf: Uint8Array, overrides: Partial<SignatureRequest> = {}): SignatureRequest => ({
    pdf,
    signer: { userId: 'user-ada', fullName: 'Ada Lovelace', email: 'ada@paraph.test' },
    smartCardType: 'personal_level3',
    locale: 'en',
    location: 'Brussels',
    reason: 'I approve this contract',
    signedAt: t.deps.clock(),
    placement: { kind: 'page', signPageNumber: 0 },
    signatureIndex: 0,
    ...overrides,
  });

  beforeAll(async () => {
    t = await buildTestApp();
    pki = await TestPki.create();
    signedAt = t.deps.clock();
    signed = Buffer.from((await t.deps.signer.sign(request(await makePdf({ pages: 2 }), { signedAt }))).pdf);
  });
  afterAll(async () => {
    await pki.close();
    await t.close();
  });

  it('reports a PDF the app signed as valid, trusted and covering the whole file, to someone signed out', async () => {
    const report = await reportOf(t, signed);
    expect(report).toMatchObject({
      verdict: 'valid',
      fileSize: signed.length,
      changedAfterLastSignature: false,
    });
    const signature = signatureOf(report);
    expect(signature).toMatchObject({
      index: 1,
      kind: 'signature',
      verdict: 'valid',
      subFilter: 'ETSI.CAdES.detached',
      signer: {
        name: 'Ada Lovelace',
        email: 'ada@paraph.test',
        certificateSubject: 'CN=Ada Lovelace, E=ada@paraph.test',
        nameInDocument: 'Ada Lovelace',
      },
      reason: 'I approve this contract',
      location: 'Brussels',
      integrity: { isIntact: true, signatureVerifies: true, digestMatches: true, digestAlgorithm: 'SHA-256' },
      byteRange: { coversWholeRevision: true },
      chain: { isTrusted: true },
    });
    // /M keeps whole seconds.
    expect(signature.signingTime.claimed).toBe(
      new Date(Math.floor(signedAt.getTime() / 1000) * 1000).toISOString(),
    );
    // The validation data the signer adds after its signature (B-LT) is an allowed update.
    expect(signature.changesAfter).toMatchObject({ isChanged: true, onlyAllowed: true, kinds: ['dss'] });
    const chain = signature.chain.certificates;
    expect(chain[0]).toMatchObject({ subject: 'CN=Ada Lovelace, E=ada@paraph.test', isTrustAnchor: false });
    expect(chain.at(-1)).toMatchObject({ isTrustAnchor: true, revocation: null });
  });

  it('reads the app’s B-LT signature: a trusted time-stamp, and the OCSP answer the document carries', async () => {
    const report = await reportOf(t, signed);
    expect(report).toMatchObject({ level: 'B-LT', hasDss: true, lastRevisionIsDocumentTimeStamp: false });
    const signature = signatureOf(report);
    expect(signature).toMatchObject({
      timeStamp: { isValid: true, imprintMatches: true, isTrusted: true },
      byteRange: { coversWholeFile: false },
    });
    expect(signature.byteRange.revisionEnd).toBeLessThan(signed.length);
    expect(Date.parse(signature.timeStamp?.time ?? '')).toBeGreaterThanOrEqual(
      Math.floor(signedAt.getTime() / 1000) * 1000,
    );
    expect(signature.problems).toEqual([]);
    expect(signature.chain.certificates[0]?.revocation).toMatchObject({
      status: 'good',
      kind: 'ocsp',
      source: 'dss',
    });
  });

  it('reports a certificate revoked since the signature as revoked, from this service’s current list', async () => {
    const own = await buildTestApp();
    try {
      const document = Buffer.from(
        (
          await own.deps.signer.sign({
            ...request(await makePdf()),
            signer: { userId: 'user-erin', fullName: 'Erin Revoked', email: 'erin@paraph.test' },
          })
        ).pdf,
      );
      const before = signatureOf(await reportOf(own, document));
      expect(before.chain.certificates[0]?.revocation).toMatchObject({ status: 'good', source: 'dss' });
      const revokedAt = new Date(own.deps.clock().getTime() + 60_000);
      const pki = await own.deps.pki();
      const revoked = await pki.revoke(
        before.chain.certificates[0]?.serialNumber ?? '',
        'keyCompromise',
        revokedAt,
      );
      expect(revoked.kind).toBe('revoked');

      const after = signatureOf(await reportOf(own, document));
      expect(after.chain.certificates[0]?.revocation).toMatchObject({
        status: 'revoked',
        kind: 'crl',
        source: 'service',
        reason: 'keyCompromise',
      });
      // Its time-stamp proves the signature was made before the revocation.
      expect(after.problems).toEqual(['revoked_after_signing']);
    } finally {
      await own.close();
    }
  });

  it('answers the same report for the file sent as a form, and for someone signed in', async () => {
    const asBody = await reportOf(t, signed);
    const form = multipartForm([
      ['note', 'ignored'],
      ['file', signed, 'contract.pdf'],
    ]);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/verifications',
      remoteAddress: freshAddress(),
      headers: form.headers,
      payload: form.payload,
    });
    expectMatchesContract('createVerification', response.statusCode, response.json());
    expect(response.statusCode).toBe(200);
    const asForm = response.json<components['schemas']['VerificationResponse']>().data.attributes;
    expect({ ...asForm, checkedAt: null }).toEqual({ ...asBody, checkedAt: null });

    const ada = await t.createUser({ email: 'ada@example.test' });
    const token = await t.signIn(ada.email);
    const signedIn = await reportOf(t, signed, { headers: bearer(token) });
    expect(signedIn.verdict).toBe('valid');
  });

  it('reports a byte changed inside the signed range as broken integrity', async () => {
    const tampered = Buffer.from(signed);
    // The first page's /MediaBox lies inside the first range: its width grows by a hundredth of a point.
    const at = tampered.indexOf('595.28');
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(signatureOf(await reportOf(t, signed)).byteRange.ranges[1] ?? 0);
    tampered[at + 5] = '9'.charCodeAt(0);
    const report = await reportOf(t, tampered);
    expect(report.verdict).toBe('invalid');
    const signature = signatureOf(report);
    expect(signature.verdict).toBe('invalid');
    expect(signature.integrity).toMatchObject({
      isIntact: false,
      signatureVerifies: true,
      digestMatches: false,
    });
    expect(signature.problems[0]).toBe('digest_mismatch');
  });

  it('reports a change to a page appended after the signature as "changed after", the signature intact', async () => {
    const amended = await appendPageChange(signed);
    const report = await reportOf(t, amended);
    expect(report.verdict).toBe('changed');
    expect(report.changedAfterLastSignature).toBe(true);
    const signature = signatureOf(report);
    expect(signature.verdict).toBe('changed');
    expect(signature.problems).toContain('changed_after');
    expect(signature.integrity.isIntact).toBe(true);
    expect(signature.byteRange).toMatchObject({ coversWholeRevision: true, coversWholeFile: false });
    expect(signature.changesAfter).toMatchObject({ isChanged: true, onlyAllowed: false });
    expect(signature.changesAfter.kinds).toContain('other');
  });

  it('reports a later signature as an allowed update of the earlier one, and both valid', async () => {
    const twice = Buffer.from(
      (
        await t.deps.signer.sign(
          request(signed, {
            signer: { userId: 'user-bob', fullName: 'Bob Martin', email: 'bob@paraph.test' },
            signatureIndex: 1,
          }),
        )
      ).pdf,
    );
    const report = await reportOf(t, twice);
    expect(report.verdict).toBe('valid');
    expect(report.signatures.map((signature) => [signature.signer.name, signature.verdict])).toEqual([
      ['Ada Lovelace', 'valid'],
      ['Bob Martin', 'valid'],
    ]);
    expect(signatureOf(report, 0).changesAfter).toMatchObject({ isChanged: true, onlyAllowed: true });
    expect(signatureOf(report, 0).changesAfter.kinds).toContain('signature');
    expect(signatureOf(report, 0).byteRange.coversWholeFile).toBe(false);
    expect(signatureOf(report, 1).changesAfter).toMatchObject({ onlyAllowed: true, kinds: ['dss'] });
  });

  it('reports signatures under another CA, or self-signed, as not from the trust list, never as an error', async () => {
    const elsewhere = await pki.newCa('Elsewhere Root CA');
    const grace = await pki.issue(elsewhere, '/CN=Grace Hopper/emailAddress=grace@elsewhere.test', 'signer');
    const base = await makePdf();
    const byOpenssl = await appendSignature(base, {
      name: 'Grace Hopper',
      signedAt: new Date(),
      contents: (parts) => pki.opensslCms(Buffer.concat(parts), grace, [elsewhere]),
    });
    const report = await reportOf(t, byOpenssl);
    expect(report.verdict).toBe('untrusted');
    const signature = signatureOf(report);
    expect(signature).toMatchObject({
      verdict: 'untrusted',
      signer: { name: 'Grace Hopper', email: 'grace@elsewhere.test' },
      integrity: { isIntact: true },
      chain: { isTrusted: false },
    });
    expect(signature.problems).toContain('not_trusted');
    // openssl's CMS carries a signing-time attribute, which the report gives beside /M.
    expect(signature.signingTime.cms).not.toBeNull();
    expect(signature.chain.certificates.map((certificate) => certificate.subject)).toEqual([
      'CN=Grace Hopper, E=grace@elsewhere.test',
      'CN=Elsewhere Root CA, O=Elsewhere',
    ]);

    const selfSigned = await pki.newCa('Mallory Self-Signed');
    const alone = await appendSignature(base, {
      contents: (parts) => pki.opensslCms(Buffer.concat(parts), selfSigned),
    });
    const aloneReport = await reportOf(t, alone);
    expect(aloneReport.verdict).toBe('untrusted');
    expect(signatureOf(aloneReport).chain.certificates).toHaveLength(1);
    expect(signatureOf(aloneReport).integrity.isIntact).toBe(true);
  });

  it('reads signatures in a PDF whose objects are in object streams', async () => {
    const doc = await PDFDocument.load(await makePdf());
    const compact = Buffer.from(await doc.save({ useObjectStreams: true }));
    expect(compact.includes('/ObjStm')).toBe(true);
    const elsewhere = await pki.newCa('Compact CA');
    const signer = await pki.issue(elsewhere, '/CN=Carol Shaw', 'signer');
    const pdf = await appendSignature(compact, {
      contents: (parts) => pki.opensslCms(Buffer.concat(parts), signer, [elsewhere]),
    });
    const signature = signatureOf(await reportOf(t, pdf));
    expect(signature.integrity.isIntact).toBe(true);
    expect(signature.byteRange.coversWholeFile).toBe(true);
    expect(signature.signer.name).toBe('Carol Shaw');
  });

  it('reports a signature that is not a CMS, or whose range leaves out more than its /Contents, as invalid', async () => {
    const garbage = await appendSignature(await makePdf(), {
      contents: async () => Buffer.from('not a CMS at all'),
    });
    const unreadable = signatureOf(await reportOf(t, garbage));
    expect(unreadable.verdict).toBe('invalid');
    expect(unreadable.problems).toContain('signature_unreadable');

    // The CMS is sound over the bytes the range names, but the bytes left out beside /Contents (here the
    // "/Contents " key itself) could then be anything.
    const elsewhere = await pki.newCa('Wide Gap CA');
    const signer = await pki.issue(elsewhere, '/CN=Wide Gap', 'signer');
    const widened = await appendSignature(await makePdf(), {
      widenGap: 10,
      contents: (parts) => pki.opensslCms(Buffer.concat(parts), signer, [elsewhere]),
    });
    const signature = signatureOf(await reportOf(t, widened));
    expect(signature.integrity).toMatchObject({
      signatureVerifies: true,
      digestMatches: true,
      isIntact: false,
    });
    expect(signature.byteRange.coversWholeRevision).toBe(false);
    expect(signature.problems[0]).toBe('byte_range_invalid');
    expect(signature.verdict).toBe('invalid');
  });

  it('answers a report that says so for a PDF without signatures', async () => {
    const report = await reportOf(t, await makePdf());
    expect(report).toMatchObject({ verdict: 'no_signatures', level: null, signatures: [], hasDss: false });
  });

  it('refuses what is not a PDF, an empty file, an encrypted PDF and another media type, with clear codes', async () => {
    expect(await post(t, makeNotPdf())).toMatchObject({ status: 422, json: { code: 'not_a_pdf' } });
    expect(await post(t, '%PDF-1.7\nthis is not a document at all')).toMatchObject({
      status: 422,
      json: { code: 'not_a_pdf' },
    });
    expect(await post(t, '')).toMatchObject({ status: 422, json: { code: 'empty_file' } });
    expect(await post(t, await makeEncryptedPdf())).toMatchObject({
      status: 422,
      json: { code: 'encrypted_pdf' },
    });
    for (const contentType of ['text/plain', 'application/json']) {
      expect(await post(t, signed, { contentType })).toMatchObject({
        status: 415,
        json: { code: 'unsupported_media_type' },
      });
    }
    const noFile = multipartForm([['note', 'no file here']]);
    expect(await post(t, noFile.payload, { contentType: noFile.headers['content-type'] })).toMatchObject({
      status: 400,
      json: { code: 'invalid_request', field: 'file' },
    });
  });
});

describe('POST /api/verifications limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { PARAPH_MAX_UPLOAD_BYTES: '4096' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses a file over the upload limit with 413, as a body or as a form', async () => {
    const large = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(5000, 0x20)]);
    expect(await post(t, large)).toMatchObject({ status: 413, json: { code: 'file_too_large' } });
    const form = multipartForm([['file', large, 'large.pdf']]);
    expect(await post(t, form.payload, { contentType: form.headers['content-type'] })).toMatchObject({
      status: 413,
      json: { code: 'file_too_large' },
    });
  });

  it(`lets ${VERIFICATION_LIMIT.max} verifications through per address in the window, then answers 429`, async () => {
    const address = '203.0.113.40';
    const answers = await Promise.all(
      Array.from({ length: VERIFICATION_LIMIT.max + 10 }, () =>
        post(t, makeNotPdf(), { remoteAddress: address }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 422)).toHaveLength(VERIFICATION_LIMIT.max);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
    const refused = answers.find((answer) => answer.status === 429);
    expect(refused?.json).toMatchObject({ code: 'too_many_requests' });
    const wait = Number(refused?.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(VERIFICATION_LIMIT.windowMs / 1000);
    // Another address is not affected; an IPv6 client counts by its /64.
    expect((await post(t, makeNotPdf(), { remoteAddress: '198.51.100.7' })).status).toBe(422);
    for (let call = 0; call < VERIFICATION_LIMIT.max; call += 1) {
      await post(t, makeNotPdf(), { remoteAddress: `2001:db8:1:2::${(call + 1).toString(16)}` });
    }
    expect((await post(t, makeNotPdf(), { remoteAddress: '2001:db8:1:2:ffff::1' })).status).toBe(429);
  });
});
