// Loads a PDF into pdf-lib the way a viewer reads it: every object where the cross-reference chain says it
// is (xref.ts), and only those, so a stale revision's object, a freed number, a stray object or junk
// between sections is never taken for the document. A file whose chain does not read as written is
// damaged: it is then rebuilt from its objects, top to bottom, as readers rebuild it (pdf-lib's own
// parse), and the caller learns why (`damage`) to decide whether that may be signed.
import {
  PDFArray,
  PDFContext,
  PDFDict,
  PDFDocument,
  PDFInvalidObject,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  type PDFObject,
} from 'pdf-lib';
import { normalisePageTree, pageTreeProblem } from './page-tree.ts';
import { decodeStream, objectHeaderAt, ObjectReader, PdfStructureError } from './pdf-syntax.ts';
import { headerOffset, readXrefChain, type XrefChain } from './xref.ts';

/** The trailer names an /Encrypt dictionary. */
export class EncryptedPdfError extends Error {
  override readonly name = 'EncryptedPdfError';
}

export type LoadedPdf = {
  doc: PDFDocument;
  /** The chain the objects were read through; null when the file had to be rebuilt from its objects. */
  chain: XrefChain | null;
  /** Why the chain could not be followed; null when it could. */
  damage: string | null;
};

// An object stream of a file within the upload limit never inflates to more than this.
const MAX_OBJECT_STREAM_BYTES = 256 * 1024 * 1024;

type ObjectStream = { data: Buffer; first: number; objects: Array<{ num: number; offset: number }> };

function objectStreamOf(stream: PDFObject | undefined, num: number): ObjectStream {
  if (!(stream instanceof PDFRawStream) || stream.dict.lookup(PDFName.of('Type')) !== PDFName.of('ObjStm')) {
    throw new PdfStructureError(`Object ${num} is not an object stream`);
  }
  const count = stream.dict.lookup(PDFName.of('N'));
  const first = stream.dict.lookup(PDFName.of('First'));
  if (!(count instanceof PDFNumber) || !(first instanceof PDFNumber)) {
    throw new PdfStructureError(`Object stream ${num} has no /N or /First`);
  }
  const data = decodeStream(stream, MAX_OBJECT_STREAM_BYTES);
  const numbers = data.subarray(0, first.asNumber()).toString('latin1').trim().split(/\s+/).map(Number);
  const objects: ObjectStream['objects'] = [];
  for (let index = 0; index < count.asNumber(); index += 1) {
    const objectNumber = numbers[index * 2];
    const offset = numbers[index * 2 + 1];
    if (objectNumber === undefined || offset === undefined || !Number.isInteger(objectNumber + offset)) {
      throw new PdfStructureError(`Object stream ${num} has a malformed header`);
    }
    objects.push({ num: objectNumber, offset });
  }
  return { data, first: first.asNumber(), objects };
}

/** Assigns every object the chain lists to `context`, read where the chain says; throws at the first that is not there. */
function readObjects(bytes: Uint8Array, context: PDFContext, chain: XrefChain): void {
  // Where each object starts: a stream whose /Length is wrong ends before the next one.
  const starts = [...chain.entries.values()]
    .flatMap((entry) => (entry.type === 'offset' ? [entry.offset] : []))
    .sort((a, b) => a - b);
  const nextStart = (offset: number): number | undefined => {
    let low = 0;
    let high = starts.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((starts[middle] ?? 0) <= offset) low = middle + 1;
      else high = middle;
    }
    return starts[low];
  };
  const loaded = new Map<number, PDFObject | null>();
  const loading = new Set<number>();
  const streams = new Map<number, ObjectStream>();

  const resolveLength = (ref: PDFRef): number | undefined => {
    const value = load(ref.objectNumber);
    return value instanceof PDFNumber ? value.asNumber() : undefined;
  };

  function load(num: number): PDFObject | null {
    const known = loaded.get(num);
    if (known !== undefined) return known;
    const entry = chain.entries.get(num);
    if (entry === undefined || entry.type === 'free') return null;
    if (loading.has(num)) throw new PdfStructureError(`Object ${num} needs itself to be read`);
    loading.add(num);
    let object: PDFObject;
    if (entry.type === 'offset') {
      const header = objectHeaderAt(bytes, entry.offset);
      if (header === null || header.num !== num || header.gen !== entry.gen) {
        throw new PdfStructureError(`Object ${num} ${entry.gen} is not at offset ${entry.offset}`);
      }
      // A reader of its own: /Length may send this one to another object mid-parse.
      object = new ObjectReader(bytes, context, resolveLength).objectAt(
        header.bodyAt,
        nextStart(entry.offset),
      );
    } else {
      let stream = streams.get(entry.stream);
      if (stream === undefined) {
        stream = objectStreamOf(load(entry.stream) ?? undefined, entry.stream);
        streams.set(entry.stream, stream);
      }
      const slot = stream.objects[entry.index];
      if (slot?.num !== num) {
        throw new PdfStructureError(
          `Object ${num} is not at index ${entry.index} of object stream ${entry.stream}`,
        );
      }
      const limit = stream.objects[entry.index + 1];
      object = new ObjectReader(stream.data, context, resolveLength).objectAt(
        stream.first + slot.offset,
        limit === undefined ? undefined : stream.first + limit.offset,
      );
    }
    loading.delete(num);
    loaded.set(num, object);
    return object;
  }

  for (const [num, entry] of chain.entries) {
    if (num === 0 || entry.type === 'free') continue;
    const object = load(num);
    if (object !== null) context.assign(PDFRef.of(num, entry.type === 'offset' ? entry.gen : 0), object);
  }
}

