// The signing engine (server/signing) on its own, checked by tools that share none of its code: Debian's
// pdfsig (each signature valid, the last covering the whole file), `openssl cms -verify` against the CA's
// certificate, pdfinfo, and pdftoppm renders sampled where the stamp should be.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument, degrees } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalSigner } from '../../server/signing/local-signer.ts';
import { PresignError, type SignatureRequest, type Signer } from '../../server/signing/signer.ts';
import { makeDamagedPdf, makeEncryptedPdf, makePdf } from '../fixtures/pdfs.ts';
import {
  onlyValidationDataAfterLastSignature,
  parsePdfsigReport,
  signaturePageIndexes,
  signatureWidgetCount,
  type PdfsigSignature,
} from './pdf-signatures.ts';
import { certificatePem, openStandalonePki, type StandalonePki } from './deployment-pki-support.ts';
import { readPpm, type Raster } from './stamp-support.ts';

const run = promisify(execFile);

let workDir: string;
let pki: StandalonePki;
// The deployment's root, which openssl trusts.
let caFile: string;
let signer: Signer;
let fileCounter = 0;

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'paraph-signing-'));
  pki = await openStandalonePki(path.join(workDir, 'data'));
  caFile = path.join(workDir, 'ca.pem');
  await writeFile(caFile, certificatePem(pki.pki.ca.certificate));
  signer = createLocalSigner({ pki: pki.pki });
});

afterAll(async () => {
  await pki.close();
  await rm(workDir, { recursive: true, force: true });
});

const ADA = { userId: 'user-ada', fullName: 'Ada Lovelace', email: 'ada@paraph.test' };
const BOB = { userId: 'user-bob', fullName: 'Bob Martin', email: 'bob@paraph.test' };

function request(pdf: Uint8Array, overrides: Partial<SignatureRequest> = {}): SignatureRequest {
  return {
    pdf,
    signer: ADA,
    smartCardType: 'personal_level3',
    locale: 'en',
    location: 'Brussels',
    reason: 'I approve this contract',
    signedAt: new Date('2025-03-04T10:20:30Z'),
    placement: { kind: 'inline', pageNumber: 1, top: 0.3, left: 0.1 },
    signatureIndex: 0,
    ...overrides,
  };
}

async function tempFile(name: string, bytes: Uint8Array): Promise<string> {
  fileCounter += 1;
  const file = path.join(workDir, `${fileCounter}-${name}`);
  await writeFile(file, bytes);
  return file;
}

async function pdfsig(pdf: Uint8Array): Promise<PdfsigSignature[]> {
  const { stdout } = await run('pdfsig', [await tempFile('sig.pdf', pdf)]);
  return parsePdfsigReport(stdout);
}

async function pageCount(pdf: Uint8Array): Promise<number> {
  const { stdout } = await run('pdfinfo', [await tempFile('info.pdf', pdf)]);
  return Number(/^Pages:\s+(\d+)$/m.exec(stdout)?.[1]);
}

type EmbeddedSignature = { der: Buffer; signedBytes: Buffer };

/** Every signature of the file: the CMS from /Contents and the bytes its /ByteRange covers. */
function embeddedSignatures(pdf: Uint8Array): EmbeddedSignature[] {
  const bytes = Buffer.from(pdf);
  const text = bytes.toString('latin1');
  return [...text.matchAll(/\/ByteRange \[\s*(\d+) (\d+) (\d+) (\d+)\s*\]/g)].map((match) => {
    const [a, b, c, d] = match.slice(1).map(Number) as [number, number, number, number];
    const padded = Buffer.from(text.slice(b + 1, c - 1), 'hex');
    // The placeholder is padded with zeros after the DER: its length is in its own header (0x30 0x82 hi lo).
    const der = padded.subarray(0, 4 + padded.readUInt16BE(2));
    return { der, signedBytes: Buffer.concat([bytes.subarray(a, a + b), bytes.subarray(c, c + d)]) };
  });
}

async function opensslVerify(signature: EmbeddedSignature): Promise<boolean> {
  const der = await tempFile('cms.der', signature.der);
  const content = await tempFile('content.bin', signature.signedBytes);
  try {
    const files = [
      '-in',
      der,
      '-content',
      content,
      '-CAfile',
      caFile,
      '-out',
      path.join(workDir, 'verified.bin'),
    ];
    const { stderr } = await run('openssl', [
      ...'cms -verify -binary -inform DER -purpose any'.split(' '),
      ...files,
    ]);
    return stderr.includes('Verification successful');
  } catch {
    return false;
  }
}

async function cmsPrint(signature: EmbeddedSignature): Promise<string> {
  const der = await tempFile('print.der', signature.der);
  const { stdout } = await run('openssl', ['cms', '-cmsout', '-print', '-inform', 'DER', '-in', der]);
  return stdout;
}

