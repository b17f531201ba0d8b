// A PAdES signature as an incremental update. pdf-lib can only rewrite a whole file, which would break every
// earlier signature, so it is used to load the document and make the changes in memory (the stamp's
// appearance, the widget, the form field, the signature page), and this module writes only the objects
// that are new or changed after the original bytes, with their own xref section and a trailer whose /Prev
// points at the previous one. Changed objects are found by serialising every object before and after.
import { createHash, randomBytes } from 'node:crypto';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  PDFString,
  type PDFContext,
  type PDFObject,
} from 'pdf-lib';
import type { CertifiedKey } from './pki/types.ts';
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

async function loadPdf(bytes: Uint8Array): Promise<PDFDocument> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: true });
  } catch (error) {
    throw presign('The PDF cannot be read', error);
  }
  // pdf-lib loads what it can of a damaged file; signing it would certify a document with pages missing.
  try {
    checkPageTree(doc);
  } catch (error) {
    throw presign('The PDF is damaged', error);
  }
  return doc;
}

function resolves(context: PDFContext, value: PDFObject | undefined): boolean {
  return !(value instanceof PDFRef) || context.lookup(value) !== undefined;
}

/** Every page of the page tree exists, with its content, and /Count says how many there are. */
function checkPageTree(doc: PDFDocument): void {
  const { context } = doc;
  const root = doc.catalog.lookup(PDFName.of('Pages'));
  if (!(root instanceof PDFDict)) throw new Error('no page tree');
  const seen = new Set<PDFDict>();
  let leaves = 0;
  const visit = (node: PDFDict): void => {
    if (seen.has(node)) throw new Error('the page tree loops');
    seen.add(node);
    const kids = node.lookup(PDFName.of('Kids'));
    if (!(kids instanceof PDFArray)) throw new Error('a page tree node without kids');
    for (let index = 0; index < kids.size(); index += 1) {
      if (!resolves(context, kids.get(index))) throw new Error('a page is missing');
      const kid = kids.lookup(index);
      if (!(kid instanceof PDFDict)) throw new Error('a page is not a dictionary');
      if (kid.lookup(PDFName.of('Type')) === PDFName.of('Pages')) {
        visit(kid);
        continue;
      }
      leaves += 1;
      const contents = kid.get(PDFName.of('Contents'));
      const parts = contents instanceof PDFArray ? contents.asArray() : [contents];
      if (!parts.every((part) => resolves(context, part)))
        throw new Error(`the content of page ${leaves} is missing`);
    }
  };
  visit(root);
  const count = root.lookup(PDFName.of('Count'));
  if (leaves < 1) throw new Error('no pages');
  if (!(count instanceof PDFNumber) || count.asNumber() !== leaves)
    throw new Error('the page count does not match the pages');
}

/** Does any object of the document look like a signature dictionary (also a document time-stamp)? */
function hasSignatures(doc: PDFDocument): boolean {
  return doc.context
    .enumerateIndirectObjects()
    .some(([, object]) => object instanceof PDFDict && object.has(PDFName.of('ByteRange')));
}

const randomId = (): PDFHexString => PDFHexString.of(randomBytes(16).toString('hex'));

/**
 * The bytes the signature is appended to. A document nobody signed yet is rewritten once by pdf-lib with a
 * classic xref table and no object streams, so that what follows is plain and every reader can follow
 * the update chain; a signed one is kept byte for byte, or its signatures would break.
 */
export async function prepareForSigning(bytes: Uint8Array): Promise<Buffer> {
  const doc = await loadPdf(bytes);
  if (hasSignatures(doc)) return Buffer.from(bytes);
  try {
    if (!(doc.context.trailerInfo.ID instanceof PDFArray)) {
      doc.context.trailerInfo.ID = doc.context.obj([randomId(), randomId()]);
    }
    return Buffer.from(await doc.save({ useObjectStreams: false, updateFieldAppearances: false }));
  } catch (error) {
    throw presign('The PDF cannot be rewritten', error);
  }
}

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

/**
 * Appends one signature to `prepared` (the output of prepareForSigning or of an earlier signature): the
 * visible stamp as the widget's appearance, the field, and the CMS over every byte but the /Contents value.
 */
export async function appendSignature(
  prepared: Buffer,
  request: SignatureRequest,
  signer: CertifiedKey,
  chain: readonly Uint8Array[],
): Promise<Buffer> {
  const previous = previousSection(prepared);
  const doc = await loadPdf(prepared);
  const { context } = doc;
  if (previous.size !== null && previous.size - 1 > context.largestObjectNumber) {
    // Object and xref streams are not kept in pdf-lib's context; new objects must not reuse their numbers.
    context.largestObjectNumber = previous.size - 1;
  }
  const before = snapshot(doc);

  let written: WrittenObject[];
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

    written = context
      .enumerateIndirectObjects()
      .filter(([ref, object]) => {
        const old = before.get(ref.tag);
        return old === undefined || old.object !== object || old.print !== fingerprint(object);
      })
      .map(([ref, object]) => ({ ref, bytes: serialise(ref, object) }));
  } catch (error) {
    if (error instanceof PresignError) throw error;
    throw presign('The PDF cannot be stamped', error);
  }

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
  const entries: { ref: PDFRef; offset: number }[] = [];
  let signatureOffset = 0;
  for (const object of written) {
    entries.push({ ref: object.ref, offset });
    if (object.ref === signatureRef) signatureOffset = offset;
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
  const cms = await buildCadesSignature(digest, signer, chain);
  if (cms.length > SIGNATURE_CONTENTS_BYTES) {
    throw new Error(`The signature (${cms.length} bytes) does not fit its placeholder.`);
  }
  output.write(cms.toString('hex').toUpperCase(), contentsStart + 1, 'latin1');
  return output;
}
