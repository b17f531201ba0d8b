// The stamp's text in its box, read back from signed files by poppler (pdftotext -bbox-layout), which
// shares no code with the engine: every field whole where the box has room, wrapped onto more lines and
// shrunk no further than needed, cut with an ellipsis only at the smallest size, and no word outside the
// box. The font sizes are read from the appearance stream itself.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  PDFRawStream,
  StandardFonts,
  decodePDFRawStream,
} from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalSigner } from '../../server/signing/local-signer.ts';
import type { SignatureRequest, Signer } from '../../server/signing/signer.ts';
import { STAMP_MIN_TEXT_SIZE, stampLayout } from '../../server/signing/stamp.ts';
import { makePdf } from '../fixtures/pdfs.ts';
import { openStandalonePki, type StandalonePki } from './deployment-pki-support.ts';
import { readAppearance } from './stamp-support.ts';

const run = promisify(execFile);

let workDir: string;
let pki: StandalonePki;
let signer: Signer;
let fileCounter = 0;

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'paraph-stamp-'));
  pki = await openStandalonePki(path.join(workDir, 'data'));
  signer = createLocalSigner({ pki: pki.pki });
});

afterAll(async () => {
  await pki.close();
  await rm(workDir, { recursive: true, force: true });
});

// 23, 60 and 128 characters, with accents a standard font can draw.
const REASON_23 = 'I agree to these terms.';
const REASON_60 = 'Approved after review of clauses 4.2 and 7.12 by the comité.';
const REASON_128 =
  'Je confirme l’exactitude de toutes les données de ce contrat, y compris les annexes A à F et la grille tarifaire révisée. Signée';
const LOCATION_128 =
  'Straße des 17. Juni 135, 10623 Berlin-Charlottenburg, Deutschland, Büro 4.12, Haus C, Eingang Süd, gegenüber vom Tiergarten Park';
const LONG_NAME = 'María José Ångström-Müller de la Peña y Villanueva';

function request(pdf: Uint8Array, overrides: Partial<SignatureRequest> = {}): SignatureRequest {
  return {
    pdf,
    signer: { userId: 'user-stamp', fullName: 'Ada Lovelace', email: 'ada@paraph.test' },
    smartCardType: 'personal_level3',
    locale: 'en',
    location: 'London',
    reason: REASON_23,
    signedAt: new Date('2025-03-04T10:20:30Z'),
    placement: { kind: 'inline', pageNumber: 1, top: 0.4, left: 0.1 },
    signatureIndex: 0,
    ...overrides,
  };
}

type Word = { text: string; xMin: number; yMin: number; xMax: number; yMax: number };

/** The words poppler finds on page 1, in reading order, with their boxes (points, from the top left). */
async function words(pdf: Uint8Array): Promise<Word[]> {
  fileCounter += 1;
  const file = path.join(workDir, `${fileCounter}.pdf`);
  await writeFile(file, pdf);
  const { stdout } = await run('pdftotext', ['-bbox-layout', '-f', '1', '-l', '1', file, '-']);
  const decode = (text: string) =>
    text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&amp;', '&');
  return [
    ...stdout.matchAll(
      /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g,
    ),
  ].map((match) => ({
    xMin: Number(match[1]),
    yMin: Number(match[2]),
    xMax: Number(match[3]),
    yMax: Number(match[4]),
    text: decode(match[5] ?? ''),
  }));
}

type Stamp = {
  /** The widget's box from the top left of page 1, as pdftotext measures. */
  box: { left: number; top: number; right: number; bottom: number };
  sizes: number[];
};

