// A PAdES signature as an incremental update (./increment.ts): the visible stamp as the widget's appearance,
// the form field, the signature page when there is one, and a signature dictionary whose /Contents is
// filled once the digest of every other byte has been signed.
import { PDFArray, PDFHexString, PDFString } from 'pdf-lib';
import { writePageTreeTypes } from '../pdf/page-tree.ts';
import { compactObjects } from '../pdf/renumber.ts';
import {
  addSignatureField,
  appendIncrement,
  loadPdf,
  placeholderOf,
  presign,
  randomId,
  signatureValuePlaceholders,
  type Placeholder,
} from './increment.ts';
import type { SignatureRequest } from './signer.ts';
import { placeStamp } from './stamp.ts';

/**
 * Room for the CMS in /Contents (bytes): the signer's certificate and its chain, the signature, and the
 * signature time-stamp token with the TSA's certificate and chain take about 7 KB with a one-level CA.
 */
export const SIGNATURE_CONTENTS_BYTES = 16_384;

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

function signatureDictionary(request: SignatureRequest): string {
  const text = (value: string) => PDFHexString.fromText(value).toString();
  const placeholders = signatureValuePlaceholders(SIGNATURE_CONTENTS_BYTES);
  const entries = [
    '/Type /Sig',
    '/Filter /Adobe.PPKLite',
    '/SubFilter /ETSI.CAdES.detached',
    placeholders.byteRange,
    placeholders.contents,
    `/M ${PDFString.fromDate(request.signedAt).toString()}`,
    `/Name ${text(request.signer.fullName)}`,
    `/Location ${text(request.location)}`,
    ...(request.reason.trim() === '' ? [] : [`/Reason ${text(request.reason)}`]),
    '/Prop_Build << /App << /Name /Paraph >> >>',
  ];
  return `<<\n${entries.join('\n')}\n>>`;
}

/**
 * Places one signature on `prepared` (the output of prepareForSigning or of an earlier signature): the
 * stamp, the field and an empty signature value, with the digest the signature must cover.
 */
export async function placeSignature(prepared: Buffer, request: SignatureRequest): Promise<Placeholder> {
  const increment = await appendIncrement(prepared, async (doc) => {
    const { context } = doc;
    const stamp = await placeStamp(doc, request);
    const signatureRef = context.nextRef();
    addSignatureField(doc, {
      prefix: 'Signature',
      signatureRef,
      page: stamp.page,
      rect: stamp.rect,
      appearance: stamp.appearance,
    });
    return { ref: signatureRef, text: signatureDictionary(request) };
  });
  return placeholderOf(increment, SIGNATURE_CONTENTS_BYTES);
}
