// A PAdES signature as an incremental update. pdf-lib can only rewrite a whole file, which would break every
// earlier signature, so it is used to load the document and make the changes in memory (the stamp's
// appearance, the widget, the form field, the signature page), and this module writes only the objects
// that are new or changed after the original bytes, with their own xref section and a trailer whose /Prev
// points at the previous one. Changed objects are found by serialising every object before and after.
// Reading goes through the file's cross-reference chain as viewers read it (../pdf/load.ts); the update's
// section is of the kind the previous one is (a table or a stream), its numbers come after every number
// the chain lists.
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
import { writePageTreeTypes } from '../pdf/page-tree.ts';
import { compactObjects, replaceRefs } from '../pdf/renumber.ts';
import type { XrefChain } from '../pdf/xref.ts';
import type { CertifiedKey } from './ca.ts';
import { buildCadesSignature } from './cms.ts';
import { PresignError, type SignatureRequest } from './signer.ts';
import { placeStamp } from './stamp.ts';

/** Room for the CMS in /Contents (bytes): two RSA certificates and a signature take about 3 KB. */
export const SIGNATURE_CONTENTS_BYTES = 16_384;
const BYTE_RANGE_PLACEHOLDER = '[0 0000000000 0000000000 0000000000]';
// Print + Locked: the stamp is printed, and nobody moves or deletes it in a reader.
const WIDGET_FLAGS = 4 + 128;

function presign(message: string, cause: unknown): PresignError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new PresignError(`${message}: ${reason}`);
}

type Loaded = LoadedPdf & { signed: boolean };

