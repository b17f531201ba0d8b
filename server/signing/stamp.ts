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

/** Text a standard font can show: anything outside its (WinAnsi) set becomes '?', controls a space. */
export function encodableText(font: PDFFont, text: string): string {
  const supported = new Set(font.getCharacterSet());
  let result = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const isControl = code < 0x20 || (code >= 0x7f && code <= 0x9f);
    result += isControl ? ' ' : supported.has(code) ? char : '?';
  }
  return result;
}

function fitToWidth(font: PDFFont, text: string, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  const chars = Array.from(text);
  while (chars.length > 0 && font.widthOfTextAtSize(`${chars.join('')}...`, size) > width) chars.pop();
  return `${chars.join('')}...`;
}

function stampOperators(
  box: { width: number; height: number },
  lines: readonly { text: string; isBold: boolean }[],
  fonts: { regular: PDFFont; bold: PDFFont },
): PDFOperator[] {
  const { width, height } = box;
  const padding = Math.min(width, height) * 0.08;
  // As large as the box allows: every line in height, and the widest fixed line (the date) in width;
  // a long name, location or reason is cut instead.
  const dateWidth = fonts.regular.widthOfTextAtSize(stampDate(new Date(0)), 1);
  const size = Math.max(
    4,
    Math.min(
      height * 0.16,
      (height - 2 * padding) / (lines.length * 1.25 + 0.2),
      (0.97 * (width - 2 * padding)) / dateWidth,
    ),
  );
  const leading = size * 1.25;
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
  let y = height - padding - size;
  operators.push(moveText(padding, y));
  lines.forEach((line, index) => {
    const font = line.isBold ? fonts.bold : fonts.regular;
    const lineSize = line.isBold ? size * 1.1 : size;
    const text = fitToWidth(font, encodableText(font, line.text), lineSize, width - 2 * padding);
    if (index > 0) {
      operators.push(moveText(0, -leading));
      y -= leading;
    }
    operators.push(setFontAndSize(line.isBold ? 'F2' : 'F1', lineSize), showText(font.encodeText(text)));
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
  const lines = [
    { text: request.signer.fullName, isBold: true },
    { text: stampDate(request.signedAt), isBold: false },
    { text: `Location: ${request.location}`, isBold: false },
    ...(request.reason.trim() === '' ? [] : [{ text: `Reason: ${request.reason}`, isBold: false }]),
    { text: smartCardLevelText(request.smartCardType), isBold: false },
  ];
  const operators = stampOperators(box, lines, { regular, bold });
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
