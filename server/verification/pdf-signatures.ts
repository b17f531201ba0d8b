// The signatures of a PDF as a viewer finds them: the signature fields of the interactive form (and, for
// files whose form lost track of them, the signature widgets on the pages), each with its signature
// dictionary (/V): /ByteRange, /Contents, /SubFilter, /M, /Name, /Reason, /Location. A document
// time-stamp is a signature dictionary of /Type /DocTimeStamp (or /SubFilter /ETSI.RFC3161).
import { PDFArray, PDFDict, PDFHexString, PDFName, PDFRef, PDFString, type PDFObject } from 'pdf-lib';
import { dateOf, numbersOf, textOf, type DocumentState } from './pdf-objects.ts';

export type SignatureKind = 'signature' | 'document_time_stamp';

export type SignatureDictionary = {
  /** The signature dictionary's object ("12 0 R"), or null when it is direct. */
  tag: string | null;
  fieldName: string | null;
  kind: SignatureKind;
  filter: string | null;
  subFilter: string | null;
  byteRange: number[] | null;
  contents: Buffer | null;
  signingTime: Date | null;
  name: string | null;
  reason: string | null;
  location: string | null;
  contactInfo: string | null;
};

const MAX_FIELD_DEPTH = 32;
const MAX_FIELDS = 10_000;

export function isSignatureValue(dict: PDFDict): boolean {
  return dict.has(PDFName.of('ByteRange')) && dict.has(PDFName.of('Contents'));
}

export function signatureKindOf(state: DocumentState, dict: PDFDict): SignatureKind {
  return state.name(dict, 'Type') === 'DocTimeStamp' || state.name(dict, 'SubFilter') === 'ETSI.RFC3161'
    ? 'document_time_stamp'
    : 'signature';
}

/** A field or widget whose field type (its own or inherited) is /Sig. */
export function isSignatureField(state: DocumentState, dict: PDFDict): boolean {
  let current: PDFDict | null = dict;
  for (let depth = 0; current !== null && depth < MAX_FIELD_DEPTH; depth += 1) {
    const type = state.name(current, 'FT');
    if (type !== null) return type === 'Sig';
    current = state.dict(current.get(PDFName.of('Parent')));
  }
  return false;
}

function contentsOf(value: PDFObject | undefined): Buffer | null {
  if (value instanceof PDFHexString || value instanceof PDFString) return Buffer.from(value.asBytes());
  return null;
}

function readDictionary(
  state: DocumentState,
  value: PDFObject | undefined,
  fieldName: string | null,
): SignatureDictionary | null {
  const dict = state.dict(value);
  if (dict === null || !isSignatureValue(dict)) return null;
  return {
    tag: value instanceof PDFRef ? value.tag : null,
    fieldName,
    kind: signatureKindOf(state, dict),
    filter: state.name(dict, 'Filter'),
    subFilter: state.name(dict, 'SubFilter'),
    byteRange: numbersOf(state.get(dict, 'ByteRange')),
    contents: contentsOf(state.get(dict, 'Contents')),
    signingTime: dateOf(state.get(dict, 'M')),
    name: textOf(state.get(dict, 'Name')),
    reason: textOf(state.get(dict, 'Reason')),
    location: textOf(state.get(dict, 'Location')),
    contactInfo: textOf(state.get(dict, 'ContactInfo')),
  };
}

function partialName(state: DocumentState, dict: PDFDict): string | null {
  return textOf(state.get(dict, 'T'));
}

/** Every signature dictionary the document's signature fields hold, each once. */
export function findSignatures(state: DocumentState): SignatureDictionary[] {
  const found: SignatureDictionary[] = [];
  const seenValues = new Set<string | PDFDict>();
  const seenFields = new Set<string | PDFDict>();
  const keyOf = (value: PDFObject | undefined, dict: PDFDict): string | PDFDict =>
    value instanceof PDFRef ? value.tag : dict;

  const take = (fieldValue: PDFObject | undefined, fieldName: string | null): void => {
    const dict = state.dict(fieldValue);
    if (dict === null) return;
    const key = keyOf(fieldValue, dict);
    if (seenValues.has(key)) return;
    const signature = readDictionary(state, fieldValue, fieldName);
    if (signature === null) return;
    seenValues.add(key);
    found.push(signature);
  };

  const walk = (entry: PDFObject | undefined, parentName: string | null, depth: number): void => {
    const field = state.dict(entry);
    if (field === null || depth > MAX_FIELD_DEPTH || seenFields.size > MAX_FIELDS) return;
    const key = keyOf(entry, field);
    if (seenFields.has(key)) return;
    seenFields.add(key);
    const own = partialName(state, field);
    const name = own === null ? parentName : parentName === null ? own : `${parentName}.${own}`;
    if (isSignatureField(state, field)) take(field.get(PDFName.of('V')), name);
    const kids = state.array(field, 'Kids');
    for (const kid of kids?.asArray() ?? []) walk(kid, name, depth + 1);
  };

  const catalog = state.catalog();
  const acroForm = catalog === null ? null : state.dict(catalog.get(PDFName.of('AcroForm')));
  for (const field of (acroForm === null ? null : state.array(acroForm, 'Fields'))?.asArray() ?? []) {
    walk(field, null, 0);
  }
  // Widgets on pages that the form does not list (a damaged or hand-made form) are still signatures a
  // viewer shows.
  for (const page of pagesOf(state)) {
    for (const annotation of state.array(page, 'Annots')?.asArray() ?? []) {
      const widget = state.dict(annotation);
      if (widget === null || !isSignatureField(state, widget)) continue;
      const holder = widget.has(PDFName.of('V')) ? widget : state.dict(widget.get(PDFName.of('Parent')));
      if (holder !== null) take(holder.get(PDFName.of('V')), partialName(state, holder));
    }
  }
  return found;
}

/** The page dictionaries, in order, through the page tree (loops and absurd depths are not followed). */
export function pagesOf(state: DocumentState): PDFDict[] {
  const catalog = state.catalog();
  const pages: PDFDict[] = [];
  const seen = new Set<PDFDict>();
  const visit = (node: PDFDict | null, depth: number): void => {
    if (node === null || seen.has(node) || depth > MAX_FIELD_DEPTH || pages.length > 100_000) return;
    seen.add(node);
    const kids = state.array(node, 'Kids');
    if (kids === null || state.name(node, 'Type') === 'Page') {
      pages.push(node);
      return;
    }
    for (const kid of kids.asArray()) visit(state.dict(kid), depth + 1);
  };
  visit(catalog === null ? null : state.dict(catalog.get(PDFName.of('Pages'))), 0);
  return pages;
}

/** The DSS's certificates, OCSP responses and CRLs, as the raw stream objects that hold them. */
export function dssStreams(
  state: DocumentState,
): { certs: PDFObject[]; ocsps: PDFObject[]; crls: PDFObject[] } | null {
  const catalog = state.catalog();
  const dss = catalog === null ? null : state.dict(catalog.get(PDFName.of('DSS')));
  if (dss === null) return null;
  const list = (key: string): PDFObject[] => {
    const array = state.get(dss, key);
    return array instanceof PDFArray ? array.asArray().flatMap((item) => state.resolve(item) ?? []) : [];
  };
  return { certs: list('Certs'), ocsps: list('OCSPs'), crls: list('CRLs') };
}