async function stampOf(pdf: Uint8Array): Promise<Stamp> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const page = doc.getPage(0);
  const annots = page.node.lookup(PDFName.of('Annots'), PDFArray);
  const widget = annots
    .asArray()
    .map((_, index) => annots.lookup(index))
    .find((annot) => annot instanceof PDFDict && annot.lookup(PDFName.of('FT')) === PDFName.of('Sig'));
  if (!(widget instanceof PDFDict)) throw new Error('no signature widget on page 1');
  const [x1, y1, x2, y2] = widget
    .lookup(PDFName.of('Rect'), PDFArray)
    .asArray()
    .map((value) => (value as PDFNumber).asNumber()) as [number, number, number, number];
  const appearance = widget.lookup(PDFName.of('AP'), PDFDict).lookup(PDFName.of('N'));
  if (!(appearance instanceof PDFRawStream)) throw new Error('no appearance stream');
  const content = Buffer.from(decodePDFRawStream(appearance).decode()).toString('latin1');
  const sizes = [...content.matchAll(/\/F\d+ ([\d.]+) Tf/g)].map((match) => Number(match[1]));
  const height = page.getHeight();
  return { box: { left: x1, top: height - y2, right: x2, bottom: height - y1 }, sizes };
}

/** The stamp's words: what pdftotext finds on the signed page and not on the page before it was signed. */
async function stampWords(original: Uint8Array, signed: Uint8Array): Promise<Word[]> {
  const before = (await words(original)).map((word) => JSON.stringify(word));
  return (await words(signed)).filter((word) => {
    const at = before.indexOf(JSON.stringify(word));
    if (at >= 0) before.splice(at, 1);
    return at < 0;
  });
}

const joined = (list: readonly Word[]) => list.map((word) => word.text).join(' ');

function outsideBox(list: readonly Word[], box: Stamp['box']): Word[] {
  return list.filter(
    (word) => word.xMin < box.left || word.xMax > box.right || word.yMin < box.top || word.yMax > box.bottom,
  );
}

async function signAndRead(overrides: Partial<SignatureRequest>, original?: Uint8Array) {
  const pdf = original ?? (await makePdf({ pages: 1 }));
  const signed = (await signer.sign(request(pdf, overrides))).pdf;
  const stamp = await stampOf(signed);
  const list = await stampWords(pdf, signed);
  return { signed, stamp, words: list, text: joined(list) };
}

