// The stamp on odd pages and forms: visible in poppler when the form asks readers to redraw its fields
// (/NeedAppearances true), a sane signature page for a document of 3 × 3 pt or an empty MediaBox, and an
// inline stamp that stays legible on a small page or is refused on one too small for it.
import { PDFBool, PDFDict, PDFDocument, PDFHexString, PDFName, StandardFonts, rgb } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalSigner } from '../../server/signing/local-signer.ts';
import { openStandalonePki, type StandalonePki } from './deployment-pki-support.ts';
import { PresignError, type SignatureRequest, type Signer } from '../../server/signing/signer.ts';
import { STAMP_MIN_TEXT_SIZE } from '../../server/signing/stamp.ts';
import { parsePdfsigReport, signaturePageIndexes } from './pdf-signatures.ts';
import {
  inkIn,
  pageText,
  readAppearance,
  readWidget,
  renderPage,
  run,
  workspace,
  type Workspace,
} from './stamp-support.ts';

let ws: Workspace;
let signer: Signer;
let pki: StandalonePki;

beforeAll(async () => {
  ws = await workspace('paraph-stamp-pages-');
  pki = await openStandalonePki(`${ws.dir}/data`);
  signer = createLocalSigner({ pki: pki.pki });
});

afterAll(async () => {
  await pki.close();
  await ws.close();
});

function request(pdf: Uint8Array, overrides: Partial<SignatureRequest> = {}): SignatureRequest {
  return {
    pdf,
    signer: { userId: 'user-pages', fullName: 'Ada Lovelace', email: 'ada@paraph.test' },
    smartCardType: 'personal_level3',
    locale: 'en',
    location: 'London',
    reason: 'Approved',
    signedAt: new Date('2025-03-04T10:20:30Z'),
    placement: { kind: 'inline', pageNumber: 1, top: 0.5, left: 0.1 },
    signatureIndex: 0,
    ...overrides,
  };
}

async function valid(pdf: Uint8Array): Promise<boolean[]> {
  const { stdout } = await run('pdfsig', [await ws.file('sig.pdf', pdf)]);
  return parsePdfsigReport(stdout).map((signature) => signature.isValid);
}

/** Ink in the widget's rectangle of page `pageNumber`, rendered at 50 dpi. */
async function stampInk(pdf: Uint8Array, pageNumber: number, rect: [number, number, number, number]) {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const height = doc.getPage(pageNumber - 1).getHeight();
  const scale = 50 / 72;
  const [x1, y1, x2, y2] = rect;
  return inkIn(await renderPage(ws, pdf, pageNumber), {
    left: x1 * scale,
    top: (height - y2) * scale,
    right: x2 * scale,
    bottom: (height - y1) * scale,
  });
}

/** A one-page form with a filled text field and a second one holding a value but no appearance. */
async function formPdf(options: { needAppearances: boolean; bareValue: string }): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595.28, 841.89]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText('Order form', { x: 72, y: 760, size: 24, font, color: rgb(0, 0, 0) });
  const form = doc.getForm();
  const name = form.createTextField('name');
  name.setText('Filled in by hand');
  name.addToPage(page, { x: 72, y: 620, width: 300, height: 30 });
  form.updateFieldAppearances();
  // As a form filler that leaves the drawing to the reader writes it: a value, no /AP.
  const city = form.createTextField('city');
  city.addToPage(page, { x: 72, y: 560, width: 300, height: 30 });
  city.acroField.setValue(PDFHexString.fromText(options.bareValue));
  for (const widget of city.acroField.getWidgets()) widget.dict.delete(PDFName.of('AP'));
  if (options.needAppearances) form.acroForm.dict.set(PDFName.of('NeedAppearances'), PDFBool.True);
  return doc.save({ useObjectStreams: false, updateFieldAppearances: false });
}

async function needAppearances(pdf: Uint8Array): Promise<boolean> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const acroForm = doc.catalog.lookup(PDFName.of('AcroForm'));
  return acroForm instanceof PDFDict && acroForm.lookup(PDFName.of('NeedAppearances')) === PDFBool.True;
}

