// Incremental updates: what a signed PDF may still receive without breaking its signatures (a signature,
// the validation data of a DSS, a document time-stamp). pdf-lib can only rewrite a whole file, so it loads
// the document and makes the change in memory, and only the objects that are new or changed are written
// after the original bytes, with their own xref section and a trailer whose /Prev points at the previous
// one. Changed objects are found by serialising every object before and after the edit.
// Reading goes through the file's cross-reference chain as viewers read it (../pdf/load.ts); the update's
// section is of the kind the previous one is (a table or a stream), its numbers come after every number
// the chain lists.
//
// A signature dictionary is written by hand, not by pdf-lib: its /ByteRange and /Contents must have a
// fixed width, so that the digest can be taken over the final bytes before /Contents is filled in.
import { createHash, randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import {
  PDFArray,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  PDFString,
  type PDFDocument,
  type PDFObject,
} from 'pdf-lib';
import {
  EncryptedPdfError,
  hasSignatures,
  loadPdf as readPdf,
  whyNotSignable,
  type LoadedPdf,
} from '../pdf/load.ts';
import { replaceRefs } from '../pdf/renumber.ts';
import type { XrefChain } from '../pdf/xref.ts';
import { PresignError } from './signer.ts';

const BYTE_RANGE_PLACEHOLDER = '[0 0000000000 0000000000 0000000000]';

export function presign(message: string, cause: unknown): PresignError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new PresignError(`${message}: ${reason}`);
}

export type Loaded = LoadedPdf & { signed: boolean };

export async function loadPdf(bytes: Uint8Array): Promise<Loaded> {
  let loaded: LoadedPdf;
  try {
    loaded = await readPdf(bytes);
  } catch (error) {
    if (error instanceof EncryptedPdfError) throw new PresignError('The PDF is encrypted.');
    throw presign('The PDF cannot be read', error);
  }
  // A damaged file is signed only once a rewrite has repaired it; what no rewrite repairs (pages missing,
  // a used object unreadable) would certify a document readers show differently.
  let problem: string | null;
  try {
    problem = whyNotSignable(loaded);
  } catch (error) {
    throw presign('The PDF is damaged', error);
  }
  if (problem !== null) throw new PresignError(`The PDF is damaged: ${problem}.`);
  return { ...loaded, signed: hasSignatures(loaded.doc) };
}

export const randomId = (): PDFHexString => PDFHexString.of(randomBytes(16).toString('hex'));

/** Where a signature dictionary's fixed-width values go, as the text of its two entries. */
export function signatureValuePlaceholders(contentsBytes: number): { byteRange: string; contents: string } {
  return {
    byteRange: `/ByteRange ${BYTE_RANGE_PLACEHOLDER}`,
    contents: `/Contents <${'0'.repeat(contentsBytes * 2)}>`,
  };
}

/** A file with an empty signature value, and the digest its signature must cover. */
export type Placeholder = {
  pdf: Buffer;
  /** Offset of the `<` that opens /Contents, and of the byte after its `>`. */
  contentsStart: number;
  contentsEnd: number;
  /** SHA-256 of every byte but the /Contents value. */
  digest: Buffer;
};

// A stream read from the file is never changed in place here; its dictionary may be.
function fingerprint(object: PDFObject): string {
  return object instanceof PDFRawStream ? `stream ${object.dict.toString()}` : object.toString();
}

function snapshot(doc: PDFDocument): Map<string, { object: PDFObject; print: string }> {
  const result = new Map<string, { object: PDFObject; print: string }>();
  for (const [ref, object] of doc.context.enumerateIndirectObjects()) {
    result.set(ref.tag, { object, print: fingerprint(object) });
  }
  return result;
}

type WrittenObject = { ref: PDFRef; bytes: Buffer };

function serialise(ref: PDFRef, object: PDFObject): Buffer {
  const body = new Uint8Array(object.sizeInBytes());
  object.copyBytesInto(body, 0);
  return Buffer.concat([
    Buffer.from(`${ref.objectNumber} ${ref.generationNumber} obj\n`, 'latin1'),
    body,
    Buffer.from('\nendobj\n', 'latin1'),
  ]);
}

type Entry = { ref: PDFRef; offset: number };