async function loadPdf(bytes: Uint8Array): Promise<Loaded> {
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

const randomId = (): PDFHexString => PDFHexString.of(randomBytes(16).toString('hex'));

/**
 * The bytes the signature is appended to. A document nobody signed yet is rewritten once by pdf-lib with a
 * classic xref table and no object streams, so that what follows is plain and every reader can follow
 * the update chain; the rewrite keeps only the objects the document uses, numbered from 1, and writes
 * the page tree's /Type entries. A signed one is kept byte for byte, or its signatures would break.
 */
export async function prepareForSigning(bytes: Uint8Array): Promise<Buffer> {
  const { doc, signed } = await loadPdf(bytes);
  if (signed) return Buffer.from(bytes);
  try {
    writePageTreeTypes(doc);
    compactObjects(doc.context);
    if (!(doc.context.trailerInfo.ID instanceof PDFArray)) {
      doc.context.trailerInfo.ID = doc.context.obj([randomId(), randomId()]);
    }
    return Buffer.from(await doc.save({ useObjectStreams: false, updateFieldAppearances: false }));
  } catch (error) {
    throw presign('The PDF cannot be rewritten', error);
  }
}

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

function fieldNames(fields: PDFArray): Set<string> {
  const names = new Set<string>();
  for (let index = 0; index < fields.size(); index += 1) {
    const field = fields.lookup(index);
    const name = field instanceof PDFDict ? field.lookup(PDFName.of('T')) : undefined;
    if (name instanceof PDFString || name instanceof PDFHexString) names.add(name.decodeText());
  }
  return names;
}

function acroFormFields(doc: PDFDocument): { acroForm: PDFDict; fields: PDFArray } {
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

function signatureDictionary(request: SignatureRequest): string {
  const text = (value: string) => PDFHexString.fromText(value).toString();
  const entries = [
    '/Type /Sig',
    '/Filter /Adobe.PPKLite',
    '/SubFilter /ETSI.CAdES.detached',
    `/ByteRange ${BYTE_RANGE_PLACEHOLDER}`,
    `/Contents <${'0'.repeat(SIGNATURE_CONTENTS_BYTES * 2)}>`,
    `/M ${PDFString.fromDate(request.signedAt).toString()}`,
    `/Name ${text(request.signer.fullName)}`,
    `/Location ${text(request.location)}`,
    ...(request.reason.trim() === '' ? [] : [`/Reason ${text(request.reason)}`]),
    '/Prop_Build << /App << /Name /Paraph >> >>',
  ];
  return `<<\n${entries.join('\n')}\n>>`;
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

/**
 * Appends one signature to `prepared` (the output of prepareForSigning or of an earlier signature): the
 * visible stamp as the widget's appearance, the field, and the CMS over every byte but the /Contents value.
 */
export async function appendSignature(
  prepared: Buffer,
  request: SignatureRequest,
  signer: CertifiedKey,
  chain: readonly Buffer[],
): Promise<Buffer> {
  const { doc, chain: xref } = await loadPdf(prepared);
  // What prepareForSigning hands over always reads through its chain: a rewrite, or a signed file
  // whose structure loadPdf found sound.
  if (xref === null || xref.shift !== 0)
    throw new PresignError('The PDF is damaged: its structure cannot be followed.');
  const { context } = doc;
  const listed = Math.max(xref.size - 1, context.largestObjectNumber);
  context.largestObjectNumber = listed;
  const before = snapshot(doc);

  let changed: Array<[PDFRef, PDFObject]>;
  let signatureRef: PDFRef;
  try {
    const stamp = await placeStamp(doc, request);
    signatureRef = context.nextRef();
    const { acroForm, fields } = acroFormFields(doc);
    const taken = fieldNames(fields);
    let number = fields.size() + 1;
    while (taken.has(`Signature${number}`)) number += 1;
    const widgetRef = context.register(
      context.obj({
        Type: 'Annot',
        Subtype: 'Widget',
        FT: 'Sig',
        T: PDFString.of(`Signature${number}`),
        V: signatureRef,
        Rect: stamp.rect,
        F: WIDGET_FLAGS,
        P: stamp.page.ref,
        AP: { N: stamp.appearance },
      }),
    );
    fields.push(widgetRef);
    acroForm.set(PDFName.of('SigFlags'), PDFNumber.of(3));
    const annots = stamp.page.node.lookup(PDFName.of('Annots'));
    if (annots instanceof PDFArray) annots.push(widgetRef);
    else stamp.page.node.set(PDFName.of('Annots'), context.obj([widgetRef]));
    await doc.flush();

    changed = context.enumerateIndirectObjects().filter(([ref, object]) => {
      const old = before.get(ref.tag);
      return old === undefined || old.object !== object || old.print !== fingerprint(object);
    });
  } catch (error) {
    if (error instanceof PresignError) throw error;
    throw presign('The PDF cannot be stamped', error);
  }

  // pdf-lib numbered the new objects after `listed`; they move to numbers the chain leaves free when
  // that passes the limit.
  const fresh = [...changed.map(([ref]) => ref), signatureRef].filter((ref) => ref.objectNumber > listed);
  const numbers = newNumbers(
    xref,
    new Set(context.enumerateIndirectObjects().map(([ref]) => ref.objectNumber)),
    fresh.length + (xref.lastKind === 'stream' ? 1 : 0),
  );
  const renumbered = new Map(fresh.map((ref, index) => [ref, PDFRef.of(numbers[index] ?? 0)]));
  const renamed = (ref: PDFRef): PDFRef => renumbered.get(ref) ?? ref;
  const done = new Set<PDFObject>();
  for (const [, object] of changed) replaceRefs(object, renamed, done);
  signatureRef = renamed(signatureRef);
  const written: WrittenObject[] = changed.map(([ref, object]) => ({
    ref: renamed(ref),
    bytes: serialise(renamed(ref), object),
  }));

  const signatureObject = Buffer.from(
    `${signatureRef.objectNumber} ${signatureRef.generationNumber} obj\n${signatureDictionary(request)}\nendobj\n`,
    'latin1',
  );
  written.push({ ref: signatureRef, bytes: signatureObject });

  const parts: Buffer[] = [prepared];
  let offset = prepared.length;
  if (prepared[prepared.length - 1] !== 0x0a) {
    parts.push(Buffer.from('\n'));
    offset += 1;
  }
  const entries: Entry[] = [];
  let signatureOffset = 0;
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
  const output = Buffer.concat(parts);

  // The byte range leaves out the hex string of /Contents, its angle brackets included.
  const objectText = signatureObject.toString('latin1');
  const contentsStart = signatureOffset + objectText.indexOf('/Contents <') + '/Contents '.length;
  const contentsEnd = contentsStart + SIGNATURE_CONTENTS_BYTES * 2 + 2;
  const byteRange = [0, contentsStart, contentsEnd, output.length - contentsEnd];
  const rangeStart = signatureOffset + objectText.indexOf(BYTE_RANGE_PLACEHOLDER);
  output.write(`[${byteRange.join(' ')}]`.padEnd(BYTE_RANGE_PLACEHOLDER.length, ' '), rangeStart, 'latin1');

  const digest = createHash('sha256')
    .update(output.subarray(0, contentsStart))
    .update(output.subarray(contentsEnd))
    .digest();
  const cms = buildCadesSignature(digest, signer, chain);
  if (cms.length > SIGNATURE_CONTENTS_BYTES) {
    throw new Error(`The signature (${cms.length} bytes) does not fit its placeholder.`);
  }
  output.write(cms.toString('hex').toUpperCase(), contentsStart + 1, 'latin1');
  return output;
}
