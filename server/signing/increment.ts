// Incremental updates: what a signed PDF may still receive without breaking its signatures (a later
// signature, the validation data of a DSS, a document time-stamp). pdf-lib can only rewrite a whole file,
// so it loads the document and makes the change in memory, and only the objects that are new or changed
// are written after the original bytes, with their own xref section and a trailer whose /Prev points at
// the previous one. Changed objects are found by serialising every object before and after the edit.
//
// A signature dictionary is written by hand, not by pdf-lib: its /ByteRange and /Contents must have a
// fixed width, so that the digest can be taken over the final bytes before /Contents is filled in.
import { createHash, randomBytes } from 'node:crypto';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFRawStream,
  PDFRef,
  PDFString,
  type PDFObject,
} from 'pdf-lib';
import { PresignError } from './signer.ts';

const BYTE_RANGE_PLACEHOLDER = '[0 0000000000 0000000000 0000000000]';

/** Where a signature dictionary's fixed-width values go: write `placeholders(bytes)` into its text. */
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

type PreviousSection = { startxref: number; size: number | null };

function previousSection(bytes: Buffer): PreviousSection {
  const tail = bytes.subarray(Math.max(0, bytes.length - 2048)).toString('latin1');
  // The last one: junk after %%EOF is tolerated, as readers do.
  const match = [...tail.matchAll(/startxref\s+(\d+)/g)].at(-1);
  if (!match?.[1]) throw new PresignError('The PDF has no cross-reference section.');
  const startxref = Number(match[1]);
  if (startxref >= bytes.length)
    throw new PresignError('The PDF names a cross-reference section past its end.');
  const section = bytes.subarray(startxref, Math.min(bytes.length, startxref + 1_000_000)).toString('latin1');
  const end = section.indexOf('startxref');
  const size = /\/Size\s+(\d+)/.exec(end >= 0 ? section.slice(0, end) : section);
  return { startxref, size: size?.[1] ? Number(size[1]) : null };
}

// A stream read from the file is never changed in place here; its dictionary may be.
function fingerprint(object: PDFObject): string {
  return object instanceof PDFRawStream ? `stream ${object.dict.toString()}` : object.toString();
}

function serialise(ref: PDFRef, object: PDFObject): Buffer {
  const body = new Uint8Array(object.sizeInBytes());
  object.copyBytesInto(body, 0);
  return Buffer.concat([
    Buffer.from(`${ref.objectNumber} ${ref.generationNumber} obj\n`, 'latin1'),
    body,
    Buffer.from('\nendobj\n', 'latin1'),
  ]);
}

function xrefSection(entries: readonly { ref: PDFRef; offset: number }[]): string {
  const sorted = [...entries].sort((a, b) => a.ref.objectNumber - b.ref.objectNumber);
  let text = 'xref\n';
  let index = 0;
  while (index < sorted.length) {
    let end = index + 1;
    while (
      end < sorted.length &&
      sorted[end]?.ref.objectNumber === (sorted[end - 1]?.ref.objectNumber ?? 0) + 1
    )
      end += 1;
    const run = sorted.slice(index, end);
    text += `${run[0]?.ref.objectNumber ?? 0} ${run.length}\n`;
    for (const { ref, offset } of run) {
      text += `${String(offset).padStart(10, '0')} ${String(ref.generationNumber).padStart(5, '0')} n\r\n`;
    }
    index = end;
  }
  return text;
}

const randomId = (): PDFHexString => PDFHexString.of(randomBytes(16).toString('hex'));

/** What an edit adds besides pdf-lib's objects: one signature dictionary, as text with its placeholders. */
export type RawSignature = { ref: PDFRef; text: string };

export type Edit = (doc: PDFDocument) => Promise<RawSignature | null>;

export type Increment = { pdf: Buffer; signatureOffset: number | null; signatureText: string | null };

/** Loads `base` with pdf-lib, lets `edit` change it, and appends what changed as one incremental update. */
export async function appendIncrement(
  base: Buffer,
  load: (bytes: Buffer) => Promise<PDFDocument>,
  edit: Edit,
): Promise<Increment> {
  const previous = previousSection(base);
  const doc = await load(base);
  const { context } = doc;
  if (previous.size !== null && previous.size - 1 > context.largestObjectNumber) {
    // Object and xref streams are not kept in pdf-lib's context; new objects must not reuse their numbers.
    context.largestObjectNumber = previous.size - 1;
  }
  const before = new Map<string, { object: PDFObject; print: string }>();
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    before.set(ref.tag, { object, print: fingerprint(object) });
  }
  const signature = await edit(doc);
  await doc.flush();
  const written = context
    .enumerateIndirectObjects()
    .filter(([ref, object]) => {
      if (signature !== null && ref === signature.ref) return false;
      const old = before.get(ref.tag);
      return old === undefined || old.object !== object || old.print !== fingerprint(object);
    })
    .map(([ref, object]) => ({ ref, bytes: serialise(ref, object) }));
  const signatureBytes =
    signature === null
      ? null
      : Buffer.from(
          `${signature.ref.objectNumber} ${signature.ref.generationNumber} obj\n${signature.text}\nendobj\n`,
          'latin1',
        );
  if (signature !== null && signatureBytes !== null)
    written.push({ ref: signature.ref, bytes: signatureBytes });

  const parts: Buffer[] = [base];
  let offset = base.length;
  if (base[base.length - 1] !== 0x0a) {
    parts.push(Buffer.from('\n'));
    offset += 1;
  }
  const entries: { ref: PDFRef; offset: number }[] = [];
  let signatureOffset: number | null = null;
  for (const object of written) {
    entries.push({ ref: object.ref, offset });
    if (signature !== null && object.ref === signature.ref) signatureOffset = offset;
    parts.push(object.bytes);
    offset += object.bytes.length;
  }
  const id = context.trailerInfo.ID;
  const firstId = id instanceof PDFArray ? id.get(0) : undefined;
  const trailer = context.obj({
    Size: context.largestObjectNumber + 1,
    Root: context.trailerInfo.Root,
    Info: context.trailerInfo.Info,
    ID: [firstId ?? randomId(), randomId()],
    Prev: previous.startxref,
  });
  parts.push(
    Buffer.from(
      `${xrefSection(entries)}trailer\n${trailer.toString()}\nstartxref\n${offset}\n%%EOF\n`,
      'latin1',
    ),
  );
  return {
    pdf: Buffer.concat(parts),
    signatureOffset,
    signatureText: signatureBytes?.toString('latin1') ?? null,
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
