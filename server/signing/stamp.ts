// The visible signature: a box of 28 % × 15 % of the page width (spec 001 §9) with the signer's name, the
// date, the location, the reason and the level, in the signer's language (./stamp-text.ts) and in fonts
// that draw any script (./fonts.ts). The box is the appearance stream of the signature's widget,
// not page content, so a later signer's stamp is an annotation added beside the earlier signatures: the
// kind of change a reader allows after a signature, where rewriting a page's content is not.
// Placement fractions are of the page as it is shown (after /Rotate), as the placement editor sees it.
import {
  PDFBool,
  PDFArray,
  PDFDict,
  PDFName,
  PDFOperator,
  PDFOperatorNames,
  PDFSignature,
  StandardFonts,
  beginText,
  endText,
  fill,
  moveText,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  setCharacterSqueeze,
  setFillingRgbColor,
  setFontAndSize,
  setLineWidth,
  setStrokingRgbColor,
  setTextRise,
  stroke,
  type PDFContext,
  type PDFDocument,
  type PDFHexString,
  type PDFPage,
  type PDFRef,
} from 'pdf-lib';
import {
  DocumentFonts,
  endsRightToLeft,
  faceMetrics,
  faceText,
  isLineControl,
  joinFaced,
  primaryFace,
  shapeLine,
  sliceFaced,
  yieldToEventLoop,
  type FacedText,
  type ShapedLine,
} from './fonts.ts';
import { PresignError, type SignatureRequest } from './signer.ts';
import { stampTexts } from './stamp-text.ts';

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

const A4 = { width: 595.28, height: 841.89 } as const;
/**
 * A signature page copies the size of the document's first page that is a sane sheet: each side from
 * 10 cm (a little under A6's short side) to A0's long side, and at most three times as long as it is
 * wide (the grid needs the height). Otherwise (a 3 × 3 pt label, a MediaBox of [0 0 0 0], a banner) it is A4.
 */
export const SIGNATURE_PAGE_BOUNDS = { minSide: 283.46, maxSide: 3370.39, maxAspect: 3 } as const;

/**
 * On a page narrower than A6 (297.64 pt) the inline box keeps the size it has on A6, where the stamp's
 * five lines fit at the smallest text size; a page too small to hold that box is refused.
 */
export const MIN_STAMP_PAGE_WIDTH = 297.64;

export type StampResult = {
  page: PDFPage;
  /** The widget's rectangle in the page's user space: [x1, y1, x2, y2]. */
  rect: [number, number, number, number];
  appearance: PDFRef;
};

type DisplayBox = { left: number; top: number; width: number; height: number };

function rotationOf(page: PDFPage): 0 | 90 | 180 | 270 {
  const angle = (((Math.round(page.getRotation().angle / 90) * 90) % 360) + 360) % 360;
  return angle === 90 || angle === 180 || angle === 270 ? angle : 0;
}

// The crop box with its corners in order: a box written [x2 y2 x1 y1] is the same rectangle to a reader.
function visibleBox(page: PDFPage): { x: number; y: number; width: number; height: number } {
  const { x, y, width, height } = page.getCropBox();
  const finite = (value: number) => (Number.isFinite(value) ? value : 0);
  return {
    x: Math.min(finite(x), finite(x) + finite(width)),
    y: Math.min(finite(y), finite(y) + finite(height)),
    width: Math.abs(finite(width)),
    height: Math.abs(finite(height)),
  };
}

/** The page's size as a reader shows it. */
export function displaySize(page: PDFPage): { width: number; height: number } {
  const box = visibleBox(page);
  const rotation = rotationOf(page);
  return rotation === 90 || rotation === 270
    ? { width: box.height, height: box.width }
    : { width: box.width, height: box.height };
}

