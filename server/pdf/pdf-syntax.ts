// Reading one PDF object where a cross-reference entry says it is, as viewers do, with pdf-lib's own object
// parser (so the objects are pdf-lib's, ready for PDFDocument). pdf-lib alone reads a file from top to
// bottom and keeps the last object of each number it meets, which is not what the file's cross-reference
// sections say when revisions free and reuse numbers, when junk or a stray object sits between them, or
// when a stream's /Length is an indirect reference (it then looks for "endstream", counting every "stream"
// in the data as a nested stream).
import { inflateSync, constants as zlib } from 'node:zlib';
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFName,
  PDFNumber,
  PDFObjectParser,
  PDFRawStream,
  PDFRef,
  type PDFContext,
  type PDFObject,
  type PDFStream,
} from 'pdf-lib';

type ByteStream = ConstructorParameters<typeof PDFObjectParser>[0];

/** The file is not what its structure says: a reader has to rebuild it from its objects. */
export class PdfStructureError extends Error {
  override readonly name = 'PdfStructureError';
}

const ascii = (text: string): number[] => [...text].map((character) => character.charCodeAt(0));
const STREAM = ascii('stream');
const ENDSTREAM = Buffer.from('endstream', 'latin1');
const CR = 0x0d;
const LF = 0x0a;

export function isWhitespace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === LF || byte === CR || byte === 0x09 || byte === 0x0c || byte === 0x00;
}

// pdf-lib's ByteStream class is not exported; an instance made by its own factory lends its constructor.
function byteStreamOf(bytes: Uint8Array, context: PDFContext): ByteStream {
  const lender = PDFObjectParser.forBytes(new Uint8Array(0), context) as unknown as {
    bytes: { constructor: new (bytes: Uint8Array) => ByteStream };
  };
  return new lender.bytes.constructor(bytes);
}

export type LengthResolver = (ref: PDFRef) => number | undefined;

/**
 * pdf-lib's object parser, positioned anywhere in the bytes, that takes a stream's /Length when it is an
 * indirect reference (through `resolveLength`) and, only when /Length is wrong, ends the stream at the last
 * "endstream" before `limit` (where the next object starts), so "stream" inside the data is just data.
 */
export class ObjectReader extends PDFObjectParser {
  readonly #bytes: Uint8Array;
  readonly #resolveLength: LengthResolver;
  #limit: number;
  #bounded = false;

  constructor(bytes: Uint8Array, context: PDFContext, resolveLength: LengthResolver = () => undefined) {
    super(byteStreamOf(bytes, context), context);
    this.#bytes = bytes;
    this.#resolveLength = resolveLength;
    this.#limit = bytes.length;
  }

  /** The object that starts at `offset`, its data (if a stream) ending before `limit` when given. */
  objectAt(offset: number, limit?: number): PDFObject {
    this.bytes.moveTo(offset);
    this.#bounded = limit !== undefined && limit < this.#bytes.length;
    this.#limit = this.#bounded && limit !== undefined ? limit : this.#bytes.length;
    return this.parseObject();
  }

  /** Where parsing stopped. */
  get position(): number {
    return this.bytes.offset();
  }