/** One page rendered by pdftoppm at 50 dpi, read from its PPM output. */
async function renderPage(pdf: Uint8Array, pageNumber: number): Promise<Raster> {
  const prefix = path.join(workDir, `render-${(fileCounter += 1)}`);
  const file = await tempFile('render.pdf', pdf);
  await run('pdftoppm', [
    '-r',
    '50',
    '-f',
    String(pageNumber),
    '-l',
    String(pageNumber),
    '-singlefile',
    file,
    prefix,
  ]);
  return readPpm(await readFile(`${prefix}.ppm`));
}

/** How many pixels of the stamp's box (fractions of the shown page, box 28 % x 15 % of its width) are not white. */
function inkInBox(raster: Raster, left: number, top: number): { ink: number; blue: number } {
  const x0 = Math.round(left * raster.width);
  const y0 = Math.round(top * raster.height);
  const x1 = Math.round((left + 0.28) * raster.width);
  const y1 = Math.round(top * raster.height + 0.15 * raster.width);
  let ink = 0;
  let blue = 0;
  for (let y = y0; y < y1; y += 1) {
    for (let x = x0; x < x1; x += 1) {
      const [r, g, b] = raster.pixel(x, y);
      if (r < 200 || g < 200 || b < 200) ink += 1;
      if (b > 150 && r < 80) blue += 1;
    }
  }
  return { ink, blue };
}

describe('one signer, inline', () => {
  it('signs a valid, whole-document PAdES signature that openssl verifies against the local CA', async () => {
    const original = await makePdf({ pages: 2 });
    const result = await signer.sign(request(original));

    // B-LT: only the signature's validation data (the DSS) follows it.
    expect(await pdfsig(result.pdf)).toEqual([{ isValid: true, isTotal: false, commonName: 'Ada Lovelace' }]);
    expect(onlyValidationDataAfterLastSignature(result.pdf)).toBe(true);
    expect(await pageCount(result.pdf)).toBe(2);
    const [signature] = embeddedSignatures(result.pdf);
    expect(signature).toBeDefined();
    if (!signature) return;
    expect(await opensslVerify(signature)).toBe(true);
    // The same check fails once a single signed byte changes, so it is not vacuous.
    const tampered = Buffer.from(signature.signedBytes);
    tampered[20] = (tampered[20] ?? 0) ^ 0xff;
    expect(await opensslVerify({ der: signature.der, signedBytes: tampered })).toBe(false);

    const printed = await cmsPrint(signature);
    expect(printed).toContain('id-smime-aa-signingCertificateV2');
    expect(printed).toContain('messageDigest');
    // PAdES B-B takes the time from /M, never from a CMS signing-time attribute.
    expect(printed).not.toContain('signingTime');
    const text = Buffer.from(result.pdf).toString('latin1');
    expect(text).toContain('/SubFilter /ETSI.CAdES.detached');
    expect(text).toContain('/M (D:20250304102030Z)');

    const { createHash } = await import('node:crypto');
    expect(result.sha256Before).toBe(createHash('sha256').update(original).digest('hex'));
    expect(result.sha256After).toBe(createHash('sha256').update(result.pdf).digest('hex'));
    expect(result.sha256After).not.toBe(result.sha256Before);
  });

  it('draws the stamp where it was placed, and nowhere on the page before', async () => {
    const original = await makePdf({ pages: 1 });
    const result = await signer.sign(
      request(original, { placement: { kind: 'inline', pageNumber: 1, top: 0.4, left: 0.5 } }),
    );
    const before = inkInBox(await renderPage(original, 1), 0.5, 0.4);
    const after = inkInBox(await renderPage(result.pdf, 1), 0.5, 0.4);
    expect(before.ink).toBe(0);
    expect(after.ink).toBeGreaterThan(200);
    expect(after.blue).toBeGreaterThan(20);
  });
});

describe('two signers in sequence', () => {
  it('keeps the first signature valid: the second is an incremental update that covers the whole file', async () => {
    const first = await signer.sign(request(await makePdf({ pages: 2 })));
    const second = await signer.sign(
      request(first.pdf, {
        signer: BOB,
        smartCardType: 'business_level4',
        reason: '',
        placement: { kind: 'inline', pageNumber: 2, top: 0.5, left: 0.6 },
        signatureIndex: 1,
      }),
    );
    // Byte for byte, the first signed file is the start of the second.
    expect(Buffer.from(second.pdf).subarray(0, first.pdf.length).equals(Buffer.from(first.pdf))).toBe(true);
    expect(second.sha256Before).toBe(first.sha256After);
    expect(await pdfsig(second.pdf)).toEqual([
      { isValid: true, isTotal: false, commonName: 'Ada Lovelace' },
      { isValid: true, isTotal: false, commonName: 'Bob Martin' },
    ]);
    expect(onlyValidationDataAfterLastSignature(second.pdf)).toBe(true);
    const signatures = embeddedSignatures(second.pdf);
    expect(signatures).toHaveLength(2);
    for (const signature of signatures) expect(await opensslVerify(signature)).toBe(true);
    expect(await pageCount(second.pdf)).toBe(2);
    expect(inkInBox(await renderPage(second.pdf, 1), 0.1, 0.3).ink).toBeGreaterThan(200);
    expect(inkInBox(await renderPage(second.pdf, 2), 0.6, 0.5).ink).toBeGreaterThan(200);
  });
});

