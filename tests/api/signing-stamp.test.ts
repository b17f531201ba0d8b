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
import { STAMP_MIN_TEXT_SIZE } from '../../server/signing/stamp.ts';
import { makePdf } from '../fixtures/pdfs.ts';
import { openStandalonePki, type StandalonePki } from './deployment-pki-support.ts';

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
  return { stamp, words: list, text: joined(list) };
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
    expect(text).toContain('2025-03-04 10:20:30 UTC');
    expect(text).toContain('Location: London');
    expect(text).toContain('Personal level 3');
    expect(text).not.toContain('…');
    expect(outsideBox(list, stamp.box)).toEqual([]);
    expect(Math.min(...stamp.sizes)).toBeGreaterThanOrEqual(STAMP_MIN_TEXT_SIZE);
  });

  it('shrinks only when needed: a short reason keeps the size of no reason, a long one wraps first', async () => {
    const none = await signAndRead({ reason: '' });
    const short = await signAndRead({ reason: 'Agreed' });
    const long = await signAndRead({ reason: REASON_128 });
    expect(none.text).not.toContain('Reason:');
    expect(new Set(short.stamp.sizes)).toEqual(new Set(none.stamp.sizes));
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
    expect(text).toContain('2025-03-04 10:20:30 UTC');
    expect(text).toContain('Personal level 3');
    expect(text).toMatch(/Location: Straße\b/);
    expect(text).toMatch(/Reason: Je confirme\b/);
    expect(text).toContain('…');
    expect(text).not.toContain(REASON_128);
    expect(outsideBox(list, stamp.box)).toEqual([]);
    expect(new Set(stamp.sizes.filter((size) => size < STAMP_MIN_TEXT_SIZE * 1.05))).toEqual(
      new Set([STAMP_MIN_TEXT_SIZE]),
    );
  });

  it('keeps the accents WinAnsi has, even typed as combining marks, and draws ? for the rest', async () => {
    const { text } = await signAndRead({
      // "Zoë" with a combining diaeresis, then letters Helvetica's WinAnsi set lacks.
      signer: { userId: 'user-zoe', fullName: 'Zoe\u0308 Dvořák 李', email: 'zoe@paraph.test' },
      location: 'Kraków — Łódź',
      reason: 'Façade rénovée à Genève',
    });
    expect(text).toContain('Zoë Dvo?ák ?');
    expect(text).toContain('Location: Kraków — ?ód?');
    expect(text).toContain('Reason: Façade rénovée à Genève');
  });
});