  protected override parseDictOrStream(): PDFDict | PDFStream {
    const dict = this.parseDict();
    const afterDict = this.bytes.offset();
    this.skipWhitespaceAndComments();
    if (!this.matchKeyword(STREAM)) {
      this.bytes.moveTo(afterDict);
      return dict;
    }
    // The keyword is followed by CR LF or LF; a lone CR is tolerated, as readers do.
    if (this.bytes.peek() === CR) this.bytes.next();
    if (this.bytes.peek() === LF) this.bytes.next();
    const start = this.bytes.offset();
    const declared = dict.get(PDFName.of('Length'));
    const length =
      declared instanceof PDFNumber
        ? declared.asNumber()
        : declared instanceof PDFRef
          ? this.#resolveLength(declared)
          : undefined;
    if (length !== undefined && Number.isInteger(length) && length >= 0 && start + length <= this.#limit) {
      let at = start + length;
      while (at < this.#limit && isWhitespace(this.#bytes[at])) at += 1;
      if (
        at + ENDSTREAM.length <= this.#bytes.length &&
        Buffer.from(this.#bytes.buffer, this.#bytes.byteOffset + at, ENDSTREAM.length).equals(ENDSTREAM)
      ) {
        this.bytes.moveTo(at + ENDSTREAM.length);
        return PDFRawStream.of(dict, this.bytes.slice(start, start + length));
      }
    }
    // Bounded by the next object, the stream's end is the last "endstream" before it (the data may hold
    // the word, an embedded PDF whole streams); unbounded, the first one.
    const view = Buffer.from(this.#bytes.buffer, this.#bytes.byteOffset, this.#limit);
    const found = this.#bounded ? view.lastIndexOf(ENDSTREAM) : view.indexOf(ENDSTREAM, start);
    if (found < start) throw new PdfStructureError(`A stream at offset ${start} has no end`);
    let end = found;
    if (this.#bytes[end - 1] === LF) end -= 1;
    if (this.#bytes[end - 1] === CR) end -= 1;
    this.bytes.moveTo(found + ENDSTREAM.length);
    return PDFRawStream.of(dict, this.bytes.slice(start, Math.max(start, end)));
  }
}

// An entry may point at the end of the line before its object (writers that count a CR LF as one byte):
// readers skip such whitespace, and so does this.
const HEADER = /^[\0\t\n\f\r ]{0,4}(\d+)\s+(\d+)\s+obj\b/;

/** The number and generation of the object header at `offset` ("12 0 obj"), and where its body starts. */
export function objectHeaderAt(
  bytes: Uint8Array,
  offset: number,
): { num: number; gen: number; bodyAt: number } | null {
  if (offset < 0 || offset >= bytes.length) return null;
  const text = Buffer.from(
    bytes.buffer,
    bytes.byteOffset + offset,
    Math.min(64, bytes.length - offset),
  ).toString('latin1');
  const match = HEADER.exec(text);
  if (!match?.[1] || !match[2]) return null;
  return { num: Number(match[1]), gen: Number(match[2]), bodyAt: offset + match[0].length };
}

// Undoes a PNG (10-15) or TIFF (2) predictor, for 8-bit components: what cross-reference streams use.
function unpredict(data: Buffer, parms: PDFDict | undefined): Buffer {
  const predictor = parms?.lookup(PDFName.of('Predictor'));
  const value = predictor instanceof PDFNumber ? predictor.asNumber() : 1;
  if (value <= 1) return data;
  const number = (key: string, fallback: number): number => {
    const found = parms?.lookup(PDFName.of(key));
    return found instanceof PDFNumber ? found.asNumber() : fallback;
  };
  const bits = number('BitsPerComponent', 8);
  if (bits !== 8) throw new PdfStructureError(`Predictors over ${bits}-bit components are not supported`);
  const colors = number('Colors', 1);
  const rowLength = number('Columns', 1) * colors;
  if (value === 2) {
    const out = Buffer.from(data);
    for (let row = 0; row < out.length; row += rowLength) {
      for (let at = row + colors; at < Math.min(row + rowLength, out.length); at += 1) {
        out[at] = ((out[at] ?? 0) + (out[at - colors] ?? 0)) & 0xff;
      }
    }
    return out;
  }
  const rows = Math.floor(data.length / (rowLength + 1));
  const out = Buffer.alloc(rows * rowLength);
  for (let row = 0; row < rows; row += 1) {
    const type = data[row * (rowLength + 1)];
    const inAt = row * (rowLength + 1) + 1;
    const outAt = row * rowLength;
    for (let column = 0; column < rowLength; column += 1) {
      const raw = data[inAt + column] ?? 0;
      const left = column >= colors ? (out[outAt + column - colors] ?? 0) : 0;
      const up = row > 0 ? (out[outAt - rowLength + column] ?? 0) : 0;
      const upLeft = row > 0 && column >= colors ? (out[outAt - rowLength + column - colors] ?? 0) : 0;
      let predicted: number;
      switch (type) {
        case 0:
          predicted = 0;
          break;
        case 1:
          predicted = left;
          break;
        case 2:
          predicted = up;
          break;
        case 3:
          predicted = Math.floor((left + up) / 2);
          break;
        case 4: {
          const estimate = left + up - upLeft;
          const toLeft = Math.abs(estimate - left);
          const toUp = Math.abs(estimate - up);
          const toUpLeft = Math.abs(estimate - upLeft);
          predicted = toLeft <= toUp && toLeft <= toUpLeft ? left : toUp <= toUpLeft ? up : upLeft;
          break;
        }
        default:
          throw new PdfStructureError(`Unknown PNG predictor ${String(type)}`);
      }
      out[outAt + column] = (raw + predicted) & 0xff;
    }
  }
  return out;
}

/**
 * A stream's decoded data, at most `maxBytes` of it. Flate (with or without a predictor) is inflated by
 * zlib, tolerating a truncated end as readers do; other filters go through pdf-lib's decoders.
 */
export function decodeStream(stream: PDFRawStream, maxBytes: number): Buffer {
  const { dict } = stream;
  const filter = dict.lookup(PDFName.of('Filter'));
  const filters =
    filter instanceof PDFName
      ? [filter]
      : filter instanceof PDFArray
        ? filter.asArray()
        : filter
          ? [filter]
          : [];
  const parmsObject = dict.lookup(PDFName.of('DecodeParms'));
  const parms =
    parmsObject instanceof PDFDict
      ? parmsObject
      : parmsObject instanceof PDFArray
        ? parmsObject.lookupMaybe(0, PDFDict)
        : undefined;
  const contents = Buffer.from(stream.contents.buffer, stream.contents.byteOffset, stream.contents.length);
  if (filters.length === 0) return contents;
  if (filters.length === 1 && filters[0] === PDFName.of('FlateDecode')) {
    let inflated: Buffer;
    try {
      inflated = inflateSync(contents, { finishFlush: zlib.Z_SYNC_FLUSH, maxOutputLength: maxBytes });
    } catch (error) {
      throw new PdfStructureError(`A stream does not inflate: ${(error as Error).message}`);
    }
    return unpredict(inflated, parms);
  }
  const decoded = decodePDFRawStream(stream).decode();
  if (decoded.length > maxBytes) throw new PdfStructureError('A stream decodes to more than the limit');
  return Buffer.from(decoded.buffer, decoded.byteOffset, decoded.length);
}