describe('signature page', () => {
  // On a 3-page document: 1 inserts it first, N + 1 after page N, 0 last.
  it.each([
    { signPageNumber: 1, index: 0 },
    { signPageNumber: 3, index: 2 },
    { signPageNumber: 0, index: 3 },
  ])(
    'sign_page_number $signPageNumber: the first signer adds one page at $index, the second signs on it',
    async ({ signPageNumber, index }) => {
      const placement = { kind: 'page', signPageNumber } as const;
      const first = await signer.sign(request(await makePdf({ pages: 3 }), { placement }));
      const second = await signer.sign(request(first.pdf, { signer: BOB, placement, signatureIndex: 1 }));

      expect(await pageCount(second.pdf)).toBe(4);
      const doc = await PDFDocument.load(second.pdf, { updateMetadata: false });
      expect(signaturePageIndexes(doc)).toEqual([index]);
      expect(signatureWidgetCount(doc, index)).toBe(2);
      const checks = await pdfsig(second.pdf);
      expect(checks.map((check) => check.isValid)).toEqual([true, true]);
      expect(onlyValidationDataAfterLastSignature(second.pdf)).toBe(true);
      const raster = await renderPage(second.pdf, index + 1);
      // Two boxes side by side in the grid's first row.
      expect(inkInBox(raster, 0.19, 0.14).ink).toBeGreaterThan(200);
      expect(inkInBox(raster, 0.53, 0.14).ink).toBeGreaterThan(200);
    },
  );

  it('starts a further signature page after ten signatures, each still valid', async () => {
    let pdf: Uint8Array = await makePdf({ pages: 1 });
    for (let signatureIndex = 0; signatureIndex < 11; signatureIndex += 1) {
      const result = await signer.sign(
        request(pdf, {
          signatureIndex,
          placement: { kind: 'page', signPageNumber: 0 },
          signer: signatureIndex % 2 ? BOB : ADA,
        }),
      );
      pdf = result.pdf;
    }
    expect(await pageCount(pdf)).toBe(3);
    const doc = await PDFDocument.load(pdf, { updateMetadata: false });
    expect(signaturePageIndexes(doc)).toEqual([1, 2]);
    expect([signatureWidgetCount(doc, 1), signatureWidgetCount(doc, 2)]).toEqual([10, 1]);
    const checks = await pdfsig(pdf);
    expect(checks).toHaveLength(11);
    expect(checks.every((check) => check.isValid)).toBe(true);
    expect(checks.map((check) => check.isTotal)).toEqual(Array<boolean>(11).fill(false));
    expect(onlyValidationDataAfterLastSignature(pdf)).toBe(true);
  });
});

describe('text and pages the engine must survive', () => {
  it('signs for a name outside WinAnsi: the certificate keeps it all (the stamp: signing-stamp-scripts)', async () => {
    const fullName = 'Zoë Łukasz 李小龍';
    const result = await signer.sign(
      request(await makePdf(), {
        signer: { userId: 'user-zoe', fullName, email: 'zoe@paraph.test' },
        location: 'Kraków — Łódź',
      }),
    );
    expect(await pdfsig(result.pdf)).toEqual([{ isValid: true, isTotal: false, commonName: fullName }]);
  });

  it('places the stamp on a page shown turned by /Rotate 90 where the reader sees the placement', async () => {
    const doc = await PDFDocument.load(await makePdf({ pages: 1 }));
    doc.getPage(0).setRotation(degrees(90));
    const rotated = await doc.save({ useObjectStreams: false });
    const result = await signer.sign(
      request(rotated, { placement: { kind: 'inline', pageNumber: 1, top: 0.5, left: 0.1 } }),
    );
    expect((await pdfsig(result.pdf))[0]?.isValid).toBe(true);
    const raster = await renderPage(result.pdf, 1);
    expect(raster.width).toBeGreaterThan(raster.height);
    expect(inkInBox(await renderPage(rotated, 1), 0.1, 0.5).ink).toBe(0);
    expect(inkInBox(raster, 0.1, 0.5).ink).toBeGreaterThan(200);
  });
});

describe('a PDF that cannot be prepared', () => {
  it.each([
    ['damaged (cut off)', () => makeDamagedPdf(), request(new Uint8Array())],
    ['encrypted', () => makeEncryptedPdf(), request(new Uint8Array())],
    [
      'a placement page that does not exist',
      () => makePdf({ pages: 2 }),
      request(new Uint8Array(), { placement: { kind: 'inline', pageNumber: 3, top: 0.2, left: 0.1 } }),
    ],
    [
      'a signature page past the end',
      () => makePdf({ pages: 2 }),
      request(new Uint8Array(), { placement: { kind: 'page', signPageNumber: 4 } }),
    ],
  ] as const)('%s: PresignError, the input untouched', async (_, makeInput, template) => {
    const pdf = await makeInput();
    const copy = Buffer.from(pdf);
    await expect(signer.sign({ ...template, pdf })).rejects.toBeInstanceOf(PresignError);
    expect(Buffer.from(pdf).equals(copy)).toBe(true);
  });
});
