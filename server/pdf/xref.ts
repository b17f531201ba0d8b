// The cross-reference chain of a PDF, followed as a viewer follows it: from the last startxref through
// each section's /Prev, classic tables and cross-reference streams alike (a hybrid file's table first,
// then the stream its /XRefStm names), the newest entry of each object number winning. Anything that does
// not read as the structure says is a PdfStructureError: the file is damaged, and a reader would have to
// rebuild the table from the objects themselves.
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRawStream, type PDFContext } from 'pdf-lib';
import { decodeStream, isWhitespace, objectHeaderAt, ObjectReader, PdfStructureError } from './pdf-syntax.ts';

export type XrefEntry =
  | { type: 'free'; gen: number; next: number }
  | { type: 'offset'; gen: number; offset: number }
  | { type: 'compressed'; stream: number; index: number };

export type XrefKind = 'table' | 'stream';

export type XrefChain = {
  /** The value after the file's last "startxref": the /Prev an update appends. */
  startxref: number;
  /** What the newest section is: an update uses the same kind. */
  lastKind: XrefKind;
  /** The entry a reader uses for each object number (offsets already include `shift`). */
  entries: Map<number, XrefEntry>;
  /** Root, Info, ID and Encrypt, each from the newest section that has it. */
  trailer: PDFDict;
  /** One more than the highest object number any section lists or any /Size allows. */
  size: number;
  /**
   * Bytes before "%PDF-" that the file's offsets do not count (junk a transfer put in front): readers
   * add them to every offset. Offsets written into this file must leave them out too.
   */
  shift: number;
};

// A cross-reference stream of a file within the upload limit never inflates to more than this.
const MAX_XREF_STREAM_BYTES = 64 * 1024 * 1024;
const MAX_SECTIONS = 10_000;
const TRAILER_KEYS = ['Root', 'Info', 'ID', 'Encrypt'] as const;

function text(bytes: Uint8Array, start: number, end: number): string {
  const to = Math.min(end, bytes.length);
  const from = Math.min(Math.max(0, start), to);
  return Buffer.from(bytes.buffer, bytes.byteOffset + from, to - from).toString('latin1');
}

function view(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
}

/** The offset of "%PDF-" (readers allow junk before it). */
export function headerOffset(bytes: Uint8Array): number {
  const at = view(bytes).subarray(0, 1024).indexOf('%PDF-');
  return at < 0 ? 0 : at;
}

function lastStartxref(bytes: Uint8Array): number {
  const at = view(bytes).lastIndexOf('startxref');
  if (at < 0) throw new PdfStructureError('The PDF has no startxref');
  const match = /^startxref\s+(\d+)/.exec(text(bytes, at, Math.min(bytes.length, at + 40)));
  if (!match?.[1]) throw new PdfStructureError('The startxref has no offset');
  return Number(match[1]);
}

type Section = { kind: XrefKind; entries: Array<[number, XrefEntry]>; trailer: PDFDict };

function skipWhitespace(bytes: Uint8Array, at: number): number {
  let position = at;
  while (position < bytes.length && isWhitespace(bytes[position])) position += 1;
  return position;
}

function readTable(bytes: Uint8Array, at: number, shift: number, reader: ObjectReader): Section {
  const trailerAt = view(bytes).indexOf('trailer', at);
  if (trailerAt < 0) throw new PdfStructureError(`The table at ${at} has no trailer`);
  const tokens = text(bytes, at + 'xref'.length, trailerAt)
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  const entries: Array<[number, XrefEntry]> = [];
  let index = 0;
  const integer = (token: string | undefined): number => {
    if (token === undefined || !/^\d+$/.test(token)) {
      throw new PdfStructureError(`The table at ${at} has a malformed entry`);
    }
    return Number(token);
  };
  while (index < tokens.length) {
    let first = integer(tokens[index]);
    const count = integer(tokens[index + 1]);
    index += 2;
    for (let n = 0; n < count; n += 1) {
      const field = integer(tokens[index]);
      const gen = integer(tokens[index + 1]);
      const type = tokens[index + 2];
      index += 3;
      // A first subsection numbered from 1 that starts with object 0's entry (a common writer's slip).
      if (n === 0 && first === 1 && type === 'f' && gen === 65535) first = 0;
      const num = first + n;
      // An in-use entry at offset 0 (where the header is) is how some writers mark a deleted object.
      if (type === 'n' && field > 0) entries.push([num, { type: 'offset', gen, offset: field + shift }]);
      else if (type === 'n' || type === 'f') entries.push([num, { type: 'free', gen, next: field }]);
      else throw new PdfStructureError(`The table at ${at} has an entry of type ${String(type)}`);
    }
  }
  const trailer = reader.objectAt(trailerAt + 'trailer'.length);
  if (!(trailer instanceof PDFDict))
    throw new PdfStructureError(`The trailer at ${trailerAt} is not a dictionary`);
  return { kind: 'table', entries, trailer };
}

