// What keeps a signature verifiable after its certificates expire or its CA is gone (PAdES, ETSI EN
// 319 142-1): the validation data in the document itself (B-LT) and a document time-stamp over all of it
// (B-LTA). Both are incremental updates after the signatures, the kind of change a signed file allows.
// - The DSS (Document Security Store) in the catalog holds every certificate of the chains, the OCSP
//   responses and CRLs; each signature's own entry in /VRI names what validates it, keyed by the SHA-1 of
//   its /Contents. A later update adds to the arrays and keeps what earlier ones wrote.
// - A document time-stamp is an invisible signature field whose value is an RFC 3161 token
//   (/SubFilter /ETSI.RFC3161) over every byte before it: the DSS included, so the validation data is
//   proven to have existed at that time.
import { createHash } from 'node:crypto';
import {
  PDFArray,
  PDFDict,
  PDFName,
  PDFRawStream,
  PDFRef,
  decodePDFRawStream,
  type PDFContext,
} from 'pdf-lib';
import {
  addSignatureField,
  appendIncrement,
  placeholderOf,
  signatureValuePlaceholders,
  type Placeholder,
} from './increment.ts';

/** Room for a document time-stamp token: the TSA's certificate and chain make most of it. */
export const DOCUMENT_TIMESTAMP_BYTES = 16_384;

export type ValidationData = {
  certificates: readonly Uint8Array[];
  ocspResponses: readonly Uint8Array[];
  crls: readonly Uint8Array[];
};

/** The signatures' /Contents values validated by `data`, as the bytes of the PDF string (padding included). */
export type DssEntry = { signatureContents: Uint8Array; data: ValidationData };

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

function streamBytes(context: PDFContext, ref: PDFRef): Uint8Array | null {
  const stream = context.lookup(ref);
  if (!(stream instanceof PDFRawStream)) return null;
  try {
    return decodePDFRawStream(stream).decode();
  } catch {
    return null;
  }
}

// One array of the DSS (/Certs, /OCSPs, /CRLs): existing streams are kept and indexed by content, so the
// same certificate is stored once however many signatures it validates.
class StreamArray {
  private readonly context: PDFContext;
  readonly array: PDFArray;
  readonly #byHash = new Map<string, PDFRef>();

  constructor(context: PDFContext, dss: PDFDict, key: string) {
    this.context = context;
    const existing = dss.lookup(PDFName.of(key));
    this.array = existing instanceof PDFArray ? existing : context.obj([]);
    dss.set(PDFName.of(key), this.array);
    for (let index = 0; index < this.array.size(); index += 1) {
      const ref = this.array.get(index);
      if (!(ref instanceof PDFRef)) continue;
      const bytes = streamBytes(context, ref);
      if (bytes !== null) this.#byHash.set(sha256(bytes), ref);
    }
  }

  add(bytes: Uint8Array): PDFRef {
    const hash = sha256(bytes);
    const known = this.#byHash.get(hash);
    if (known !== undefined) return known;
    const ref = this.context.register(this.context.flateStream(bytes));
    this.array.push(ref);
    this.#byHash.set(hash, ref);
    return ref;
  }
}

/** Appends the validation data of `entries` to the document's DSS (made when missing). */
export async function appendDss(pdf: Buffer, entries: readonly DssEntry[]): Promise<Buffer> {
  const increment = await appendIncrement(pdf, async (doc) => {
    const { context, catalog } = doc;
    let dss = catalog.lookup(PDFName.of('DSS'));
    if (!(dss instanceof PDFDict)) {
      dss = context.obj({ Type: 'DSS' });
      catalog.set(PDFName.of('DSS'), context.register(dss));
    }
    const store = dss as PDFDict;
    const certs = new StreamArray(context, store, 'Certs');
    const ocsps = new StreamArray(context, store, 'OCSPs');
    const crls = new StreamArray(context, store, 'CRLs');
    let vri = store.lookup(PDFName.of('VRI'));
    if (!(vri instanceof PDFDict)) {
      vri = context.obj({});
      store.set(PDFName.of('VRI'), vri);
    }
    for (const { signatureContents, data } of entries) {
      const key = createHash('sha1').update(signatureContents).digest('hex').toUpperCase();
      const refs = (items: readonly Uint8Array[], array: StreamArray): PDFRef[] => [
        ...new Set(items.map((der) => array.add(der))),
      ];
      const entry = context.obj({});
      const named: [string, PDFRef[]][] = [
        ['Cert', refs(data.certificates, certs)],
        ['OCSP', refs(data.ocspResponses, ocsps)],
        ['CRL', refs(data.crls, crls)],
      ];
      for (const [name, list] of named) {
        if (list.length > 0) entry.set(PDFName.of(name), context.obj(list));
      }
      (vri as PDFDict).set(PDFName.of(key), entry);
    }
    // Arrays left empty say nothing; readers expect an array to hold streams.
    for (const key of ['Certs', 'OCSPs', 'CRLs']) {
      const array = store.lookup(PDFName.of(key));
      if (array instanceof PDFArray && array.size() === 0) store.delete(PDFName.of(key));
    }
    return null;
  });
  return increment.pdf;
}

/** The file with an empty document time-stamp after everything else, and the digest its token must cover. */
export async function placeDocumentTimeStamp(pdf: Buffer): Promise<Placeholder> {
  const { byteRange, contents } = signatureValuePlaceholders(DOCUMENT_TIMESTAMP_BYTES);
  const increment = await appendIncrement(pdf, async (doc) => {
    const { context } = doc;
    const signatureRef = context.nextRef();
    const page = doc.getPage(0);
    addSignatureField(doc, { prefix: 'DocumentTimeStamp', signatureRef, page, rect: [0, 0, 0, 0] });
    const text = [
      '<<',
      '/Type /DocTimeStamp',
      '/Filter /Adobe.PPKLite',
      '/SubFilter /ETSI.RFC3161',
      byteRange,
      contents,
      '>>',
    ].join('\n');
    return { ref: signatureRef, text };
  });
  return placeholderOf(increment, DOCUMENT_TIMESTAMP_BYTES);
}

/** The bytes of a signature's /Contents as the file holds them (padding included): the key of its VRI entry. */
export function signatureContentsAt(
  pdf: Buffer,
  placeholder: Pick<Placeholder, 'contentsStart' | 'contentsEnd'>,
): Buffer {
  const hex = pdf.subarray(placeholder.contentsStart + 1, placeholder.contentsEnd - 1).toString('latin1');
  return Buffer.from(hex, 'hex');
}
