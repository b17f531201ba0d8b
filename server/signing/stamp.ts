// The visible signature: a box of 28 % × 15 % of the page width (spec 001 §9) with the signer's name, the
// date, the location, the reason and the level. The box is the appearance stream of the signature's widget,
// not page content, so a later signer's stamp is an annotation added beside the earlier signatures: the
// kind of change a reader allows after a signature, where rewriting a page's content is not.
// Placement fractions are of the page as it is shown (after /Rotate), as the placement editor sees it.
import {
  PDFBool,
  PDFArray,
  PDFDict,
  PDFName,
  PDFRef,
  StandardFonts,
  rgb,
  beginText,
  endText,
  fill,
  moveText,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  setFillingRgbColor,
  setFontAndSize,
  setLineWidth,
  setStrokingRgbColor,
  showText,
  stroke,
  type PDFDocument,
  type PDFFont,
  type PDFOperator,
  type PDFPage,
} from 'pdf-lib';
import { PresignError, type SignatureRequest } from './signer.ts';
import type { SmartCardType } from './smart-card-type.ts';

export const STAMP_BOX = { width: 0.28, height: 0.15 } as const;

/** Marks a page Paraph added to hold signatures, so later signers find it. */
export const SIGNATURE_PAGE_MARKER = PDFName.of('ParaphSignaturePage');

// The signature page's grid, in fractions of the page width (the box's own unit) except where named.
const GRID = {
  gapX: 0.06,
  gapY: 0.03,
  topFractionOfHeight: 0.14,
  bottomFractionOfHeight: 0.06,
  maxRows: 5,
  maxColumns: 2,
};

export type StampResult = {
  page: PDFPage;
  /** The widget's rectangle in the page's user space: [x1, y1, x2, y2]. */
  rect: [number, number, number, number];
  appearance: PDFRef;
};

type DisplayBox = { left: number; top: number; width: number; height: number };

export function smartCardLevelText(type: SmartCardType): string {
  const match = /^(personal|business)_level(\d)$/.exec(type);
  if (!match) return 'Standard level';
  return `${match[1] === 'personal' ? 'Personal' : 'Business'} level ${match[2]}`;
}

/** "2024-05-01 14:03:09 UTC": the ISO date and the UTC time. */
export function stampDate(date: Date): string {
  return `${date.toISOString().slice(0, 10)} ${date.toISOString().slice(11, 19)} UTC`;
}

function rotationOf(page: PDFPage): 0 | 90 | 180 | 270 {
  const angle = (((Math.round(page.getRotation().angle / 90) * 90) % 360) + 360) % 360;
  return angle === 90 || angle === 180 || angle === 270 ? angle : 0;
}

/** The page's size as a reader shows it. */
export function displaySize(page: PDFPage): { width: number; height: number } {
  const box = page.getCropBox();
  const rotation = rotationOf(page);
  return rotation === 90 || rotation === 270
    ? { width: box.height, height: box.width }
    : { width: box.width, height: box.height };
}

// A point given from the shown page's top-left corner, in the page's user space.
function toUserSpace(page: PDFPage, dx: number, dy: number): [number, number] {
  const { x, y, width, height } = page.getCropBox();
  switch (rotationOf(page)) {
    case 90:
      return [x + dy, y + dx];
    case 180:
      return [x + width - dx, y + dy];
    case 270:
      return [x + width - dy, y + height - dx];
    default:
      return [x + dx, y + height - dy];
  }
}

// The appearance is drawn upright in its own box; this matrix turns it against the page's rotation.
function appearanceMatrix(page: PDFPage): number[] {
  switch (rotationOf(page)) {
    case 90:
      return [0, 1, -1, 0, 0, 0];
    case 180:
      return [-1, 0, 0, -1, 0, 0];
    case 270:
      return [0, -1, 1, 0, 0, 0];
    default:
      return [1, 0, 0, 1, 0, 0];
  }
}

/**
 * Text a standard font can show. It is composed first (NFC), so an accent typed as a combining mark is
 * drawn like the precomposed letter; anything still outside the font's (WinAnsi) set becomes '?', and
 * controls a space. The certificate and the signature dictionary keep the text as it was.
 */
