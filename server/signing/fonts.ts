// The fonts the stamp draws with, so that a name prints in the script it is written in. Noto Sans (Latin,
// Greek, Cyrillic) comes first; what it lacks falls back, in this order, to Noto Sans Arabic, Hebrew, KR
// (Hangul) and SC (Han, kana, CJK punctuation), chosen per character by what each font's cmap covers. The
// fonts come from registry packages (@expo-google-fonts/*); one is read the first time a text needs it and
// then kept for the life of the process: Noto Sans SC is 10 MB a weight, so it is not read for a stamp
// that has no CJK in it. Each document gets a subset of each font it uses, embedded once.
//
// Arabic and Hebrew go through fontkit's OpenType layout (Arabic joining forms, mark positioning) and are
// put in visual order with the Unicode bidirectional algorithm (bidi-js). The other scripts need neither
// once the text is composed (NFC), so they skip layout: Noto Sans's GSUB and GPOS alone take some 200 ms
// to parse, on the event loop.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { deflateSync } from 'node:zlib';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import bidiFactory from 'bidi-js';
import { PDFHexString, PDFString, type PDFContext, type PDFRef } from 'pdf-lib';
import { readTables, subsetTrueType, type TrueTypeTables } from './font-subset.ts';

export type FontWeight = 'regular' | 'bold';

// What of fontkit this module uses; its type declarations leave out the metrics and layout's direction.
type FontkitGlyph = { id: number; advanceWidth: number; codePoints: number[] };
type FontkitPosition = { xAdvance: number; xOffset: number; yOffset: number };
type FontkitFont = {
  postscriptName: string | null;
  unitsPerEm: number;
  ascent: number;
  descent: number;
  capHeight: number;
  italicAngle: number;
  bbox: { minX: number; minY: number; maxX: number; maxY: number };
  hasGlyphForCodePoint(codePoint: number): boolean;
  glyphForCodePoint(codePoint: number): FontkitGlyph;
  layout(
    text: string,
    features: undefined,
    script: undefined,
    language: undefined,
    direction: 'ltr' | 'rtl',
  ): { glyphs: FontkitGlyph[]; positions: FontkitPosition[] };
};

type Range = readonly [number, number];

type Family = {
  name: string;
  files: Record<FontWeight, string>;
  /** The blocks this family is read for: a font is loaded only for a character in them. */
  ranges: readonly Range[];
  /** Needs OpenType layout (joining, marks); the others map characters to glyphs one to one. */
  shaping: boolean;
};

const PRIMARY: Family = {
  name: 'NotoSans',
  files: {
    regular: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
    bold: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
  },
  ranges: [[0, 0x10ffff]],
  shaping: false,
};

const FALLBACKS: readonly Family[] = [
  {
    name: 'NotoSansArabic',
    files: {
      regular: '@expo-google-fonts/noto-sans-arabic/400Regular/NotoSansArabic_400Regular.ttf',
      bold: '@expo-google-fonts/noto-sans-arabic/700Bold/NotoSansArabic_700Bold.ttf',
    },
    ranges: [
      [0x0600, 0x06ff],
      [0x0750, 0x077f],
      [0x0870, 0x08ff],
      [0xfb50, 0xfdff],
      [0xfe70, 0xfefe],
    ],
    shaping: true,
  },
  {
    name: 'NotoSansHebrew',
    files: {
      regular: '@expo-google-fonts/noto-sans-hebrew/400Regular/NotoSansHebrew_400Regular.ttf',
      bold: '@expo-google-fonts/noto-sans-hebrew/700Bold/NotoSansHebrew_700Bold.ttf',
    },
    ranges: [
      [0x0590, 0x05ff],
      [0xfb1d, 0xfb4f],
    ],
    shaping: true,
  },
  {
    // Before SC, which has no Hangul.
    name: 'NotoSansKR',
    files: {
      regular: '@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf',
      bold: '@expo-google-fonts/noto-sans-kr/700Bold/NotoSansKR_700Bold.ttf',
    },
    ranges: [
      [0x1100, 0x11ff],
      [0x3130, 0x318f],
      [0xa960, 0xa97f],
      [0xac00, 0xd7ff],
      [0xffa0, 0xffdc],
    ],
    shaping: false,
  },
  {
    name: 'NotoSansSC',
    files: {
      regular: '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
      bold: '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf',
    },
    ranges: [
      [0x2e80, 0x2fff],
      [0x3000, 0x312f],
      [0x3190, 0x9fff],
      [0xf900, 0xfaff],
      [0xfe30, 0xfe4f],
      [0xff00, 0xffef],
      [0x20000, 0x3ffff],
    ],
    shaping: false,
  },
];