// pdf-lib's constructor is private: PDFDocument.load is the only way in, and it parses on its own.
function documentOf(context: PDFContext): PDFDocument {
  return Reflect.construct(PDFDocument, [context, true, false]) as PDFDocument;
}

function readThroughChain(bytes: Uint8Array): { doc: PDFDocument; chain: XrefChain } {
  const context = PDFContext.create();
  const chain = readXrefChain(bytes, context);
  if (chain.trailer.has(PDFName.of('Encrypt'))) throw new EncryptedPdfError('The PDF is encrypted');
  readObjects(bytes, context, chain);
  const entry = (key: string): PDFObject | undefined => chain.trailer.get(PDFName.of(key));
  context.trailerInfo = { Root: entry('Root'), Info: entry('Info'), ID: entry('ID'), Encrypt: undefined };
  if (!(context.lookup(context.trailerInfo.Root) instanceof PDFDict)) {
    throw new PdfStructureError('The trailer names no catalog');
  }
  return { doc: documentOf(context), chain };
}

// A rebuild reads from the header to the last end-of-file marker: a transfer's junk before or after
// (where pdf-lib would take "12 0 obj" for an object it then cannot find the end of) is not the file.
function withoutJunk(bytes: Uint8Array): Uint8Array {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const start = headerOffset(bytes);
  const eof = buffer.lastIndexOf('%%EOF');
  const end = eof > start ? eof + '%%EOF'.length : buffer.length;
  return bytes.subarray(start, end);
}

async function rebuild(bytes: Uint8Array): Promise<PDFDocument> {
  // pdf-lib writes a console warning for each object it cannot read; what matters is reported by the
  // caller, once, from the damage found.
  const warn = console.warn;
  console.warn = () => undefined;
  try {
    return await PDFDocument.load(withoutJunk(bytes), {
      ignoreEncryption: true,
      updateMetadata: false,
      throwOnInvalidObject: false,
    });
  } finally {
    console.warn = warn;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Loads `bytes`, through its cross-reference chain when that reads as written, else rebuilt from its
 * objects (`damage` says why). The page tree's nodes are what readers take them for (page-tree.ts).
 * Throws EncryptedPdfError for an encrypted file, and pdf-lib's error when nothing can be read at all.
 */
export async function loadPdf(bytes: Uint8Array): Promise<LoadedPdf> {
  let loaded: LoadedPdf;
  try {
    const { doc, chain } = readThroughChain(bytes);
    loaded = { doc, chain, damage: null };
  } catch (error) {
    if (error instanceof EncryptedPdfError) throw error;
    const doc = await rebuild(bytes);
    if (doc.isEncrypted) throw new EncryptedPdfError('The PDF is encrypted');
    loaded = { doc, chain: null, damage: describe(error) };
  }
  normalisePageTree(loaded.doc);
  return loaded;
}

/** Does any object look like a signature dictionary (a document time-stamp included)? */
export function hasSignatures(doc: PDFDocument): boolean {
  return doc.context
    .enumerateIndirectObjects()
    .some(([, object]) => object instanceof PDFDict && object.has(PDFName.of('ByteRange')));
}

/** The first object the document uses (reachable from its catalog) that could not be read, if any. */
export function unreadableObject(doc: PDFDocument): PDFRef | null {
  const { context } = doc;
  const seen = new Set<PDFRef>();
  const pending: Array<{ value: PDFObject; ref: PDFRef | null }> = [];
  const root = context.trailerInfo.Root;
  if (root !== undefined) pending.push({ value: root, ref: null });
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === undefined) break;
    const { value } = next;
    if (value instanceof PDFRef) {
      if (seen.has(value)) continue;
      seen.add(value);
      const target = context.lookup(value);
      if (target instanceof PDFInvalidObject) return value;
      if (target !== undefined) pending.push({ value: target, ref: value });
    } else if (value instanceof PDFDict) {
      for (const [, child] of value.entries()) pending.push({ value: child, ref: next.ref });
    } else if (value instanceof PDFArray) {
      for (const child of value.asArray()) pending.push({ value: child, ref: next.ref });
    } else if (value instanceof PDFRawStream) {
      pending.push({ value: value.dict, ref: next.ref });
    }
  }
  return null;
}

/**
 * Why `loaded` cannot be signed as it is or after a rewrite (null when it can). A file nobody signed yet
 * is rewritten before its first signature, which repairs its structure (the chain, junk, stray and stale
 * objects); what no rewrite can repair is a page tree or a used object readers could read differently.
 * A signed file cannot be rewritten without breaking its signatures, so its structure must be sound.
 */
export function whyNotSignable(loaded: LoadedPdf): string | null {
  if (hasSignatures(loaded.doc)) {
    if (loaded.damage !== null) {
      return `it is already signed and its structure is damaged (${loaded.damage}); repairing it would break its signatures`;
    }
    if (loaded.chain !== null && loaded.chain.shift !== 0) {
      return 'it is already signed and starts with bytes its offsets do not count; repairing it would break its signatures';
    }
  }
  const tree = pageTreeProblem(loaded.doc);
  if (tree !== null) return tree;
  const unreadable = unreadableObject(loaded.doc);
  if (unreadable !== null) return `object ${unreadable.objectNumber}, which it uses, cannot be read`;
  return null;
}