export function encodableText(font: PDFFont, text: string): string {
  const supported = new Set(font.getCharacterSet());
  let result = '';
  for (const char of text.normalize('NFC')) {
    const code = char.codePointAt(0) ?? 0;
    const isControl = code < 0x20 || (code >= 0x7f && code <= 0x9f);
    result += isControl ? ' ' : supported.has(code) ? char : '?';
  }
  return result;
}

// The smallest size the stamp's text shrinks to before a field is cut: still legible printed at 100 %.
// A box too small for even that (a very narrow page) keeps its largest size that fits one line a field.
export const STAMP_MIN_TEXT_SIZE = 6;
const NAME_SCALE = 1.1;
const LINE_SPACING = 1.2;
const SIZE_STEP = 0.1;
// In WinAnsi, so Helvetica draws it.
const ELLIPSIS = '\u2026';

// cutRank: when the box cannot hold everything, fields take their further lines in turn by this rank.
type StampField = { text: string; isBold: boolean; cutRank?: number };
type StampLine = { text: string; isBold: boolean; size: number };
type StampFonts = { regular: PDFFont; bold: PDFFont };

/**
 * A font's advance widths, one character at a time. `showText` draws without kerning, while pdf-lib's
 * widthOfTextAtSize adds the kerning of each pair (narrower than what is drawn), so a line is measured
 * as the sum of its characters' own widths: exactly what a reader advances.
 */
type Metrics = { font: PDFFont; advances: Map<string, number> };
type StampMetrics = { regular: Metrics; bold: Metrics };

function metricsOf(fonts: StampFonts): StampMetrics {
  return {
    regular: { font: fonts.regular, advances: new Map() },
    bold: { font: fonts.bold, advances: new Map() },
  };
}

function widthOf(metrics: Metrics, text: string, size: number): number {
  let total = 0;
  for (const char of text) {
    let advance = metrics.advances.get(char);
    if (advance === undefined) {
      advance = metrics.font.widthOfTextAtSize(char, 1);
      metrics.advances.set(char, advance);
    }
    total += advance;
  }
  return total * size;
}

const metricsFor = (metrics: StampMetrics, isBold: boolean): Metrics =>
  isBold ? metrics.bold : metrics.regular;
const sizeOf = (isBold: boolean, size: number): number =>
  isBold ? Math.round(size * NAME_SCALE * 100) / 100 : size;