/** A font of the process's cache: one family in one weight. */
export type Face = {
  readonly key: string;
  readonly family: string;
  readonly weight: FontWeight;
  readonly shaping: boolean;
  readonly font: FontkitFont;
  /** The file's tables, which the subsets are cut from. */
  readonly tables: TrueTypeTables;
  readonly unitsPerEm: number;
};

const require = createRequire(import.meta.url);
const loaded = new Map<string, Promise<Face | null>>();

/**
 * Each font file read: how many times (once a process, unless a read failed), how long the read took
 * (off the event loop) and how long the parse (on it), in ms.
 */
export const fontLoadTimings = new Map<string, { reads: number; readMs: number; parseMs: number }>();

/** Lets timers and I/O that waited run before the next synchronous stretch. */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

async function readFace(family: Family, weight: FontWeight): Promise<Face | null> {
  const key = `${family.name}-${weight}`;
  let file: string;
  try {
    file = require.resolve(family.files[weight]);
  } catch (error) {
    // A fallback whose package is not installed draws nothing: its characters show as U+FFFD.
    if (family === PRIMARY) throw error;
    return null;
  }
  const started = performance.now();
  const bytes = await readFile(file);
  const read = performance.now();
  // An ArrayBuffer, not a Buffer: fontkit copies a typed array byte by byte in JavaScript (70 ms for
  // 10 MB) and wraps an ArrayBuffer as it is. A file this large has a buffer of its own.
  const data =
    bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
      ? bytes.buffer
      : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  await yieldToEventLoop();
  const parseStarted = performance.now();
  const font = fontkit.create(data as unknown as Uint8Array) as unknown as FontkitFont;
  // The first lookup parses the cmap and the first layout the GSUB and GPOS tables: done here, once,
  // rather than in the middle of a stamp.
  font.hasGlyphForCodePoint(0x20);
  if (family.shaping) font.layout(' ', undefined, undefined, undefined, 'ltr');
  fontLoadTimings.set(key, {
    reads: (fontLoadTimings.get(key)?.reads ?? 0) + 1,
    readMs: read - started,
    parseMs: performance.now() - parseStarted,
  });
  await yieldToEventLoop();
  return {
    key,
    family: family.name,
    weight,
    shaping: family.shaping,
    font,
    tables: readTables(new Uint8Array(data)),
    unitsPerEm: font.unitsPerEm,
  };
}

function loadFace(family: Family, weight: FontWeight): Promise<Face | null> {
  const key = `${family.name}-${weight}`;
  let face = loaded.get(key);
  if (face === undefined) {
    face = readFace(family, weight);
    // A failed read is tried again by the next stamp rather than remembered.
    face.catch(() => loaded.delete(key));
    loaded.set(key, face);
  }
  return face;
}

/** The font everything starts from (and the one that draws U+FFFD for what no font has). */
export async function primaryFace(weight: FontWeight): Promise<Face> {
  const face = await loadFace(PRIMARY, weight);
  if (face === null) throw new Error('Noto Sans is not installed');
  return face;
}

const covers = (face: Face | null | undefined, codePoint: number): face is Face =>
  face !== null && face !== undefined && face.font.hasGlyphForCodePoint(codePoint);

const inRanges = (ranges: readonly Range[], codePoint: number) =>
  ranges.some(([from, to]) => codePoint >= from && codePoint <= to);

/**
 * Text with the face that draws each of its UTF-16 code units (both halves of a surrogate pair share
 * one); null for a character that is not drawn (bidi controls, zero-width joiners, soft hyphens).
 */
export type FacedText = { readonly text: string; readonly faces: readonly (Face | null)[] };

// Directional formatting, zero-width spaces and joiners, the soft hyphen and the BOM: they steer the bidi
// algorithm (which sees them) but draw nothing. A run of text is cut where one stands, so a zero-width
// non-joiner still keeps two Arabic letters apart.
const INVISIBLE = /^[\u00ad\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]$/u;
// Spaces, digits, punctuation and combining marks belong to no one script: they take a neighbour's font.
const SHARED = /^[\p{Script=Common}\p{Script=Inherited}]$/u;
const REPLACEMENT = '\ufffd';