// A point given from the shown page's top-left corner, in the page's user space.
function toUserSpace(page: PDFPage, dx: number, dy: number): [number, number] {
  const { x, y, width, height } = visibleBox(page);
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

// ------------------------------------------------------------------ the text in the box

// The smallest size the stamp's text shrinks to before a field is cut: still legible printed at 100 %.
// A box too small for even that keeps its largest size that fits one line a field.
export const STAMP_MIN_TEXT_SIZE = 6;
const NAME_SCALE = 1.1;
const LINE_SPACING = 1.2;
const SIZE_STEP = 0.1;
const ELLIPSIS = '\u2026';

/**
 * One field of the stamp. `direction`: the paragraph direction of its lines, that of the name's first
 * letter (an Arabic name reads right to left), left to right for a label in en, es or fr.
 * cutRank: when the box cannot hold everything, fields take their further lines in turn by this rank.
 */
type StampField = {
  text: FacedText;
  isBold: boolean;
  direction: 'ltr' | 'auto';
  cutRank?: number;
  /** The ellipsis in this field's weight, for a line cut short. */
  ellipsis: FacedText;
};
/** A line of a field: the field's text from `start` to `end` (UTF-16), and an ellipsis if it was cut. */
type LineRange = { field: StampField; start: number; end: number; cut: boolean; size: number };
/** A line as it is drawn; `squeeze`, the horizontal scaling that keeps it in the box (1 but in theory). */
type StampLine = LineRange & { text: FacedText; shaped: ShapedLine; squeeze: number };

type Word = { start: number; end: number; width: number };

/**
 * Every width the layout asks for, in em, cached per field (a layout tries many sizes). A line of whole
 * words is measured as the sum of its words and the spaces between them, each shaped once: shaping does
 * not reach across a space (Arabic letters do not join over one), and shaping every candidate line
 * made a long Arabic reason cost 50 ms. Should a drawn line still come out wider than its sum, it is
 * drawn narrowed to fit (a StampLine's `squeeze`).
 */
class Measure {
  private readonly shaped = new Map<StampField, Map<string, ShapedLine>>();
  private readonly words = new Map<StampField, { words: Word[]; gaps: number[] }>();

  /** The line from `start` to `end` as it is drawn. */
  line(field: StampField, start: number, end: number, cut = false): ShapedLine {
    let byRange = this.shaped.get(field);
    if (byRange === undefined) {
      byRange = new Map();
      this.shaped.set(field, byRange);
    }
    const key = `${start}:${end}:${cut}`;
    let shaped = byRange.get(key);
    if (shaped === undefined) {
      shaped = shapeLine(lineText(field, start, end, cut), field.direction);
      byRange.set(key, shaped);
    }
    return shaped;
  }

  /** The field's words, split at spaces, and the width of the spaces before each. */
  wordsOf(field: StampField): { words: Word[]; gaps: number[] } {
    let found = this.words.get(field);
    if (found === undefined) {
      const text = field.text.text;
      const words = [...text.matchAll(/[^ ]+/g)].map((match) => {
        const start = match.index;
        const end = start + match[0].length;
        return { start, end, width: this.line(field, start, end).width };
      });
      const gaps = words.map((word, index) => {
        const before = words[index - 1];
        return before === undefined ? 0 : this.line(field, before.end, word.start).width;
      });
      found = { words, gaps };
      this.words.set(field, found);
    }
    return found;
  }
}

// A line cut short ends in an ellipsis; after right-to-left text a right-to-left mark keeps the
// ellipsis at that text's end (its left), where the reader finds the cut.
const RLM: FacedText = { text: '\u200f', faces: [null] };

function lineText(field: StampField, start: number, end: number, cut: boolean): FacedText {
  const kept = sliceFaced(field.text, start, end);
  if (!cut) return kept;
  return endsRightToLeft(kept.text) ? joinFaced(kept, field.ellipsis, RLM) : joinFaced(kept, field.ellipsis);
}

const sizeOf = (isBold: boolean, size: number): number =>
  isBold ? Math.round(size * NAME_SCALE * 100) / 100 : size;

/** Greedy wrap at spaces; a word longer than a whole line is broken between characters. */
function wrapField(measure: Measure, field: StampField, size: number, width: number): [number, number][] {
  const limit = width / size;
  const { words, gaps } = measure.wordsOf(field);
  const lines: [number, number][] = [];
  let line: [number, number] | null = null;
  let lineWidth = 0;
  words.forEach((word, index) => {
    const gap = gaps[index] ?? 0;
    if (line !== null && lineWidth + gap + word.width <= limit) {
      line[1] = word.end;
      lineWidth += gap + word.width;
      return;
    }
    if (word.width <= limit) {
      if (line !== null) lines.push(line);
      line = [word.start, word.end];
      lineWidth = word.width;
      return;
    }
    // Too wide for any line: it starts on the current one and goes on over as many as it takes.
    let pieceStart = word.start;
    let before = line === null ? null : lineWidth + gap;
    for (const char of field.text.text.slice(word.start, word.end).matchAll(/./gsu)) {
      const charEnd = word.start + char.index + char[0].length;
      const charStart = charEnd - char[0].length;
      const piece = measure.line(field, pieceStart, charEnd).width;
      if (line === null || before === null) {
        line = [pieceStart, charEnd];
        before = 0;
        lineWidth = piece;
      } else if (before + piece <= limit) {
        line[1] = charEnd;
        lineWidth = before + piece;
      } else {
        lines.push(line);
        pieceStart = charStart;
        line = [charStart, charEnd];
        before = 0;
        lineWidth = measure.line(field, charStart, charEnd).width;
      }
    }
  });
  if (line !== null) lines.push(line);
  if (lines.length === 0) lines.push([0, 0]);
  return lines;
}

/** The first `count` lines of a wrapped field, the last one cut short with an ellipsis when text is left over. */
function cutField(
  measure: Measure,
  field: StampField,
  wrapped: readonly [number, number][],
  count: number,
  size: number,
  width: number,
): { start: number; end: number; cut: boolean }[] {
  const whole = wrapped.map(([start, end]) => ({ start, end, cut: false }));
  if (wrapped.length <= count) return whole;
  const start = wrapped[count - 1]?.[0] ?? 0;
  const text = field.text.text;
  // Where the kept text may end: after a character, with no space before the ellipsis.
  const ends = [...text.slice(start).matchAll(/./gsu)]
    .map((char) => start + char.index + char[0].length)
    .filter((end) => text[end - 1] !== ' ');
  const fits = (end: number) => measure.line(field, start, end, true).width * size <= width;
  let low = 0;
  let high = ends.length - 1;
  let best = start;
  // The widest prefix that fits with its ellipsis; a width can shrink by a character (a joined
  // Arabic form), so what the search finds is checked and walked back if need be.
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    const end = ends[middle] ?? start;
    if (fits(end)) {
      best = end;
      low = middle + 1;
    } else high = middle - 1;
  }
  while (best > start && !fits(best)) best = ends.filter((end) => end < best).at(-1) ?? start;
  return [...whole.slice(0, count - 1), { start, end: best, cut: true }];
}