/** Greedy wrap at spaces; a word longer than a whole line is broken between characters. */
function wrapText(metrics: Metrics, text: string, size: number, width: number): string[] {
  const space = widthOf(metrics, ' ', size);
  const lines: string[] = [];
  let line = '';
  let lineWidth = 0;
  for (const word of text.split(/ +/)) {
    if (word === '') continue;
    const wordWidth = widthOf(metrics, word, size);
    const joinedWidth = line === '' ? wordWidth : lineWidth + space + wordWidth;
    if (joinedWidth <= width) {
      line = line === '' ? word : `${line} ${word}`;
      lineWidth = joinedWidth;
    } else if (wordWidth <= width) {
      if (line !== '') lines.push(line);
      line = word;
      lineWidth = wordWidth;
    } else {
      // Too wide for any line: it starts on the current one and goes on over as many as it takes.
      let rest = line === '' ? '' : `${line} `;
      let restWidth = line === '' ? 0 : lineWidth + space;
      for (const char of word) {
        const charWidth = widthOf(metrics, char, size);
        if (rest !== '' && restWidth + charWidth > width) {
          lines.push(rest.trimEnd());
          rest = '';
          restWidth = 0;
        }
        rest += char;
        restWidth += charWidth;
      }
      line = rest;
      lineWidth = restWidth;
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}

/** The first `count` lines of a wrapped field, the last one ending in an ellipsis when text is left over. */
function cutLines(metrics: Metrics, wrapped: readonly string[], count: number, size: number, width: number) {
  if (wrapped.length <= count) return [...wrapped];
  const room = width - widthOf(metrics, ELLIPSIS, size);
  let kept = '';
  let keptWidth = 0;
  for (const char of wrapped.slice(count - 1).join(' ')) {
    const charWidth = widthOf(metrics, char, size);
    if (keptWidth + charWidth > room) break;
    kept += char;
    keptWidth += charWidth;
  }
  return [...wrapped.slice(0, count - 1), `${kept.trimEnd()}${ELLIPSIS}`];
}

/** From the first line's top (its ascender) to the last line's descender, at these sizes. */
function blockHeight(lines: readonly { isBold: boolean; size: number }[], fonts: StampFonts): number {
  const first = lines[0];
  const last = lines.at(-1);
  if (first === undefined || last === undefined) return 0;
  const fontOf = (isBold: boolean) => (isBold ? fonts.bold : fonts.regular);
  const ascent = fontOf(first.isBold).heightAtSize(first.size, { descender: false });
  const lastFont = fontOf(last.isBold);
  const descent = lastFont.heightAtSize(last.size) - lastFont.heightAtSize(last.size, { descender: false });
  const steps = lines.slice(1).reduce((total, line) => total + LINE_SPACING * line.size, 0);
  return ascent + steps + descent;
}

function linesAt(
  fields: readonly StampField[],
  counts: readonly number[] | null,
  size: number,
  width: number,
  metrics: StampMetrics,
): StampLine[] {
  return fields.flatMap((field, index) => {
    const fieldMetrics = metricsFor(metrics, field.isBold);
    const lineSize = sizeOf(field.isBold, size);
    const wrapped = wrapText(fieldMetrics, field.text, lineSize, width);
    const count = counts?.[index];
    const texts = count === undefined ? wrapped : cutLines(fieldMetrics, wrapped, count, lineSize, width);
    return texts.map((text) => ({ text, isBold: field.isBold, size: lineSize }));
  });
}

/**
 * The stamp's lines in a box of `width` × `height` (inside the padding). In this order: the largest size
 * (up to `maxSize`) at which every field fits whole, wrapped onto as many lines as it needs; if none down
 * to the minimum does, the minimum size with the fields sharing the lines there are (a line each, then one
 * more in turn by `cutRank`), a field cut short ending in an ellipsis.
 */
function layoutStampText(
  fields: readonly StampField[],
  box: { width: number; height: number; maxSize: number },
  fonts: StampFonts,
): StampLine[] {
  const { width, height } = box;
  const metrics = metricsOf(fonts);
  const fits = (lines: readonly StampLine[]) => blockHeight(lines, fonts) <= height;
  // The size at which one line a field exactly fills the height: nothing can be larger, and the
  // minimum is never above it.
  const oneLineEach = fields.map((field) => ({ isBold: field.isBold, size: sizeOf(field.isBold, 1) }));
  const largest = Math.min(box.maxSize, height / blockHeight(oneLineEach, fonts));
  const smallest = Math.min(largest, STAMP_MIN_TEXT_SIZE);
  for (let step = 0; largest - step * SIZE_STEP > smallest; step += 1) {
    const lines = linesAt(fields, null, Math.round((largest - step * SIZE_STEP) * 100) / 100, width, metrics);
    if (fits(lines)) return lines;
  }
  const whole = linesAt(fields, null, smallest, width, metrics);
  if (fits(whole)) return whole;

  const needed = fields.map(
    (field) =>
      wrapText(metricsFor(metrics, field.isBold), field.text, sizeOf(field.isBold, smallest), width).length,
  );
  const counts = fields.map(() => 1);
  const order = fields
    .map((field, index) => ({ index, rank: field.cutRank ?? Number.POSITIVE_INFINITY }))
    .sort((a, b) => a.rank - b.rank)
    .map(({ index }) => index);
  let added = true;
  while (added) {
    added = false;
    for (const index of order) {
      if ((counts[index] ?? 0) >= (needed[index] ?? 0)) continue;
      const tried = counts.map((count, at) => (at === index ? count + 1 : count));
      if (!fits(linesAt(fields, tried, smallest, width, metrics))) continue;
      counts[index] = tried[index] ?? 1;
      added = true;
    }
  }
  return linesAt(fields, counts, smallest, width, metrics);
}

function stampOperators(
  box: { width: number; height: number },
  fields: readonly StampField[],
  fonts: StampFonts,
): PDFOperator[] {
  const { width, height } = box;
  // The padding also holds what a glyph draws past the font's ascender and descender: an accent on a
  // capital rises at most a quarter of the size above it, under half the padding at the largest size.
  const padding = Math.min(width, height) * 0.08;
  const inner = { width: width - 2 * padding, height: height - 2 * padding };
  // At most as large as the widest fixed line (the date) allows on one line.
  const dateWidth = widthOf(metricsOf(fonts).regular, stampDate(new Date(0)), 1);
  const maxSize = Math.min(height * 0.16, (0.97 * inner.width) / dateWidth);
  const encoded = fields.map((field) => ({
    ...field,
    text: encodableText(field.isBold ? fonts.bold : fonts.regular, field.text)
      .replace(/ +/g, ' ')
      .trim(),
  }));
  const lines = layoutStampText(encoded, { ...inner, maxSize }, fonts);
  const operators: PDFOperator[] = [
    pushGraphicsState(),
    setFillingRgbColor(0.96, 0.97, 1),
    rectangle(0, 0, width, height),
    fill(),
    setStrokingRgbColor(0.06, 0.42, 0.74),
    setLineWidth(Math.max(0.75, width * 0.006)),
    rectangle(0.5, 0.5, width - 1, height - 1),
    stroke(),
    setFillingRgbColor(0.08, 0.08, 0.1),
    beginText(),
  ];
  lines.forEach((line, index) => {
    const font = line.isBold ? fonts.bold : fonts.regular;
    if (index === 0) {
      operators.push(
        moveText(padding, height - padding - font.heightAtSize(line.size, { descender: false })),
      );
    } else {
      operators.push(moveText(0, -LINE_SPACING * line.size));
    }
    operators.push(
      setFontAndSize(line.isBold ? 'F2' : 'F1', line.size),
      showText(font.encodeText(line.text)),
    );
  });
  operators.push(endText(), popGraphicsState());
  return operators;
}

function countSignatureWidgets(page: PDFPage): number {
  const annots = page.node.lookup(PDFName.of('Annots'));
  if (!(annots instanceof PDFArray)) return 0;
  let count = 0;
  for (let index = 0; index < annots.size(); index += 1) {
    const annot = annots.lookup(index);
    if (annot instanceof PDFDict && annot.lookup(PDFName.of('FT')) === PDFName.of('Sig')) count += 1;
  }
  return count;
}

function isSignaturePage(page: PDFPage): boolean {
  return page.node.lookup(SIGNATURE_PAGE_MARKER) === PDFBool.True;
}

function gridOf(
  width: number,
  height: number,
): { columns: number; rows: number; lefts: number[]; tops: number[] } {
  const boxWidth = STAMP_BOX.width * width;
  const boxHeight = STAMP_BOX.height * width;
  const gapX = GRID.gapX * width;
  const gapY = GRID.gapY * width;
  const columns = Math.max(1, Math.min(GRID.maxColumns, Math.floor((width + gapX) / (boxWidth + gapX))));
  const top = GRID.topFractionOfHeight * height;
  const available = height - top - GRID.bottomFractionOfHeight * height;
  const rows = Math.max(1, Math.min(GRID.maxRows, Math.floor((available + gapY) / (boxHeight + gapY))));
  const totalWidth = columns * boxWidth + (columns - 1) * gapX;
  const lefts = Array.from(
    { length: columns },
    (_, column) => (width - totalWidth) / 2 + column * (boxWidth + gapX),
  );
  const tops = Array.from({ length: rows }, (_, row) => top + row * (boxHeight + gapY));
  return { columns, rows, lefts, tops };
}

async function addSignaturePage(doc: PDFDocument, index: number): Promise<PDFPage> {
  const first = doc.getPage(0);
  const { width, height } = displaySize(first);
  const page = doc.insertPage(index, [width, height]);
  page.node.set(SIGNATURE_PAGE_MARKER, PDFBool.True);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const size = Math.max(10, width * 0.027);
  const left = gridOf(width, height).lefts[0] ?? width * 0.08;
  page.drawText('Signatures', {
    x: left,
    y: height - GRID.topFractionOfHeight * height * 0.55,
    size,
    font: bold,
    color: rgb(0.1, 0.1, 0.1),
  });
  page.drawText('This page was added to hold the visible signatures of this document.', {
    x: left,
    y: height - GRID.topFractionOfHeight * height * 0.55 - size * 1.5,
    size: size * 0.55,
    font: regular,
    color: rgb(0.35, 0.35, 0.35),
  });
  return page;
}

/**
 * The signature page's box for the next signer. Signature pages are found by their marker; the slot is
 * the number of signatures already on them, so a page holds as many as its grid does (2 × 5 on a portrait
 * page) and the next one starts a further signature page right after the last.
 */
async function signaturePageSlot(
  doc: PDFDocument,
  signPageNumber: number,
): Promise<{ page: PDFPage; box: DisplayBox }> {
  const pages = doc.getPages();
  const signaturePages = pages
    .map((page, index) => ({ page, index }))
    .filter(({ page }) => isSignaturePage(page));
  for (const { page } of signaturePages) {
    const { width, height } = displaySize(page);
    const grid = gridOf(width, height);
    const used = countSignatureWidgets(page);
    if (used < grid.columns * grid.rows) return { page, box: gridBox(grid, used, width) };
  }
  let insertAt: number;
  const last = signaturePages.at(-1);
  if (last) insertAt = last.index + 1;
  else if (!Number.isInteger(signPageNumber) || signPageNumber < 0 || signPageNumber > pages.length + 1) {
    throw new PresignError(
      `Signature page ${signPageNumber} is past the end of a ${pages.length}-page document.`,
    );
  } else insertAt = signPageNumber === 0 ? pages.length : signPageNumber - 1;
  const page = await addSignaturePage(doc, insertAt);
  const { width, height } = displaySize(page);
  return { page, box: gridBox(gridOf(width, height), 0, width) };
}

function gridBox(grid: ReturnType<typeof gridOf>, slot: number, width: number): DisplayBox {
  const column = slot % grid.columns;
  const row = Math.floor(slot / grid.columns);
  return {
    left: grid.lefts[column] ?? 0,
    top: grid.tops[row] ?? 0,
    width: STAMP_BOX.width * width,
    height: STAMP_BOX.height * width,
  };
}

function inlineBox(
  doc: PDFDocument,
  pageNumber: number,
  top: number,
  left: number,
): { page: PDFPage; box: DisplayBox } {
  const count = doc.getPageCount();
  if (!Number.isInteger(pageNumber) || pageNumber < 1 || pageNumber > count) {
    throw new PresignError(`Page ${pageNumber} does not exist in a ${count}-page document.`);
  }
  if (!Number.isFinite(top) || !Number.isFinite(left))
    throw new PresignError('The placement is not a number.');
  const page = doc.getPage(pageNumber - 1);
  const { width, height } = displaySize(page);
  const boxWidth = STAMP_BOX.width * width;
  const boxHeight = STAMP_BOX.height * width;
  // The contract allows a top of up to 1 (the box would hang below the page): the box is kept on it.
  const clamp = (value: number, max: number) => Math.min(Math.max(0, value), Math.max(0, max));
  return {
    page,
    box: {
      left: clamp(left * width, width - boxWidth),
      top: clamp(top * height, height - boxHeight),
      width: boxWidth,
      height: boxHeight,
    },
  };
}

/** Finds or makes the stamp's place and draws its appearance; the caller attaches it to a widget. */
export async function placeStamp(doc: PDFDocument, request: SignatureRequest): Promise<StampResult> {
  const { placement } = request;
  const { page, box } =
    placement.kind === 'inline'
      ? inlineBox(doc, placement.pageNumber, placement.top, placement.left)
      : await signaturePageSlot(doc, placement.signPageNumber);

  const [x1, y1] = toUserSpace(page, box.left, box.top);
  const [x2, y2] = toUserSpace(page, box.left + box.width, box.top + box.height);
  const rect: StampResult['rect'] = [Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2)];

  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  // Short of room, the name keeps the most, then the reason (the signer's own words), then the location.
  const fields = [
    { text: request.signer.fullName, isBold: true, cutRank: 0 },
    { text: stampDate(request.signedAt), isBold: false },
    { text: `Location: ${request.location}`, isBold: false, cutRank: 2 },
    ...(request.reason.trim() === ''
      ? []
      : [{ text: `Reason: ${request.reason}`, isBold: false, cutRank: 1 }]),
    { text: smartCardLevelText(request.smartCardType), isBold: false },
  ];
  const operators = stampOperators(box, fields, { regular, bold });
  const context = doc.context;
  const appearance = context.register(
    context.formXObject(operators, {
      BBox: [0, 0, box.width, box.height],
      Matrix: appearanceMatrix(page),
      Resources: { Font: { F1: regular.ref, F2: bold.ref } },
    }),
  );
  return { page, rect, appearance };
}