describe('a form that asks readers to redraw its fields (/NeedAppearances true)', () => {
  it('shows the stamp in poppler: the flag goes once every field without an appearance has one', async () => {
    const original = await formPdf({ needAppearances: true, bareValue: 'Lisbon' });
    expect(await needAppearances(original)).toBe(true);
    const signed = (await signer.sign(request(original))).pdf;
    const { rect } = await readWidget(signed, 0);

    const before = await stampInk(original, 1, rect);
    const after = await stampInk(signed, 1, rect);
    expect(before.ink).toBe(0);
    expect(after.ink).toBeGreaterThan(300);
    expect(after.blue).toBeGreaterThan(20);
    // As much ink as the same stamp on the same form without the flag (the text differs by nothing).
    const plain = (await signer.sign(request(await formPdf({ needAppearances: false, bareValue: 'Lisbon' }))))
      .pdf;
    const reference = await stampInk(plain, 1, rect);
    expect(Math.abs(after.ink - reference.ink)).toBeLessThan(reference.ink * 0.05);

    expect(await needAppearances(signed)).toBe(false);
    // The value the reader used to draw is still shown, now from its own appearance.
    const text = await pageText(ws, signed, 1);
    expect(text).toContain('Lisbon');
    expect(text).toContain('Filled in by hand');
    expect(text).toContain('Ada Lovelace');
    expect(await valid(signed)).toEqual([true]);

    // A second signer on the same file: both stamps show, both signatures hold.
    const second = (
      await signer.sign(
        request(signed, {
          signer: { userId: 'user-pages-2', fullName: 'Bob Baker', email: 'bob@paraph.test' },
          placement: { kind: 'inline', pageNumber: 1, top: 0.75, left: 0.5 },
          signatureIndex: 1,
        }),
      )
    ).pdf;
    const bob = await readWidget(second, 0, 1);
    expect((await stampInk(second, 1, rect)).ink).toBeGreaterThan(300);
    expect((await stampInk(second, 1, bob.rect)).ink).toBeGreaterThan(300);
    expect(await valid(second)).toEqual([true, true]);

    // Helvetica has no 北: the reader must keep drawing that field, so there the flag stays (and
    // poppler draws our widget empty: the one case left, see docs/decisions.md).
    const chinese = (
      await signer.sign(request(await formPdf({ needAppearances: true, bareValue: '北京市' })))
    ).pdf;
    expect(await needAppearances(chinese)).toBe(true);
    expect(await valid(chinese)).toEqual([true]);
  });
});

async function pdfWithPages(sizes: readonly [number, number][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (const size of sizes) doc.addPage(size);
  return doc.save({ useObjectStreams: false });
}

describe('the signature page of a document with odd pages', () => {
  it.each([
    { label: '3 × 3 pt', pages: [[3, 3]] as [number, number][], expected: [595.28, 841.89] },
    { label: 'a MediaBox of [0 0 0 0]', pages: [[0, 0]] as [number, number][], expected: [595.28, 841.89] },
    {
      label: '3 × 3 pt, then US Letter',
      pages: [
        [3, 3],
        [612, 792],
      ] as [number, number][],
      expected: [612, 792],
    },
    {
      label: 'a banner of 2000 × 300 pt',
      pages: [[2000, 300]] as [number, number][],
      expected: [595.28, 841.89],
    },
    {
      label: 'a landscape card of 400 × 300 pt',
      pages: [[400, 300]] as [number, number][],
      expected: [400, 300],
    },
  ])('$label: the page is $expected, the stamp legible and visible', async ({ pages, expected }) => {
    const original = await pdfWithPages(pages);
    const signed = (await signer.sign(request(original, { placement: { kind: 'page', signPageNumber: 0 } })))
      .pdf;
    const doc = await PDFDocument.load(signed, { updateMetadata: false });
    const [index] = signaturePageIndexes(doc);
    expect(index).toBe(pages.length);
    const page = doc.getPage(index ?? 0);
    expect([page.getWidth(), page.getHeight()]).toEqual(expected);

    const { rect } = await readWidget(signed, index ?? 0);
    const ink = await stampInk(signed, (index ?? 0) + 1, rect);
    expect(ink.ink).toBeGreaterThan(200);
    expect(ink.blue).toBeGreaterThan(20);
    const { lines } = await readAppearance(signed, index ?? 0);
    expect(Math.min(...lines.map((line) => line.size))).toBeGreaterThanOrEqual(STAMP_MIN_TEXT_SIZE);
    expect(await pageText(ws, signed, (index ?? 0) + 1)).toContain('Ada Lovelace');
    expect(await valid(signed)).toEqual([true]);
  });
});

describe('an inline stamp on a small page', () => {
  it.each([
    ['3 × 3 pt', [3, 3]],
    ['a MediaBox of [0 0 0 0]', [0, 0]],
    ['a page narrower than the A6 box', [60, 600]],
  ] as const)('%s: a presign error that says why, the input untouched', async (_, size) => {
    const pdf = await pdfWithPages([[...size]]);
    const copy = Buffer.from(pdf);
    const failure = signer.sign(request(pdf));
    await expect(failure).rejects.toBeInstanceOf(PresignError);
    await expect(failure).rejects.toThrow(/too small to hold a legible signature.*signature page/);
    expect(Buffer.from(pdf).equals(copy)).toBe(true);
  });

  it('a business card (252 × 144 pt) gets the box it would have on A6, its text still legible', async () => {
    const signed = (await signer.sign(request(await pdfWithPages([[252, 144]])))).pdf;
    const { rect, bbox } = await readWidget(signed, 0);
    // 28 % × 15 % of A6's width, not of the card's (70.6 × 37.8 pt).
    expect(bbox[2]).toBeCloseTo(0.28 * 297.64, 1);
    expect(bbox[3]).toBeCloseTo(0.15 * 297.64, 1);
    expect(rect[2]).toBeLessThanOrEqual(252);
    expect(rect[1]).toBeGreaterThanOrEqual(0);
    const { lines } = await readAppearance(signed, 0);
    // One line a field at the largest size that fits: a hair under 6 pt at most.
    expect(Math.min(...lines.map((line) => line.size))).toBeGreaterThan(5.5);
    for (const line of lines) expect(line.xMax).toBeLessThanOrEqual(bbox[2]);
    expect(await valid(signed)).toEqual([true]);
  });
});