// Runs of consecutive object numbers: a table's subsections, a stream's /Index.
function runs(entries: readonly Entry[]): Entry[][] {
  const sorted = [...entries].sort((a, b) => a.ref.objectNumber - b.ref.objectNumber);
  const result: Entry[][] = [];
  for (const entry of sorted) {
    const run = result.at(-1);
    const last = run?.at(-1);
    if (run && last && entry.ref.objectNumber === last.ref.objectNumber + 1) run.push(entry);
    else result.push([entry]);
  }
  return result;
}

function xrefTable(entries: readonly Entry[], trailer: PDFDict): Buffer {
  let text = 'xref\n';
  for (const run of runs(entries)) {
    text += `${run[0]?.ref.objectNumber ?? 0} ${run.length}\n`;
    for (const { ref, offset } of run) {
      text += `${String(offset).padStart(10, '0')} ${String(ref.generationNumber).padStart(5, '0')} n\r\n`;
    }
  }
  return Buffer.from(`${text}trailer\n${trailer.toString()}\n`, 'latin1');
}

// A cross-reference stream listing `entries` and itself (at `offset`), /W [1 4 2]: an upload is far
// below 4 GB and a generation fits two bytes.
function xrefStream(entries: readonly Entry[], self: PDFRef, offset: number, trailer: PDFDict): Buffer {
  const all = [...entries, { ref: self, offset }];
  const rows: Buffer[] = [];
  const index: number[] = [];
  for (const run of runs(all)) {
    index.push(run[0]?.ref.objectNumber ?? 0, run.length);
    for (const entry of run) {
      const row = Buffer.alloc(7);
      row.writeUInt8(1, 0);
      row.writeUInt32BE(entry.offset, 1);
      row.writeUInt16BE(entry.ref.generationNumber, 5);
      rows.push(row);
    }
  }
  const data = deflateSync(Buffer.concat(rows));
  trailer.set(PDFName.of('Type'), PDFName.of('XRef'));
  trailer.set(PDFName.of('W'), trailer.context.obj([1, 4, 2]));
  trailer.set(PDFName.of('Index'), trailer.context.obj(index));
  trailer.set(PDFName.of('Filter'), PDFName.of('FlateDecode'));
  trailer.set(PDFName.of('Length'), PDFNumber.of(data.length));
  return Buffer.concat([
    Buffer.from(`${self.objectNumber} 0 obj\n${trailer.toString()}\nstream\n`, 'latin1'),
    data,
    Buffer.from('\nendstream\nendobj\n', 'latin1'),
  ]);
}

// PDF 1.7's limit (ISO 32000-1, annex C), and about where poppler stops reading a table.
const MAX_OBJECT_NUMBER = 8_388_607;

/**
 * Numbers for the update's new objects: after every number the chain lists or its /Size allows, unless
 * that passes the limit (a file already using numbers near it); then the lowest numbers no section lists.
 */
function newNumbers(xref: XrefChain, taken: ReadonlySet<number>, count: number): number[] {
  const after = xref.size;
  if (after - 1 + count <= MAX_OBJECT_NUMBER)
    return Array.from({ length: count }, (_, index) => after + index);
  const free: number[] = [];
  for (let num = 1; free.length < count; num += 1) {
    if (!xref.entries.has(num) && !taken.has(num)) free.push(num);
  }
  return free;
}

/** What an edit adds besides pdf-lib's objects: one signature dictionary, as text with its placeholders. */
export type RawSignature = { ref: PDFRef; text: string };

export type Edit = (doc: PDFDocument) => Promise<RawSignature | null>;

export type Increment = { pdf: Buffer; signatureOffset: number | null; signatureText: string | null };

/**
 * Loads `base`, lets `edit` change it, and appends what changed as one incremental update. A failure of
 * the edit is a PresignError (the file's fault); the caller's own PresignErrors pass through.
 */