describe('the stamp fits its text to the box', () => {
  it.each([
    ['23', REASON_23],
    ['60', REASON_60],
    ['128', REASON_128],
  ])('a reason of %s characters is drawn whole, inside the box', async (length, reason) => {
    expect(reason).toHaveLength(Number(length));
    const { stamp, words: list, text } = await signAndRead({ reason });
    expect(text).toContain(`Reason: ${reason}`);
    expect(text).toContain('Ada Lovelace');
    expect(text).toContain('Mar 4, 2025, 10:20:30 UTC');
    expect(text).toContain('Location: London');
    expect(text).toContain('Personal level 3');
    expect(text).not.toContain('…');
    expect(outsideBox(list, stamp.box)).toEqual([]);
    expect(Math.min(...stamp.sizes)).toBeGreaterThanOrEqual(STAMP_MIN_TEXT_SIZE);
  });

  it('shrinks only when needed: a short reason costs one line, a long one wraps first', async () => {
    const none = await signAndRead({ reason: '' });
    const short = await signAndRead({ reason: 'Agreed' });
    const long = await signAndRead({ reason: REASON_128 });
    expect(none.text).not.toContain('Reason:');
    // On A4 four lines fit at the size the date's width allows and a fifth one just does not: the
    // short reason's stamp is at most the 2 % smaller that one more line needs, not wrapped.
    const shortSize = Math.max(...short.stamp.sizes);
    expect(shortSize).toBeLessThanOrEqual(Math.max(...none.stamp.sizes));
    expect(shortSize).toBeGreaterThan(Math.max(...none.stamp.sizes) * 0.98);
    expect(new Set(short.words.filter((word) => word.text === 'Agreed').map((word) => word.yMin)).size).toBe(
      1,
    );
    // The long reason is on several lines, and smaller only because the box has no height left.
    const reasonLines = new Set(
      long.words.filter((word) => REASON_128.includes(word.text)).map((word) => word.yMin),
    );
    expect(reasonLines.size).toBeGreaterThanOrEqual(3);
    expect(Math.max(...long.stamp.sizes)).toBeLessThan(Math.max(...short.stamp.sizes));
    const lastLine = Math.max(...long.words.map((word) => word.yMax));
    expect(long.stamp.box.bottom - lastLine).toBeLessThan((long.stamp.box.bottom - long.stamp.box.top) * 0.2);
  });

  it('long names, locations and reasons with accents: all kept whole on an A4 page', async () => {
    const {
      stamp,
      words: list,
      text,
    } = await signAndRead({
      signer: { userId: 'user-maria', fullName: LONG_NAME, email: 'maria@paraph.test' },
      location: LOCATION_128,
      reason: REASON_128,
    });
    expect(LOCATION_128).toHaveLength(128);
    expect(text).toContain(LONG_NAME);
    expect(text).toContain(`Location: ${LOCATION_128}`);
    expect(text).toContain(`Reason: ${REASON_128}`);
    expect(outsideBox(list, stamp.box)).toEqual([]);
    expect(Math.min(...stamp.sizes)).toBeGreaterThanOrEqual(STAMP_MIN_TEXT_SIZE);
  });

  it('a box too small for everything at the smallest size cuts with an ellipsis, still inside it', async () => {
    // A6: the box is 28 % of 298 pt wide, too small for two fields of 128 characters at 6 pt.
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    doc.addPage([297.64, 419.53]).drawText('Small page', { x: 20, y: 380, size: 12, font });
    const small = await doc.save({ useObjectStreams: false });
    const {
      stamp,
      words: list,
      text,
    } = await signAndRead({ location: LOCATION_128, reason: REASON_128 }, small);
    expect(text).toContain('Ada Lovelace');
    expect(text).toContain('Mar 4, 2025, 10:20:30 UTC');
    expect(text).toContain('Personal level 3');
    expect(text).toMatch(/Location: Straße\b/);
    expect(text).toMatch(/Reason: Je confirme\b/);
    expect(text).toContain('…');
    expect(text).not.toContain(REASON_128);
    expect(outsideBox(list, stamp.box)).toEqual([]);
    // One line a field does not quite fit at 6 pt in this box: all lines but the name share the size
    // that gives one line each, a hair under it.
    const smallest = Math.min(...stamp.sizes);
    expect(smallest).toBeLessThanOrEqual(STAMP_MIN_TEXT_SIZE);
    expect(smallest).toBeGreaterThan(STAMP_MIN_TEXT_SIZE * 0.98);
    expect(new Set(stamp.sizes.filter((size) => size < STAMP_MIN_TEXT_SIZE * 1.05))).toEqual(
      new Set([smallest]),
    );
  });

  it('composes accents typed as combining marks and draws every letter, none as ?', async () => {
    const { text } = await signAndRead({
      // "Zoë" with a combining diaeresis, then letters Helvetica's WinAnsi set lacked.
      signer: { userId: 'user-zoe', fullName: 'Zoe\u0308 Dvořák 李', email: 'zoe@paraph.test' },
      location: 'Kraków — Łódź',
      reason: 'Façade rénovée à Genève',
    });
    expect(text).toContain('Zoë Dvořák 李');
    expect(text).toContain('Location: Kraków — Łódź');
    expect(text).toContain('Reason: Façade rénovée à Genève');
    expect(text).not.toContain('?');
  });
});

// Every line the appearance stream draws, measured with the widths the embedded fonts declare: none
// starts left of the box or ends right of it (the padding aside, which holds glyphs' overhangs).
async function linesInsideBox(signed: Uint8Array) {
  const { bbox, lines } = await readAppearance(signed, 0);
  const [, , width, height] = bbox;
  const padding = Math.min(width, height) * 0.08;
  const outside = lines.filter(
    (line) =>
      line.xMin < padding - 0.01 || line.xMax > width - padding + 0.01 || line.y < 0 || line.y > height,
  );
  return { lines, outside, width };
}