type LineMetrics = { ascent: number; descent: number };

/** From the first line's top (its ascender) to the last line's descender, at these sizes. */
function blockHeight(lines: readonly { size: number }[], metrics: LineMetrics): number {
  const first = lines[0];
  const last = lines.at(-1);
  if (first === undefined || last === undefined) return 0;
  const steps = lines.slice(1).reduce((total, line) => total + LINE_SPACING * line.size, 0);
  return metrics.ascent * first.size + steps + metrics.descent * last.size;
}

function linesAt(
  measure: Measure,
  fields: readonly StampField[],
  counts: readonly number[] | null,
  size: number,
  width: number,
): LineRange[] {
  return fields.flatMap((field, index) => {
    const lineSize = sizeOf(field.isBold, size);
    const wrapped = wrapField(measure, field, lineSize, width);
    const count = counts?.[index];
    const ranges =
      count === undefined
        ? wrapped.map(([start, end]) => ({ start, end, cut: false }))
        : cutField(measure, field, wrapped, count, lineSize, width);
    return ranges.map((range) => ({ ...range, field, size: lineSize }));
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
  metrics: LineMetrics,
): StampLine[] {
  const measure = new Measure();
  return layoutWith(measure, fields, box, metrics).map((range) => {
    const shaped = measure.line(range.field, range.start, range.end, range.cut);
    const drawnWidth = shaped.width * range.size;
    return {
      ...range,
      text: lineText(range.field, range.start, range.end, range.cut),
      shaped,
      // A line whose words shaped together came out wider than apart is narrowed to the box.
      squeeze: drawnWidth > box.width ? box.width / drawnWidth : 1,
    };
  });
}

function layoutWith(
  measure: Measure,
  fields: readonly StampField[],
  box: { width: number; height: number; maxSize: number },
  metrics: LineMetrics,
): LineRange[] {
  const { width, height } = box;
  const fits = (lines: readonly LineRange[]) => blockHeight(lines, metrics) <= height;
  // The size at which one line a field exactly fills the height: nothing can be larger, and the
  // minimum is never above it.
  const oneLineEach = fields.map((field) => ({ size: sizeOf(field.isBold, 1) }));
  const largest = Math.min(box.maxSize, height / blockHeight(oneLineEach, metrics));
  const smallest = Math.min(largest, STAMP_MIN_TEXT_SIZE);
  // The sizes from the largest down in steps of 0.1 pt, searched by halves for the first whose lines
  // fit: a smaller size never needs more lines (each holds more), so once one fits all smaller ones do.
  const sizeAt = (step: number) => Math.round((largest - step * SIZE_STEP) * 100) / 100;
  let low = 0;
  let high = Math.max(0, Math.ceil((largest - smallest) / SIZE_STEP) - 1);
  let found: LineRange[] | null = null;
  while (low <= high) {
    const step = Math.floor((low + high) / 2);
    if (sizeAt(step) <= smallest) {
      high = step - 1;
      continue;
    }
    const lines = linesAt(measure, fields, null, sizeAt(step), width);
    if (fits(lines)) {
      found = lines;
      high = step - 1;
    } else low = step + 1;
  }
  if (found !== null) return found;
  const whole = linesAt(measure, fields, null, smallest, width);
  if (fits(whole)) return whole;

  const needed = fields.map(
    (field) => wrapField(measure, field, sizeOf(field.isBold, smallest), width).length,
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
      if (!fits(linesAt(measure, fields, tried, smallest, width))) continue;
      counts[index] = tried[index] ?? 1;
      added = true;
    }
  }
  return linesAt(measure, fields, counts, smallest, width);
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;

/**
 * A shaped line as text-showing operators, starting where the text position is: each run in its font,
 * its glyphs in one TJ whose numbers move the pen where the layout placed it (kerning, a mark over its
 * letter), a glyph raised or lowered (an Arabic mark) by its own text rise.
 */
function showLine(
  context: PDFContext,
  fonts: DocumentFonts,
  shaped: ShapedLine,
  size: number,
): PDFOperator[] {
  const operators: PDFOperator[] = [];
  for (const run of shaped.runs) {
    operators.push(setFontAndSize(fonts.resourceName(run.face), size));
    const codes = fonts.encode(run);
    let items: (PDFHexString | number)[] = [];
    const adjust = (em: number) => {
      // A TJ number moves the pen left by thousandths of the size: a move right is negative.
      const value = round3(-em * 1000);
      if (value === 0) return;
      const last = items.at(-1);
      if (typeof last === 'number') items[items.length - 1] = round3(last + value);
      else items.push(value);
    };
    const flush = () => {
      if (items.length > 0) {
        operators.push(PDFOperator.of(PDFOperatorNames.ShowTextAdjusted, [context.obj(items)]));
      }
      items = [];
    };
    run.glyphs.forEach((glyph, index) => {
      const code = codes[index];
      if (code === undefined) return;
      const raised = glyph.yOffset !== 0;
      if (raised) {
        flush();
        operators.push(setTextRise(round3(glyph.yOffset * size)));
      }
      adjust(glyph.xOffset);
      items.push(code);
      adjust(glyph.advance - glyph.xOffset - glyph.fontAdvance);
      if (raised) {
        flush();
        operators.push(setTextRise(0));
      }
    });
    flush();
  }
  return operators;
}

function stampOperators(
  context: PDFContext,
  fonts: DocumentFonts,
  box: { width: number; height: number },
  lines: readonly StampLine[],
  padding: number,
  metrics: LineMetrics,
): PDFOperator[] {
  const { width, height } = box;
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
    const squeezed = line.squeeze < 1;
    operators.push(
      index === 0
        ? moveText(padding, height - padding - metrics.ascent * line.size)
        : moveText(0, -LINE_SPACING * line.size),
      ...(squeezed ? [setCharacterSqueeze(Math.floor(line.squeeze * 10000) / 100)] : []),
      ...showLine(context, fonts, line.shaped, line.size),
      ...(squeezed ? [setCharacterSqueeze(100)] : []),
    );
  });
  operators.push(endText(), popGraphicsState());
  return operators;
}