/** A control character (C0, C1) or a line or paragraph separator: drawn as a space. */
export const isLineControl = (code: number): boolean =>
  code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;

/**
 * Composes the text (NFC: an accent typed as a combining mark becomes the precomposed letter), turns
 * control characters into spaces, and picks each character's font, loading the fonts it needs. A
 * character no font has becomes U+FFFD.
 */
export async function faceText(raw: string, weight: FontWeight): Promise<FacedText> {
  const chars = [...raw.normalize('NFC')].map((char) =>
    isLineControl(char.codePointAt(0) ?? 0) ? ' ' : char,
  );
  const codes = chars.map((char) => char.codePointAt(0) ?? 0);
  const primary = await primaryFace(weight);
  // The fallbacks some character of this text may need, read (once a process) before any is chosen.
  const missing = codes.filter((code) => !covers(primary, code));
  const wanted = FALLBACKS.filter((family) => missing.some((code) => inRanges(family.ranges, code)));
  const fallbacks = await Promise.all(
    wanted.map(async (family) => ({ family, face: await loadFace(family, weight) })),
  );
  const pick = (code: number): Face | null => {
    if (covers(primary, code)) return primary;
    const found = fallbacks.find(({ family, face }) => inRanges(family.ranges, code) && covers(face, code));
    return found?.face ?? null;
  };
  // undefined: shared, decided below; null: not drawn, or in no font.
  const faces: (Face | null | undefined)[] = chars.map((char, index) =>
    INVISIBLE.test(char) ? null : SHARED.test(char) ? undefined : pick(codes[index] ?? 0),
  );
  // Shared characters: the font of the character before if it has them, else of the next one that has a
  // script, so that a run of one script stays in one font.
  const next: (Face | null)[] = [];
  let following: Face | null = null;
  for (let index = chars.length - 1; index >= 0; index -= 1) {
    next[index] = following;
    following = faces[index] ?? following;
  }
  let previous: Face | null = null;
  chars.forEach((_, index) => {
    const code = codes[index] ?? 0;
    if (faces[index] === undefined) {
      const after = next[index];
      faces[index] = covers(previous, code) ? previous : covers(after, code) ? after : pick(code);
    }
    previous = faces[index] ?? previous;
  });
  let text = '';
  const unitFaces: (Face | null)[] = [];
  chars.forEach((char, index) => {
    // Missing from every font: the replacement character, drawn by Noto Sans.
    const face = faces[index] ?? null;
    const shown = face === null && !INVISIBLE.test(char) ? REPLACEMENT : char;
    const shownFace = shown === REPLACEMENT ? primary : face;
    text += shown;
    for (let unit = 0; unit < shown.length; unit += 1) unitFaces.push(shownFace);
  });
  return { text, faces: unitFaces };
}

export function sliceFaced(source: FacedText, start: number, end: number): FacedText {
  return { text: source.text.slice(start, end), faces: source.faces.slice(start, end) };
}

export function joinFaced(...parts: readonly FacedText[]): FacedText {
  return { text: parts.map((part) => part.text).join(''), faces: parts.flatMap((part) => part.faces) };
}

/** One glyph placed on a line, in em (fractions of the font size). */
export type PlacedGlyph = {
  id: number;
  codePoints: readonly number[];
  /** How far the pen moves after it. */
  advance: number;
  /** What the font's own metrics advance (the PDF's /W), which `advance` may differ from. */
  fontAdvance: number;
  xOffset: number;
  yOffset: number;
};

export type ShapedRun = {
  readonly face: Face;
  readonly glyphs: readonly PlacedGlyph[];
  readonly width: number;
};
/** A line in visual order, left to right. */
export type ShapedLine = { runs: ShapedRun[]; width: number };

const bidi = bidiFactory();

// Shaped runs of the process, by font, direction and text: a signer's name, a city and the labels come
// back stamp after stamp, and fontkit's OpenType layout takes about a third of a millisecond an Arabic
// word. Oldest out first past this many.
const SHAPED_RUNS_KEPT = 4096;
const shapedRuns = new Map<string, ShapedRun>();