describe('long texts in any script stay inside the box', () => {
  const ARABIC_REASON =
    'أوافق على جميع بنود هذا العقد بما في ذلك الملاحق من ألف إلى واو وجدول الأسعار المعدل والشروط العامة';
  const CJK_LOCATION = '東京都千代田区丸の内一丁目九番一号東京駅八重洲中央口前広場北側ビル十二階会議室';
  const HEBREW_NAME = 'אברהם יהושע השל בן-דוד מירושלים הבירה';

  it.each([
    ['A4', undefined],
    ['A6', [297.64, 419.53] as const],
  ])('%s: Arabic, CJK and Hebrew, wrapped or cut, every line within the box', async (_, size) => {
    let original: Uint8Array | undefined;
    if (size !== undefined) {
      const doc = await PDFDocument.create();
      doc.addPage([...size]);
      original = await doc.save({ useObjectStreams: false });
    }
    const { text, signed } = await signAndRead(
      {
        signer: { userId: 'user-long', fullName: HEBREW_NAME, email: 'long@paraph.test' },
        location: CJK_LOCATION,
        reason: ARABIC_REASON,
      },
      original,
    );
    const { lines, outside } = await linesInsideBox(signed);
    expect(outside).toEqual([]);
    expect(lines.length).toBeGreaterThanOrEqual(5);
    // The CJK location has no spaces: it is broken between characters, never run past the edge.
    expect(text).toContain('東京都千代田区');
    expect(text).toContain('Reason:');
  });

  it('the layout measures what is drawn: each line no wider than the inner box, wide ones close to it', async () => {
    const box = { width: 0.28 * 595.28, height: 0.15 * 595.28 };
    const layout = await stampLayout(
      request(new Uint8Array(), { location: LOCATION_128, reason: REASON_128, locale: 'fr' }),
      box,
    );
    const inner = box.width - 2 * layout.padding;
    for (const line of layout.lines) expect(line.width, line.text).toBeLessThanOrEqual(inner + 1e-9);
    // A wrapped paragraph fills its lines: all but its last are more than half full.
    const reasonLines = layout.lines.filter((line) => REASON_128.includes(line.text.slice(0, 10)));
    expect(reasonLines.length).toBeGreaterThanOrEqual(2);
    for (const line of reasonLines.slice(0, -1)) expect(line.width).toBeGreaterThan(inner / 2);
  });
});

describe('the stamp is in the signer’s profile language', () => {
  it.each([
    [
      'en',
      [
        'Mar 4, 2025, 10:20:30 UTC',
        'Location: London',
        'Reason: I agree to these terms.',
        'Personal level 3',
      ],
    ],
    [
      'es',
      ['4 mar 2025, 10:20:30 UTC', 'Lugar: London', 'Motivo: I agree to these terms.', 'Nivel personal 3'],
    ],
    [
      'fr',
      // pdftotext ends a word at the no-break space before the colon: it joins them with a plain one.
      [
        '4 mars 2025 à 10:20:30 UTC',
        'Lieu : London',
        'Motif : I agree to these terms.',
        'Niveau personnel 3',
      ],
    ],
  ] as const)('%s: labels, date and level', async (locale, expected) => {
    const { text, stamp, words: list } = await signAndRead({ locale });
    for (const line of expected) expect(text).toContain(line);
    expect(outsideBox(list, stamp.box)).toEqual([]);
  });

  it('the signature page a Spanish signer adds is headed in Spanish; the level of a business card too', async () => {
    const pdf = await makePdf({ pages: 1 });
    const signed = (
      await signer.sign(
        request(pdf, {
          locale: 'es',
          smartCardType: 'business_level4',
          placement: { kind: 'page', signPageNumber: 0 },
        }),
      )
    ).pdf;
    fileCounter += 1;
    const file = path.join(workDir, `${fileCounter}.pdf`);
    await writeFile(file, signed);
    const { stdout } = await run('pdftotext', ['-f', '2', '-l', '2', file, '-']);
    expect(stdout).toContain('Firmas');
    expect(stdout).toContain('Esta página se añadió para recoger las firmas visibles de este documento.');
    expect(stdout).toContain('Nivel empresarial 4');
    expect(stdout).not.toContain('Signatures');
  });
});