export async function appendIncrement(base: Buffer, edit: Edit): Promise<Increment> {
  const { doc, chain: xref } = await loadPdf(base);
  // What prepareForSigning hands over always reads through its chain: a rewrite, or a signed file
  // whose structure loadPdf found sound.
  if (xref === null || xref.shift !== 0)
    throw new PresignError('The PDF is damaged: its structure cannot be followed.');
  const { context } = doc;
  const listed = Math.max(xref.size - 1, context.largestObjectNumber);
  context.largestObjectNumber = listed;
  const before = snapshot(doc);

  let changed: Array<[PDFRef, PDFObject]>;
  let signature: RawSignature | null;
  try {
    signature = await edit(doc);
    await doc.flush();
    changed = context.enumerateIndirectObjects().filter(([ref, object]) => {
      if (signature !== null && ref === signature.ref) return false;
      const old = before.get(ref.tag);
      return old === undefined || old.object !== object || old.print !== fingerprint(object);
    });
  } catch (error) {
    if (error instanceof PresignError) throw error;
    throw presign('The PDF cannot be changed', error);
  }

  // pdf-lib numbered the new objects after `listed`; they move to numbers the chain leaves free when
  // that passes the limit.
  const fresh = [...changed.map(([ref]) => ref), ...(signature === null ? [] : [signature.ref])].filter(
    (ref) => ref.objectNumber > listed,
  );
  const numbers = newNumbers(
    xref,
    new Set(context.enumerateIndirectObjects().map(([ref]) => ref.objectNumber)),
    fresh.length + (xref.lastKind === 'stream' ? 1 : 0),
  );
  const renumbered = new Map(fresh.map((ref, index) => [ref, PDFRef.of(numbers[index] ?? 0)]));
  const renamed = (ref: PDFRef): PDFRef => renumbered.get(ref) ?? ref;
  const done = new Set<PDFObject>();
  for (const [, object] of changed) replaceRefs(object, renamed, done);
  const written: WrittenObject[] = changed.map(([ref, object]) => ({
    ref: renamed(ref),
    bytes: serialise(renamed(ref), object),
  }));
  let signatureRef: PDFRef | null = null;
  let signatureObject: Buffer | null = null;
  if (signature !== null) {
    signatureRef = renamed(signature.ref);
    signatureObject = Buffer.from(
      `${signatureRef.objectNumber} ${signatureRef.generationNumber} obj\n${signature.text}\nendobj\n`,
      'latin1',
    );
    written.push({ ref: signatureRef, bytes: signatureObject });
  }

  const parts: Buffer[] = [base];
  let offset = base.length;
  if (base[base.length - 1] !== 0x0a) {
    parts.push(Buffer.from('\n'));
    offset += 1;
  }
  const entries: Entry[] = [];
  let signatureOffset: number | null = null;
  for (const object of written) {
    entries.push({ ref: object.ref, offset });
    if (object.ref === signatureRef) signatureOffset = offset;
    parts.push(object.bytes);
    offset += object.bytes.length;
  }
  const streamRef = xref.lastKind === 'stream' ? PDFRef.of(numbers.at(-1) ?? 0) : null;
  const highest = Math.max(...entries.map((entry) => entry.ref.objectNumber), streamRef?.objectNumber ?? 0);
  const id = context.trailerInfo.ID;
  const firstId = id instanceof PDFArray ? id.get(0) : undefined;
  const trailer = context.obj({
    Size: Math.max(xref.size, highest + 1),
    Root: context.trailerInfo.Root,
    Info: context.trailerInfo.Info,
    ID: [firstId ?? randomId(), randomId()],
    Prev: xref.startxref,
  });
  // The update's section is of the previous section's kind: a reader that follows streams may not follow
  // a table after one.
  parts.push(
    streamRef === null ? xrefTable(entries, trailer) : xrefStream(entries, streamRef, offset, trailer),
    Buffer.from(`startxref\n${offset}\n%%EOF\n`, 'latin1'),
  );
  return {
    pdf: Buffer.concat(parts),
    signatureOffset,
    signatureText: signatureObject?.toString('latin1') ?? null,
  };
}