function readStream(bytes: Uint8Array, at: number, shift: number, reader: ObjectReader): Section {
  const header = objectHeaderAt(bytes, at);
  if (header === null) throw new PdfStructureError(`No cross-reference section at ${at}`);
  const stream = reader.objectAt(header.bodyAt);
  if (!(stream instanceof PDFRawStream) || stream.dict.lookup(PDFName.of('Type')) !== PDFName.of('XRef')) {
    throw new PdfStructureError(`Object ${header.num} at ${at} is not a cross-reference stream`);
  }
  const { dict } = stream;
  const widths = dict.lookup(PDFName.of('W'));
  const w =
    widths instanceof PDFArray
      ? widths.asArray().map((value) => (value instanceof PDFNumber ? value.asNumber() : -1))
      : [];
  const [w0, w1, w2] = w;
  if (
    w.length !== 3 ||
    w0 === undefined ||
    w1 === undefined ||
    w2 === undefined ||
    w.some((value) => value < 0 || value > 8)
  ) {
    throw new PdfStructureError(`The cross-reference stream ${header.num} has a bad /W`);
  }
  const size = dict.lookup(PDFName.of('Size'));
  const indexArray = dict.lookup(PDFName.of('Index'));
  const ranges: number[] =
    indexArray instanceof PDFArray
      ? indexArray.asArray().map((value) => (value instanceof PDFNumber ? value.asNumber() : -1))
      : [0, size instanceof PDFNumber ? size.asNumber() : -1];
  if (ranges.length % 2 !== 0 || ranges.some((value) => !Number.isInteger(value) || value < 0)) {
    throw new PdfStructureError(`The cross-reference stream ${header.num} has a bad /Index`);
  }
  const data = decodeStream(stream, MAX_XREF_STREAM_BYTES);
  const rowLength = w0 + w1 + w2;
  const field = (at: number, width: number): number => {
    let value = 0;
    for (let byte = 0; byte < width; byte += 1) value = value * 256 + (data[at + byte] ?? 0);
    return value;
  };
  const entries: Array<[number, XrefEntry]> = [];
  let row = 0;
  for (let range = 0; range < ranges.length; range += 2) {
    const first = ranges[range] ?? 0;
    const count = ranges[range + 1] ?? 0;
    for (let n = 0; n < count; n += 1) {
      const at = row * rowLength;
      if (at + rowLength > data.length) {
        throw new PdfStructureError(`The cross-reference stream ${header.num} is shorter than its /Index`);
      }
      row += 1;
      const type = w0 === 0 ? 1 : field(at, w0);
      const second = field(at + w0, w1);
      const third = field(at + w0 + w1, w2);
      if (type === 0) entries.push([first + n, { type: 'free', gen: third, next: second }]);
      else if (type === 1) entries.push([first + n, { type: 'offset', gen: third, offset: second + shift }]);
      else if (type === 2) entries.push([first + n, { type: 'compressed', stream: second, index: third }]);
      // Other types are reserved: readers treat such an object as null.
    }
  }
  return { kind: 'stream', entries, trailer: dict };
}

function readSection(bytes: Uint8Array, offset: number, shift: number, reader: ObjectReader): Section {
  const at = skipWhitespace(bytes, offset + shift);
  if (text(bytes, at, at + 4) === 'xref') return readTable(bytes, at, shift, reader);
  return readStream(bytes, at, shift, reader);
}

function numberOf(dict: PDFDict, key: string): number | undefined {
  const value = dict.get(PDFName.of(key));
  return value instanceof PDFNumber ? value.asNumber() : undefined;
}

/** Reads the whole chain; throws PdfStructureError where it does not read as written. */
export function readXrefChain(bytes: Uint8Array, context: PDFContext): XrefChain {
  const reader = new ObjectReader(bytes, context);
  const startxref = lastStartxref(bytes);
  // Offsets count from the file's first byte; when junk was put before "%PDF-", readers also try them
  // counted from the header.
  let shift = 0;
  let newest: Section;
  try {
    newest = readSection(bytes, startxref, 0, reader);
  } catch (error) {
    const header = headerOffset(bytes);
    if (header === 0) throw error;
    shift = header;
    newest = readSection(bytes, startxref, shift, reader);
  }

  const entries = new Map<number, XrefEntry>();
  const trailer = context.obj({});
  let size = 0;
  const seen = new Set<number>();
  let section: Section | null = newest;
  let offset = startxref;
  const take = (found: Section): void => {
    for (const [num, entry] of found.entries) if (!entries.has(num)) entries.set(num, entry);
    for (const key of TRAILER_KEYS) {
      const value = found.trailer.get(PDFName.of(key));
      if (value !== undefined && !trailer.has(PDFName.of(key))) trailer.set(PDFName.of(key), value);
    }
    size = Math.max(size, numberOf(found.trailer, 'Size') ?? 0);
  };
  while (section !== null) {
    seen.add(offset);
    if (seen.size > MAX_SECTIONS)
      throw new PdfStructureError('The PDF has too many cross-reference sections');
    take(section);
    const xrefStm = section.kind === 'table' ? numberOf(section.trailer, 'XRefStm') : undefined;
    if (xrefStm !== undefined) take(readStream(bytes, skipWhitespace(bytes, xrefStm + shift), shift, reader));
    const prev = numberOf(section.trailer, 'Prev');
    if (prev === undefined) break;
    if (seen.has(prev)) throw new PdfStructureError('The cross-reference sections loop');
    offset = prev;
    section = readSection(bytes, prev, shift, reader);
  }
  for (const num of entries.keys()) size = Math.max(size, num + 1);
  return { startxref, lastKind: newest.kind, entries, trailer, size, shift };
}