function shapeRun(face: Face, text: string, rightToLeft: boolean): ShapedRun {
  const key = `${face.key}|${rightToLeft ? 'rtl' : 'ltr'}|${text}`;
  const kept = shapedRuns.get(key);
  if (kept !== undefined) return kept;
  const run = shapeRunNow(face, text, rightToLeft);
  if (shapedRuns.size >= SHAPED_RUNS_KEPT) {
    const oldest = shapedRuns.keys().next();
    if (oldest.done !== true) shapedRuns.delete(oldest.value);
  }
  shapedRuns.set(key, run);
  return run;
}

function shapeRunNow(face: Face, text: string, rightToLeft: boolean): ShapedRun {
  const scale = 1 / face.unitsPerEm;
  const { font } = face;
  let glyphs: PlacedGlyph[];
  if (face.shaping) {
    const run = font.layout(text, undefined, undefined, undefined, rightToLeft ? 'rtl' : 'ltr');
    // fontkit keeps one glyph object per glyph id with the characters it was first met for, which may be
    // none (a mark split off by the font): a glyph that is some character's own is mapped back to it.
    const nominal = new Map(
      [...text].map((char) => [font.glyphForCodePoint(char.codePointAt(0) ?? 0).id, char]),
    );
    glyphs = run.glyphs.map((glyph, index) => {
      const position = run.positions[index] ?? { xAdvance: glyph.advanceWidth, xOffset: 0, yOffset: 0 };
      const own = nominal.get(glyph.id)?.codePointAt(0);
      return {
        id: glyph.id,
        codePoints: glyph.codePoints.length > 0 ? glyph.codePoints : own === undefined ? [] : [own],
        advance: position.xAdvance * scale,
        fontAdvance: glyph.advanceWidth * scale,
        xOffset: position.xOffset * scale,
        yOffset: position.yOffset * scale,
      };
    });
  } else {
    // One glyph a character, reversed for a right-to-left run (only neutrals reach here with one).
    glyphs = [...text].map((char) => {
      const codePoint = char.codePointAt(0) ?? 0;
      const glyph = font.glyphForCodePoint(codePoint);
      return {
        id: glyph.id,
        codePoints: [codePoint],
        advance: glyph.advanceWidth * scale,
        fontAdvance: glyph.advanceWidth * scale,
        xOffset: 0,
        yOffset: 0,
      };
    });
    if (rightToLeft) glyphs.reverse();
  }
  return { face, glyphs, width: glyphs.reduce((total, glyph) => total + glyph.advance, 0) };
}