/** What the stamp draws: each line's text and its width, against the box's inner width. */
export type StampLayout = {
  box: { width: number; height: number };
  padding: number;
  lines: { text: string; size: number; width: number }[];
};

// Control characters become spaces and runs of spaces one (a no-break space stays: French puts one
// before its colon).
const oneLine = (text: string) =>
  [...text]
    .map((char) => (isLineControl(char.codePointAt(0) ?? 0) ? ' ' : char))
    .join('')
    .replace(/ +/g, ' ')
    .trim();

async function stampFields(request: SignatureRequest): Promise<StampField[]> {
  const texts = stampTexts(request.locale, request.signedAt, request.smartCardType);
  const [regularEllipsis, boldEllipsis] = await Promise.all([
    faceText(ELLIPSIS, 'regular'),
    faceText(ELLIPSIS, 'bold'),
  ]);
  const field = async (
    text: string,
    options: { isBold?: boolean; direction?: 'ltr' | 'auto'; cutRank?: number } = {},
  ): Promise<StampField> => {
    const isBold = options.isBold ?? false;
    return {
      text: await faceText(oneLine(text), isBold ? 'bold' : 'regular'),
      isBold,
      direction: options.direction ?? 'ltr',
      ...(options.cutRank === undefined ? {} : { cutRank: options.cutRank }),
      ellipsis: isBold ? boldEllipsis : regularEllipsis,
    };
  };
  // Short of room, the name keeps the most, then the reason (the signer's own words), then the location.
  return Promise.all([
    field(request.signer.fullName, { isBold: true, direction: 'auto', cutRank: 0 }),
    field(texts.date),
    field(texts.location(oneLine(request.location)), { cutRank: 2 }),
    ...(oneLine(request.reason) === '' ? [] : [field(texts.reason(oneLine(request.reason)), { cutRank: 1 })]),
    field(texts.level),
  ]);
}

