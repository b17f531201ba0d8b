// Names in any script on the stamp, read back by poppler: the text pdftotext extracts, the fonts pdffonts
// lists (embedded and subsetted), the size a signature adds to the file, and pixels pdftoppm draws in each
// box. Eight names on one signature page, each signed in turn like a flow's signatories.
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fontLoadTimings } from '../../server/signing/fonts.ts';
import { createLocalSigner } from '../../server/signing/local-signer.ts';
import { placeSignature, prepareForSigning } from '../../server/signing/pades.ts';
import { openStandalonePki, type StandalonePki } from './deployment-pki-support.ts';
import type { SignatureRequest, Signer } from '../../server/signing/signer.ts';
import { makePdf } from '../fixtures/pdfs.ts';
import { parsePdfsigReport } from './pdf-signatures.ts';
import {
  inkIn,
  pageFonts,
  pageText,
  readAppearance,
  renderPage,
  run,
  workspace,
  type Workspace,
} from './stamp-support.ts';

const NAMES = [
  { script: 'Latin with diacritics', name: 'Zoë Ångström-Łukasiewicz', family: 'NotoSans-Bold' },
  { script: 'Greek', name: 'Αλέξανδρος Παπαδόπουλος', family: 'NotoSans-Bold' },
  { script: 'Cyrillic', name: 'Дмитрий Шостакович', family: 'NotoSans-Bold' },
  { script: 'Arabic', name: 'محمد عبد الله', family: 'NotoSansArabic-Bold' },
  { script: 'Hebrew', name: 'דוד בן-גוריון', family: 'NotoSansHebrew-Bold' },
  { script: 'Chinese', name: '王小明', family: 'NotoSansSC-Bold' },
  { script: 'Japanese (kanji)', name: '山田太郎', family: 'NotoSansSC-Bold' },
  { script: 'Japanese (kana)', name: 'やまだ たろう', family: 'NotoSansSC-Bold' },
  { script: 'Korean', name: '김민준', family: 'NotoSansKR-Bold' },
] as const;

let ws: Workspace;
let signer: Signer;
let pki: StandalonePki;
// The file after each name's signature, and the file before the first.
const files: Uint8Array[] = [];
const sizes: number[] = [];

function request(pdf: Uint8Array, index: number, fullName: string): SignatureRequest {
  return {
    pdf,
    signer: { userId: `user-script-${index}`, fullName, email: `script-${index}@paraph.test` },
    smartCardType: 'personal_level3',
    locale: 'en',
    location: 'Geneva',
    reason: '',
    signedAt: new Date('2025-03-04T10:20:30Z'),
    placement: { kind: 'page', signPageNumber: 0 },
    signatureIndex: index,
  };
}

beforeAll(async () => {
  ws = await workspace('paraph-stamp-scripts-');
  pki = await openStandalonePki(`${ws.dir}/data`);
  signer = createLocalSigner({ pki: pki.pki });
  let pdf: Uint8Array = await makePdf({ pages: 1 });
  files.push(pdf);
  for (const [index, { name }] of NAMES.entries()) {
    pdf = (await signer.sign(request(pdf, index, name))).pdf;
    files.push(pdf);
    sizes.push(pdf.length - (files.at(-2)?.length ?? 0));
  }
}, 120_000);

afterAll(async () => {
  await pki.close();
  await ws.close();
});

// The stamps go on a signature page after the document's single page: page 2, and a further page 3 once
// its ten boxes are taken (never here: nine names).
const SIGNATURE_PAGE = 2;

