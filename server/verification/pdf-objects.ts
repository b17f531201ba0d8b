// The objects of a PDF as pdf-lib parses them, by revision. pdf-lib reads a file front to back, decoding
// object streams and cross-reference streams on the way, and a later definition of an object replaces an
// earlier one: the state after the last revision. Parsing the file in slices cut at revision ends gives
// each revision's own definitions, and merging the slices up to a point gives the document as it was
// then, which is what a signature over that point signed.
import {
  PDFArray,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFParser,
  PDFRawStream,
  PDFRef,
  PDFString,
  type PDFObject,
} from 'pdf-lib';
import { createHash } from 'node:crypto';

export type ObjectMap = ReadonlyMap<string, PDFObject>;

/** The objects defined in one slice of the file, with what its trailer named. */
export type Slice = {
  objects: Map<string, PDFObject>;
  root: PDFRef | null;
  info: PDFRef | null;
  isEncrypted: boolean;
};

/** The document as of some revision: every object's latest definition, and the trailer's references. */
export class DocumentState {
  readonly objects: ObjectMap;
  readonly root: PDFRef | null;
  readonly info: PDFRef | null;

  constructor(objects: ObjectMap, root: PDFRef | null, info: PDFRef | null) {
    this.objects = objects;
    this.root = root;
    this.info = info;
  }

  static merge(slices: readonly Slice[]): DocumentState {
    const objects = new Map<string, PDFObject>();
    let root: PDFRef | null = null;
    let info: PDFRef | null = null;
    for (const slice of slices) {
      for (const [tag, object] of slice.objects) objects.set(tag, object);
      root = slice.root ?? root;
      info = slice.info ?? info;
    }
    return new DocumentState(objects, root, info);
  }

  resolve(value: PDFObject | undefined): PDFObject | undefined {
    let current = value;
    // A reference to a reference is legal, if odd; a loop of them is not followed.
    for (let hops = 0; current instanceof PDFRef && hops < 8; hops += 1)
      current = this.objects.get(current.tag);
    return current instanceof PDFRef ? undefined : current;
  }

  dict(value: PDFObject | undefined): PDFDict | null {
    const resolved = this.resolve(value);
    if (resolved instanceof PDFDict) return resolved;
    if (resolved instanceof PDFRawStream) return resolved.dict;
    return null;
  }

  get(dict: PDFDict, key: string): PDFObject | undefined {
    return this.resolve(dict.get(PDFName.of(key)));
  }

  array(dict: PDFDict, key: string): PDFArray | null {
    const value = this.get(dict, key);
    return value instanceof PDFArray ? value : null;
  }

  name(dict: PDFDict, key: string): string | null {
    const value = this.get(dict, key);
    return value instanceof PDFName ? value.decodeText() : null;
  }

  catalog(): PDFDict | null {
    return this.root === null ? null : this.dict(this.root);
  }

  /** Every indirect object reachable from `start`, not following the keys in `skip`. */
  reachable(
    start: PDFObject | undefined,
    skip: ReadonlySet<string> = new Set(),
    limit = 100_000,
  ): Set<string> {
    const found = new Set<string>();
    const stack: PDFObject[] = start === undefined ? [] : [start];
    while (stack.length > 0 && found.size < limit) {
      const value = stack.pop();
      if (value instanceof PDFRef) {
        if (found.has(value.tag)) continue;
        const target = this.objects.get(value.tag);
        if (target === undefined) continue;
        found.add(value.tag);
        stack.push(target);
      } else if (value instanceof PDFArray) {
        stack.push(...value.asArray());
      } else if (value instanceof PDFDict || value instanceof PDFRawStream) {
        const dict = value instanceof PDFRawStream ? value.dict : value;
        for (const [key, item] of dict.entries()) if (!skip.has(key.decodeText())) stack.push(item);
      }
    }
    return found;
  }
}

export function textOf(value: PDFObject | undefined): string | null {
  if (value instanceof PDFString || value instanceof PDFHexString) {
    try {
      return value.decodeText();
    } catch {
      return null;
    }
  }
  return null;
}

export function dateOf(value: PDFObject | undefined): Date | null {
  if (value instanceof PDFString || value instanceof PDFHexString) {
    try {
      const date = value.decodeDate();
      return Number.isNaN(date.getTime()) ? null : date;
    } catch {
      return null;
    }
  }
  return null;
}

export function numbersOf(value: PDFObject | undefined): number[] | null {
  if (!(value instanceof PDFArray)) return null;
  const numbers = value.asArray().map((item) => (item instanceof PDFNumber ? item.asNumber() : Number.NaN));
  return numbers.every((number) => Number.isSafeInteger(number) && number >= 0) ? numbers : null;
}

/** What two definitions of an object are compared by: a stream by its dictionary and its bytes. */
export function fingerprint(object: PDFObject): string {
  if (object instanceof PDFRawStream) {
    const hash = createHash('sha256').update(object.contents).digest('hex');
    return `stream ${object.dict.toString()} ${hash}`;
  }
  return object.toString();
}

const HEADER = Buffer.from('%PDF-1.7\n', 'latin1');

/** Parses `bytes` (a whole file, or a revision appended to one) into its object definitions. */
export async function parseSlice(bytes: Uint8Array, hasHeader: boolean): Promise<Slice> {
  const input = hasHeader ? bytes : Buffer.concat([HEADER, bytes]);
  // Objects are parsed without yielding to the event loop: this runs in the PDF sandbox, alone.
  const context = await PDFParser.forBytesWithOptions(input, Number.POSITIVE_INFINITY, false).parseDocument();
  const objects = new Map<string, PDFObject>();
  for (const [ref, object] of context.enumerateIndirectObjects()) objects.set(ref.tag, object);
  const { Root, Info, Encrypt } = context.trailerInfo;
  return {
    objects,
    root: Root instanceof PDFRef ? Root : null,
    info: Info instanceof PDFRef ? Info : null,
    isEncrypted: Encrypt !== undefined,
  };
}