type LaidOut = { lines: StampLine[]; padding: number; metrics: LineMetrics };

async function layOut(request: SignatureRequest, box: { width: number; height: number }): Promise<LaidOut> {
  const fields = await stampFields(request);
  const metrics = faceMetrics(await primaryFace('regular'));
  // Choosing fonts and laying out are each a stretch of synchronous work: others' turn in between.
  await yieldToEventLoop();
  // The padding also holds what a glyph draws past the font's ascender and descender: an Arabic tail
  // goes about a fifth of the size below Noto Sans's descender, under the padding at any size.
  const padding = Math.min(box.width, box.height) * 0.08;
  const inner = { width: box.width - 2 * padding, height: box.height - 2 * padding };
  // At most as large as the widest fixed line (the date) allows on one line.
  const date = fields[1];
  const dateWidth = date === undefined ? 1 : shapeLine(date.text, 'ltr').width;
  const maxSize = Math.min(box.height * 0.16, (0.97 * inner.width) / Math.max(dateWidth, 1e-6));
  return { lines: layoutStampText(fields, { ...inner, maxSize }, metrics), padding, metrics };
}

/** What the stamp of this request draws in a box of this size (points): each line, its size and width. */
export async function stampLayout(
  request: SignatureRequest,
  box: { width: number; height: number },
): Promise<StampLayout> {
  const { lines, padding } = await layOut(request, box);
  return {
    box,
    padding,
    lines: lines.map((line) => ({
      text: line.text.text,
      size: line.size,
      width: line.shaped.width * line.size * line.squeeze,
    })),
  };
}