describe('names in any script', () => {
  it('every signature is valid and pdftotext finds every name, none as ? or U+FFFD', async () => {
    const last = files.at(-1) ?? new Uint8Array();
    const report = parsePdfsigReport((await run('pdfsig', [await ws.file('all.pdf', last)])).stdout);
    expect(report.map((signature) => signature.isValid)).toEqual(NAMES.map(() => true));
    expect(report.map((signature) => signature.commonName)).toEqual(NAMES.map(({ name }) => name));

    const text = await pageText(ws, last, SIGNATURE_PAGE);
    for (const { name } of NAMES) {
      // Poppler gives the words of right-to-left text in an order of its own (for "דוד בן-גוריון":
      // "גוריון-דוד בן"), each word in logical order: the words are what is robust to compare.
      for (const word of name.split(/[ -]/)) expect(text, name).toContain(word);
    }
    expect(text).not.toContain('?');
    expect(text).not.toContain('\ufffd');
  });

  it('draws no glyph 0 (tofu) in any stamp', async () => {
    const last = files.at(-1) ?? new Uint8Array();
    for (const [index, { name }] of NAMES.entries()) {
      const { lines } = await readAppearance(last, SIGNATURE_PAGE - 1, index);
      const cids = lines.flatMap((line) => line.cids);
      expect(cids.length, name).toBeGreaterThan(20);
      expect(cids, name).not.toContain(0);
    }
  });

  it('embeds each font as a subset, the one for each script, in a file a few kilobytes larger', async () => {
    const last = files.at(-1) ?? new Uint8Array();
    const fonts = await pageFonts(ws, last, SIGNATURE_PAGE);
    expect(fonts.length).toBeGreaterThan(0);
    for (const font of fonts) {
      expect(font, font.name).toMatchObject({ embedded: true, subset: true, unicode: true });
      expect(font.name).toMatch(/^[A-Z]{6}\+NotoSans/);
    }
    const families = new Set(fonts.map((font) => font.name.slice(7)));
    for (const { family } of NAMES) expect(families).toContain(family);
    // The labels are drawn by Noto Sans Regular, the heading of the page too.
    expect(families).toContain('NotoSans-Regular');

    // What a signature adds beyond the same signature in Latin: its CJK or Arabic subset, kilobytes
    // where the whole font is megabytes. The first signature also adds the page and its heading.
    const latin = sizes[1] ?? 0;
    for (const [index, size] of sizes.entries()) {
      expect(size - latin, NAMES[index]?.name).toBeLessThan(12_000);
    }
    // A signature's own bytes: 32 KB of /Contents placeholder, the CMS's certificates, the stamp.
    expect(Math.max(...sizes)).toBeLessThan(60_000);
  });

  it('renders every name: each box on the page has ink in its name line, its border blue', async () => {
    const last = files.at(-1) ?? new Uint8Array();
    const dpi = 100;
    const raster = await renderPage(ws, last, SIGNATURE_PAGE, dpi, `${ws.dir}/scripts`);
    const doc = await PDFDocument.load(last, { updateMetadata: false });
    const height = doc.getPage(SIGNATURE_PAGE - 1).getHeight();
    const scale = dpi / 72;
    for (const [index, { name }] of NAMES.entries()) {
      const { rect, lines } = await readAppearance(last, SIGNATURE_PAGE - 1, index);
      const [x1, y1, x2, y2] = rect;
      const box = {
        left: x1 * scale,
        top: (height - y2) * scale,
        right: x2 * scale,
        bottom: (height - y1) * scale,
      };
      const { blue } = inkIn(raster, box);
      expect(blue, name).toBeGreaterThan(100);
      // The name's line: from its baseline up by its size, inside the border.
      const first = lines[0];
      if (first === undefined) throw new Error(`no text in the stamp of ${name}`);
      const nameLine = {
        left: (x1 + first.xMin) * scale,
        right: (x1 + first.xMax) * scale,
        top: (height - (y1 + first.y + first.size)) * scale,
        bottom: (height - (y1 + first.y)) * scale,
      };
      expect(inkIn(raster, nameLine).ink, name).toBeGreaterThan(40);
      // Where the name now is, the page had nothing before this signature (the first one added the page).
      if (index > 0) {
        const before = await renderPage(ws, files[index] ?? new Uint8Array(), SIGNATURE_PAGE, dpi);
        expect(inkIn(before, nameLine).ink, name).toBe(0);
      }
    }
  });

  it('reads each font file once per process, and only the fonts some text needs', async () => {
    // The sign engine stamps in its own process: the same stamps, drawn here, count this process's reads.
    let pdf = await prepareForSigning(await makePdf({ pages: 1 }));
    for (const [index, { name }] of NAMES.entries()) {
      const { pdf: placed } = await placeSignature(pdf, request(pdf, index, name));
      pdf = placed;
    }
    const loads = Object.fromEntries([...fontLoadTimings].map(([key, timing]) => [key, timing.reads]));
    expect(loads).toMatchObject({ 'NotoSans-bold': 1, 'NotoSans-regular': 1, 'NotoSansSC-bold': 1 });
    expect(loads).toMatchObject({ 'NotoSansArabic-bold': 1, 'NotoSansHebrew-bold': 1 });
    // Noto Sans SC Regular (10 MB) was never needed: every CJK character here is in a name, which is bold.
    expect(loads).not.toHaveProperty('NotoSansSC-regular');
  });
});