/** Fills in the /ByteRange of the signature an increment wrote, and answers the digest to sign. */
export function placeholderOf(increment: Increment, contentsBytes: number): Placeholder {
  const { pdf, signatureOffset, signatureText } = increment;
  if (signatureOffset === null || signatureText === null) throw new Error('The update has no signature');
  // The byte range leaves out the hex string of /Contents, its angle brackets included.
  const contentsStart = signatureOffset + signatureText.indexOf('/Contents <') + '/Contents '.length;
  const contentsEnd = contentsStart + contentsBytes * 2 + 2;
  const byteRange = [0, contentsStart, contentsEnd, pdf.length - contentsEnd];
  const rangeStart = signatureOffset + signatureText.indexOf(BYTE_RANGE_PLACEHOLDER);
  pdf.write(`[${byteRange.join(' ')}]`.padEnd(BYTE_RANGE_PLACEHOLDER.length, ' '), rangeStart, 'latin1');
  const digest = createHash('sha256')
    .update(pdf.subarray(0, contentsStart))
    .update(pdf.subarray(contentsEnd))
    .digest();
  return { pdf, contentsStart, contentsEnd, digest };
}

/** Writes the signature value (CMS or time-stamp token) into its placeholder, in place. */
export function fillPlaceholder(placeholder: Placeholder, value: Uint8Array): Buffer {
  const room = (placeholder.contentsEnd - placeholder.contentsStart - 2) / 2;
  if (value.length > room) {
    throw new Error(`The signature (${value.length} bytes) does not fit its placeholder (${room} bytes).`);
  }
  placeholder.pdf.write(
    Buffer.from(value).toString('hex').toUpperCase(),
    placeholder.contentsStart + 1,
    'latin1',
  );
  return placeholder.pdf;
}

/** The document's AcroForm and its /Fields, made when missing. */
export function acroFormFields(doc: PDFDocument): { acroForm: PDFDict; fields: PDFArray } {
  const { context, catalog } = doc;
  let acroForm = catalog.lookup(PDFName.of('AcroForm'));
  if (!(acroForm instanceof PDFDict)) {
    acroForm = context.obj({});
    catalog.set(PDFName.of('AcroForm'), context.register(acroForm));
  }
  const form = acroForm as PDFDict;
  let fields = form.lookup(PDFName.of('Fields'));
  if (!(fields instanceof PDFArray)) {
    fields = context.obj([]);
    form.set(PDFName.of('Fields'), fields);
  }
  return { acroForm: form, fields: fields as PDFArray };
}

/** A field name `<prefix><n>` that no top-level field has yet. */
export function freeFieldName(fields: PDFArray, prefix: string): string {
  const taken = new Set<string>();
  for (let index = 0; index < fields.size(); index += 1) {
    const field = fields.lookup(index);
    const name = field instanceof PDFDict ? field.lookup(PDFName.of('T')) : undefined;
    if (name instanceof PDFString || name instanceof PDFHexString) taken.add(name.decodeText());
  }
  let number = fields.size() + 1;
  while (taken.has(`${prefix}${number}`)) number += 1;
  return `${prefix}${number}`;
}

// Print + Locked: the widget is printed, and nobody moves or deletes it in a reader.
const SIGNATURE_WIDGET_FLAGS = 4 + 128;

/**
 * A signature field (`<prefix><n>`) whose value will be `signatureRef`, as one widget on `page` at `rect`
 * with `appearance` (none for an invisible one), added to the form and the page's annotations.
 */
export function addSignatureField(
  doc: PDFDocument,
  field: {
    prefix: string;
    signatureRef: PDFRef;
    page: { ref: PDFRef; node: PDFDict };
    rect: number[];
    appearance?: PDFRef | PDFDict;
  },
): void {
  const { context } = doc;
  const { acroForm, fields } = acroFormFields(doc);
  const widgetRef = context.register(
    context.obj({
      Type: 'Annot',
      Subtype: 'Widget',
      FT: 'Sig',
      T: PDFString.of(freeFieldName(fields, field.prefix)),
      V: field.signatureRef,
      Rect: field.rect,
      F: SIGNATURE_WIDGET_FLAGS,
      P: field.page.ref,
      ...(field.appearance === undefined ? {} : { AP: { N: field.appearance } }),
    }),
  );
  fields.push(widgetRef);
  acroForm.set(PDFName.of('SigFlags'), PDFNumber.of(3));
  const annots = field.page.node.lookup(PDFName.of('Annots'));
  if (annots instanceof PDFArray) annots.push(widgetRef);
  else field.page.node.set(PDFName.of('Annots'), context.obj([widgetRef]));
}