// ------------------------------------------------------------------ where the box goes

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

const isSaneSheet = ({ width, height }: { width: number; height: number }): boolean => {
  const { minSide, maxSide, maxAspect } = SIGNATURE_PAGE_BOUNDS;
  const short = Math.min(width, height);
  const long = Math.max(width, height);
  return short >= minSide && long <= maxSide && long <= short * maxAspect;
};

/** The size of a new signature page (see SIGNATURE_PAGE_BOUNDS). */
export function signaturePageSize(doc: PDFDocument): { width: number; height: number } {
  return doc.getPages().map(displaySize).find(isSaneSheet) ?? A4;
}

type PageText = { text: FacedText; size: number; x: number; y: number; gray: number };

async function addSignaturePage(
  doc: PDFDocument,
  index: number,
  request: SignatureRequest,
  fonts: DocumentFonts,
): Promise<PDFPage> {
  const { width, height } = signaturePageSize(doc);
  const page = doc.insertPage(index, [width, height]);
  page.node.set(SIGNATURE_PAGE_MARKER, PDFBool.True);
  const texts = stampTexts(request.locale, request.signedAt, request.smartCardType);
  const size = Math.max(10, width * 0.027);
  const left = gridOf(width, height).lefts[0] ?? width * 0.08;
  const room = width - 2 * left;
  const title = await faceText(texts.pageTitle, 'bold');
  const note = await faceText(texts.pageNote, 'regular');
  const lines: PageText[] = [
    { text: title, size, x: left, y: height - GRID.topFractionOfHeight * height * 0.55, gray: 0.1 },
    {
      text: note,
      size: size * 0.55,
      x: left,
      y: height - GRID.topFractionOfHeight * height * 0.55 - size * 1.5,
      gray: 0.35,
    },
  ];
  const operators: PDFOperator[] = [pushGraphicsState()];
  for (const line of lines) {
    const shaped = shapeLine(line.text, 'ltr');
    // A longer sentence in another language shrinks to the grid's width rather than run off the page.
    const lineSize = Math.min(line.size, room / Math.max(shaped.width, 1e-6));
    operators.push(
      setFillingRgbColor(line.gray, line.gray, line.gray),
      beginText(),
      moveText(line.x, line.y),
      ...showLine(doc.context, fonts, shaped, lineSize),
      endText(),
    );
  }
  operators.push(popGraphicsState());
  page.pushOperators(...operators);
  return page;
}

/**
 * The signature page's box for the next signer. Signature pages are found by their marker; the slot is
 * the number of signatures already on them, so a page holds as many as its grid does (2 × 5 on a portrait
 * page) and the next one starts a further signature page right after the last.
 */