// What can make a line anything but left to right: right-to-left scripts and the bidi controls.
const RIGHT_TO_LEFT =
  /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe\u200e\u200f\u202a-\u202e\u2066-\u2069]|[\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;

/** A line with nothing right to left in it: its runs in logical order. */
function shapeLeftToRight({ text, faces }: FacedText): ShapedLine {
  const runs: ShapedRun[] = [];
  let start = 0;
  while (start < text.length) {
    const face = faces[start] ?? null;
    let end = start + 1;
    while (end < text.length && (faces[end] ?? null) === face) end += 1;
    if (face !== null) runs.push(shapeRun(face, text.slice(start, end), false));
    start = end;
  }
  return { runs, width: runs.reduce((total, run) => total + run.width, 0) };
}

/**
 * Lays out one line: the bidi levels of its characters (the paragraph direction given, or that of its
 * first strong character), the visual order of the runs, mirrored brackets in right-to-left runs, and
 * each run of one font and one direction shaped by its font.
 */
export function shapeLine(line: FacedText, direction: 'ltr' | 'rtl' | 'auto'): ShapedLine {
  const { text, faces } = line;
  if (text === '') return { runs: [], width: 0 };
  if (direction !== 'rtl' && !RIGHT_TO_LEFT.test(text)) return shapeLeftToRight(line);
  const embedding = bidi.getEmbeddingLevels(text, direction === 'auto' ? undefined : direction);
  const order = bidi.getReorderedIndices(text, embedding);
  const mirrored = bidi.getMirroredCharactersMap(text, embedding.levels);
  type Span = { face: Face; rightToLeft: boolean; low: number; high: number };
  const spans: Span[] = [];
  let span: Span | null = null;
  for (const index of order) {
    const face = faces[index] ?? null;
    if (face === null) {
      span = null;
      continue;
    }
    const rightToLeft = ((embedding.levels[index] ?? 0) & 1) === 1;
    const continues =
      span !== null &&
      span.face === face &&
      span.rightToLeft === rightToLeft &&
      index === (rightToLeft ? span.low - 1 : span.high + 1);
    if (continues && span !== null) {
      if (rightToLeft) span.low = index;
      else span.high = index;
    } else {
      span = { face, rightToLeft, low: index, high: index };
      spans.push(span);
    }
  }
  const runs = spans.map(({ face, rightToLeft, low, high }) => {
    let logical = '';
    for (let index = low; index <= high; index += 1) logical += mirrored.get(index) ?? text[index] ?? '';
    return shapeRun(face, logical, rightToLeft);
  });
  return { runs, width: runs.reduce((total, run) => total + run.width, 0) };
}

/** Whether the text's last character with a direction is right-to-left (Hebrew, Arabic). */
export function endsRightToLeft(text: string): boolean {
  for (const char of [...text].reverse()) {
    const type = bidi.getBidiCharTypeName(char);
    if (type === 'R' || type === 'AL') return true;
    if (type === 'L') return false;
  }
  return false;
}

/** A face's ascender and descender (positive, below the baseline), in em. */
export function faceMetrics(face: Face): { ascent: number; descent: number } {
  return { ascent: face.font.ascent / face.unitsPerEm, descent: -face.font.descent / face.unitsPerEm };
}

type UsedFace = {
  face: Face;
  resourceName: string;
  /** The glyphs drawn, by their id in the font, in the order of their CIDs (1, 2, …). */
  glyphIds: number[];
  /** A glyph and the characters it stands for → its CID. */
  cids: Map<string, number>;
  widths: Map<number, number>;
  unicode: Map<number, readonly number[]>;
};

const hex4 = (value: number) => value.toString(16).padStart(4, '0').toUpperCase();

function utf16Hex(codePoints: readonly number[]): string {
  return [...String.fromCodePoint(...codePoints)]
    .flatMap((char) => Array.from({ length: char.length }, (_, unit) => char.charCodeAt(unit)))
    .map(hex4)
    .join('');
}

function toUnicodeCMap(entries: readonly [number, readonly number[]][]): string {
  const mapped = entries.filter(([, codePoints]) => codePoints.length > 0);
  const blocks: string[] = [];
  // At most 100 entries a bfchar block.
  for (let start = 0; start < mapped.length; start += 100) {
    const block = mapped.slice(start, start + 100);
    blocks.push(
      `${block.length} beginbfchar\n${block
        .map(([cid, codePoints]) => `<${hex4(cid)}> <${utf16Hex(codePoints)}>`)
        .join('\n')}\nendbfchar`,
    );
  }
  return [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def',
    '/CMapType 2 def',
    '1 begincodespacerange',
    '<0000> <FFFF>',
    'endcodespacerange',
    ...blocks,
    'endcmap',
    'CMapName currentdict /CMap defineresource pop',
    'end',
    'end',
  ].join('\n');
}

/**
 * The fonts of one document's changes: which glyphs of which faces were drawn, and at the end, one
 * subset font (Type 0, Identity-H, with a ToUnicode map so the text can be copied and searched) per face.
 */
export class DocumentFonts {
  private readonly used = new Map<Face, UsedFace>();
  private embedded: Map<string, PDFRef> | null = null;

  /** The name a content stream's resources give this face. */
  resourceName(face: Face): string {
    return this.use(face).resourceName;
  }

  /** The run's glyphs as the string a Tj or TJ shows: two bytes a glyph, its CID in the subset. */
  encode(run: ShapedRun): PDFHexString[] {
    const used = this.use(run.face);
    return run.glyphs.map((glyph) => {
      // One CID a glyph and text: a glyph two characters share (a CJK radical and its ideograph) gets
      // a CID for each, so that each copies as itself. A glyph that stands for no character (a mark the
      // font split off) shares the CID of its first use.
      const key = `${glyph.id}:${glyph.codePoints.join(',')}`;
      let cid =
        used.cids.get(key) ?? (glyph.codePoints.length === 0 ? used.cids.get(`${glyph.id}:*`) : undefined);
      if (cid === undefined) {
        used.glyphIds.push(glyph.id);
        cid = used.glyphIds.length;
        used.cids.set(key, cid);
        if (!used.cids.has(`${glyph.id}:*`)) used.cids.set(`${glyph.id}:*`, cid);
        used.widths.set(cid, glyph.fontAdvance * 1000);
        used.unicode.set(cid, glyph.codePoints);
      }
      return PDFHexString.of(hex4(cid));
    });
  }

  private use(face: Face): UsedFace {
    if (this.embedded !== null) throw new Error('The fonts are already embedded.');
    let used = this.used.get(face);
    if (used === undefined) {
      used = {
        face,
        resourceName: `F${this.used.size + 1}`,
        glyphIds: [],
        cids: new Map(),
        widths: new Map(),
        unicode: new Map(),
      };
      this.used.set(face, used);
    }
    return used;
  }

  /** Embeds every face used (once), and gives the resource dictionary's font entries. */
  async embed(context: PDFContext): Promise<Map<string, PDFRef>> {
    if (this.embedded !== null) return this.embedded;
    const refs = new Map<string, PDFRef>();
    for (const used of this.used.values()) {
      refs.set(used.resourceName, await embedSubset(context, used));
      await yieldToEventLoop();
    }
    this.embedded = refs;
    return refs;
  }
}

// Six capital letters from the glyphs it holds: the same subset gets the same tag (ISO 32000-1 §9.6.4).
function subsetTag(used: UsedFace): string {
  const digest = createHash('sha256')
    .update(`${used.face.key}:${used.glyphIds.join(',')}`)
    .digest();
  return Array.from(digest.subarray(0, 6), (byte) => String.fromCharCode(65 + (byte % 26))).join('');
}

// Node's zlib rather than pdf-lib's flateStream: pako, in JavaScript, set up a 64 KB window for each
// stream and took some 5 ms a font.
function deflated(context: PDFContext, bytes: Uint8Array, dict: Record<string, number> = {}) {
  return context.stream(deflateSync(bytes), { ...dict, Filter: 'FlateDecode' });
}

async function embedSubset(context: PDFContext, used: UsedFace): Promise<PDFRef> {
  const { face } = used;
  const font = face.font;
  // CID n is glyph n of the subset: the content streams already name glyphs by the CIDs given out.
  const bytes = subsetTrueType(face.tables, used.glyphIds);
  const scale = 1000 / face.unitsPerEm;
  const baseFont = `${subsetTag(used)}+${font.postscriptName ?? face.key}`;
  const fontFile = context.register(deflated(context, bytes, { Length1: bytes.length }));
  const descriptor = context.register(
    context.obj({
      Type: 'FontDescriptor',
      FontName: baseFont,
      // Symbolic: the glyphs are named by CID, not by a standard encoding.
      Flags: 4,
      FontBBox: [font.bbox.minX, font.bbox.minY, font.bbox.maxX, font.bbox.maxY].map((value) =>
        Math.round(value * scale),
      ),
      ItalicAngle: font.italicAngle,
      Ascent: Math.round(font.ascent * scale),
      Descent: Math.round(font.descent * scale),
      CapHeight: Math.round((font.capHeight || font.ascent) * scale),
      StemV: face.weight === 'bold' ? 140 : 80,
      FontFile2: fontFile,
    }),
  );
  const cids = [...used.widths.keys()].sort((a, b) => a - b);
  const widths: (number | number[])[] = [];
  for (const cid of cids) {
    const width = Math.round(used.widths.get(cid) ?? 0);
    const last = widths.at(-1);
    const first = widths.at(-2);
    if (Array.isArray(last) && typeof first === 'number' && first + last.length === cid) last.push(width);
    else widths.push(cid, [width]);
  }
  const cidFont = context.register(
    context.obj({
      Type: 'Font',
      Subtype: 'CIDFontType2',
      BaseFont: baseFont,
      CIDSystemInfo: {
        Registry: PDFString.of('Adobe'),
        Ordering: PDFString.of('Identity'),
        Supplement: 0,
      },
      FontDescriptor: descriptor,
      W: widths,
      CIDToGIDMap: 'Identity',
    }),
  );
  const toUnicode = context.register(
    deflated(
      context,
      Buffer.from(toUnicodeCMap([...used.unicode.entries()].sort(([a], [b]) => a - b)), 'latin1'),
    ),
  );
  return context.register(
    context.obj({
      Type: 'Font',
      Subtype: 'Type0',
      BaseFont: baseFont,
      Encoding: 'Identity-H',
      DescendantFonts: [cidFont],
      ToUnicode: toUnicode,
    }),
  );
}