async function signaturePageSlot(
  doc: PDFDocument,
  request: SignatureRequest,
  signPageNumber: number,
  fonts: DocumentFonts,
): Promise<{ page: PDFPage; box: DisplayBox; added: boolean }> {
  const pages = doc.getPages();
  const signaturePages = pages
    .map((page, index) => ({ page, index }))
    .filter(({ page }) => isSignaturePage(page));
  for (const { page } of signaturePages) {
    const { width, height } = displaySize(page);
    const grid = gridOf(width, height);
    const used = countSignatureWidgets(page);
    if (used < grid.columns * grid.rows) return { page, box: gridBox(grid, used, width), added: false };
  }
  let insertAt: number;
  const last = signaturePages.at(-1);
  if (last) insertAt = last.index + 1;
  else if (!Number.isInteger(signPageNumber) || signPageNumber < 0 || signPageNumber > pages.length + 1) {
    throw new PresignError(
      `Signature page ${signPageNumber} is past the end of a ${pages.length}-page document.`,
    );
  } else insertAt = signPageNumber === 0 ? pages.length : signPageNumber - 1;
  const page = await addSignaturePage(doc, insertAt, request, fonts);
  const { width, height } = displaySize(page);
  return { page, box: gridBox(gridOf(width, height), 0, width), added: true };
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

const points = (value: number) => Math.round(value * 10) / 10;

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
  const scale = Math.max(width, MIN_STAMP_PAGE_WIDTH);
  const boxWidth = STAMP_BOX.width * scale;
  const boxHeight = STAMP_BOX.height * scale;
  if (boxWidth > width || boxHeight > height) {
    throw new PresignError(
      `Page ${pageNumber} (${points(width)} × ${points(height)} pt) is too small to hold a legible ` +
        `signature (${points(boxWidth)} × ${points(boxHeight)} pt): sign on a signature page instead.`,
    );
  }
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

// ------------------------------------------------------------------ visible in every viewer

/**
 * A form whose /NeedAppearances is true asks the reader to redraw every field's appearance. Poppler
 * (Evince, Okular, pdftoppm) then redraws a signature field with nothing in it, so the stamp vanished;
 * Acrobat may redraw and want to save, which breaks the signatures (PDF 2.0 deprecates the flag). So the
 * flag goes, after every other field without an appearance gets one (pdf-lib draws it in Helvetica, as
 * a reader would with the form's default). A field it cannot draw (text Helvetica lacks, a form pdf-lib
 * cannot read) keeps the flag: its value stays visible where readers honour it, which matters more than
 * our stamp in poppler.
 */
async function settleFieldAppearances(doc: PDFDocument): Promise<void> {
  const acroForm = doc.catalog.lookup(PDFName.of('AcroForm'));
  if (!(acroForm instanceof PDFDict)) return;
  if (acroForm.lookup(PDFName.of('NeedAppearances')) !== PDFBool.True) return;
  // pdf-lib drops an XFA form when it reads the fields: such a form is left as it is.
  if (acroForm.has(PDFName.of('XFA'))) return;
  try {
    const form = doc.getForm();
    const pending = form.getFields().filter((field) => !(field instanceof PDFSignature));
    const needing = pending.filter((field) => field.needsAppearancesUpdate());
    if (needing.length > 0) {
      const helvetica = await doc.embedFont(StandardFonts.Helvetica);
      for (const field of needing) field.defaultUpdateAppearances(helvetica);
    }
  } catch {
    return;
  }
  acroForm.delete(PDFName.of('NeedAppearances'));
}

// ------------------------------------------------------------------ the stamp

/** Finds or makes the stamp's place and draws its appearance; the caller attaches it to a widget. */
export async function placeStamp(doc: PDFDocument, request: SignatureRequest): Promise<StampResult> {
  const { placement } = request;
  const fonts = new DocumentFonts();
  const { page, box, added } =
    placement.kind === 'inline'
      ? { ...inlineBox(doc, placement.pageNumber, placement.top, placement.left), added: false }
      : await signaturePageSlot(doc, request, placement.signPageNumber, fonts);

  const [x1, y1] = toUserSpace(page, box.left, box.top);
  const [x2, y2] = toUserSpace(page, box.left + box.width, box.top + box.height);
  const rect: StampResult['rect'] = [Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2)];

  const { lines, padding, metrics } = await layOut(request, box);
  const context = doc.context;
  await yieldToEventLoop();
  const operators = stampOperators(context, fonts, box, lines, padding, metrics);
  const refs = await fonts.embed(context);
  const fontResources = Object.fromEntries(refs);
  // A new signature page's heading is drawn with the same fonts.
  if (added) for (const [name, ref] of refs) page.node.setFontDictionary(PDFName.of(name), ref);
  const appearance = context.register(
    context.formXObject(operators, {
      BBox: [0, 0, box.width, box.height],
      Matrix: appearanceMatrix(page),
      Resources: { Font: fontResources },
    }),
  );
  await settleFieldAppearances(doc);
  return { page, rect, appearance };
}
