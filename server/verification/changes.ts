// What changed in a document after a signature: each object defined after the signed revision whose
// definition differs from the one the signature covered, sorted into the incremental updates a signed
// document may receive without changing what it shows (ISO 32000-2 §12.8.2.2, PAdES's LTV updates):
// - later signatures and document time-stamps: their signature dictionaries, fields, widgets and
//   appearances, the form's /Fields and /SigFlags, a page's /Annots gaining their widgets;
// - the DSS (PAdES B-LT): the catalog's /DSS and /Extensions, and everything the DSS holds;
// - metadata: the Info dictionary and the catalog's XMP stream, which viewers do not show as content;
// and anything else ("other"): a page's content, resources or tree, a changed earlier signature, a form
// field's value, an annotation that is not a signature's. Unreferenced new objects count as "other" too.
import { PDFArray, PDFDict, PDFName, PDFRawStream, PDFRef, type PDFObject } from 'pdf-lib';
import { fingerprint, type DocumentState } from './pdf-objects.ts';
import { isSignatureField, isSignatureValue, signatureKindOf, type SignatureKind } from './pdf-signatures.ts';

export type ChangeKind = SignatureKind | 'dss' | 'metadata' | 'other';

export const ALLOWED_CHANGES: ReadonlySet<ChangeKind> = new Set([
  'signature',
  'document_time_stamp',
  'dss',
  'metadata',
]);

// A widget or field never leads back to its page or its parent: those are not the signature's own.
const FIELD_LINKS = new Set(['P', 'Parent']);
const CATALOG_UPDATES: Record<string, ChangeKind | 'form'> = {
  DSS: 'dss',
  Extensions: 'dss',
  AcroForm: 'form',
  Metadata: 'metadata',
};
const FORM_UPDATES = new Set(['Fields', 'SigFlags', 'DR', 'DA']);
// What signing a field that was already there (empty) may change in it.
const FIELD_SIGNING_UPDATES = new Set(['V', 'AP', 'AS', 'F', 'Lock', 'SV']);

function changedKeys(before: PDFDict, after: PDFDict): string[] {
  const keys = new Set<string>();
  for (const [key, value] of after.entries()) {
    const old = before.get(key);
    if (old === undefined || old.toString() !== value.toString()) keys.add(key.decodeText());
  }
  for (const [key] of before.entries()) if (!after.has(key)) keys.add(key.decodeText());
  return [...keys];
}

function asDict(object: PDFObject | undefined): PDFDict | null {
  if (object instanceof PDFDict) return object;
  if (object instanceof PDFRawStream) return object.dict;
  return null;
}

type Signatures = {
  /** Signature dictionaries, by object, with their kind. */
  values: Map<string, SignatureKind>;
  /** Signature fields and widgets, by object, with the kind of the signature they hold. */
  fields: Map<string, SignatureKind>;
  /** What the signature widgets' appearances (and the form's default resources) use. */
  appearances: Map<string, SignatureKind>;
};

function signaturesOf(state: DocumentState): Signatures {
  const result: Signatures = { values: new Map(), fields: new Map(), appearances: new Map() };
  for (const [tag, object] of state.objects) {
    const dict = asDict(object);
    if (dict === null || object instanceof PDFRawStream) continue;
    if (isSignatureValue(dict)) result.values.set(tag, signatureKindOf(state, dict));
  }
  for (const [tag, object] of state.objects) {
    if (!(object instanceof PDFDict) || !isSignatureField(state, object)) continue;
    const value = state.dict(object.get(PDFName.of('V')));
    const kind = value !== null && isSignatureValue(value) ? signatureKindOf(state, value) : 'signature';
    result.fields.set(tag, kind);
    for (const used of state.reachable(object, FIELD_LINKS)) {
      if (!result.fields.has(used)) result.appearances.set(used, kind);
    }
  }
  return result;
}

/** An array (a form's /Fields, a page's /Annots) that only gained signature fields. */
function gainedOnlySignatures(
  state: DocumentState,
  before: PDFArray | null,
  after: PDFArray | null,
): ChangeKind | null {
  const old = new Set((before?.asArray() ?? []).map((item) => item.toString()));
  const current = after?.asArray() ?? [];
  if ([...old].some((item) => !current.some((entry) => entry.toString() === item))) return null;
  let kind: ChangeKind = 'signature';
  for (const entry of current) {
    if (old.has(entry.toString())) continue;
    const field = state.dict(entry);
    if (field === null || !isSignatureField(state, field)) return null;
    const value = state.dict(field.get(PDFName.of('V')));
    if (value !== null && isSignatureValue(value)) kind = signatureKindOf(state, value);
  }
  return kind;
}

function arrayIn(state: DocumentState, dict: PDFDict | null, key: string): PDFArray | null {
  return dict === null ? null : state.array(dict, key);
}

function formChange(
  before: DocumentState,
  after: DocumentState,
  oldForm: PDFDict | null,
  newForm: PDFDict | null,
): ChangeKind[] {
  if (newForm === null) return oldForm === null ? [] : ['other'];
  const keys =
    oldForm === null ? newForm.keys().map((key) => key.decodeText()) : changedKeys(oldForm, newForm);
  if (keys.some((key) => !FORM_UPDATES.has(key))) return ['other'];
  if (!keys.includes('Fields')) return keys.length === 0 ? [] : ['signature'];
  const kind = gainedOnlySignatures(
    after,
    arrayIn(before, oldForm, 'Fields'),
    arrayIn(after, newForm, 'Fields'),
  );
  return [kind ?? 'other'];
}

function catalogChange(before: DocumentState, after: DocumentState): ChangeKind[] {
  const oldCatalog = before.catalog();
  const newCatalog = after.catalog();
  if (newCatalog === null) return ['other'];
  if (oldCatalog === null) return ['other'];
  const kinds: ChangeKind[] = [];
  for (const key of changedKeys(oldCatalog, newCatalog)) {
    const update = CATALOG_UPDATES[key];
    if (update === undefined) kinds.push('other');
    else if (update === 'form') {
      kinds.push(
        ...formChange(
          before,
          after,
          before.dict(oldCatalog.get(PDFName.of('AcroForm'))),
          after.dict(newCatalog.get(PDFName.of('AcroForm'))),
        ),
      );
    } else kinds.push(update);
  }
  return kinds;
}

/**
 * The kinds of change between `before` (the revision a signature covers) and `after` (the document now),
 * over the objects defined after that revision (`redefined`).
 */
export function classifyChanges(
  before: DocumentState,
  after: DocumentState,
  redefined: ReadonlySet<string>,
): Set<ChangeKind> {
  const kinds = new Set<ChangeKind>(catalogChange(before, after));
  const catalogTags = new Set([before.root?.tag, after.root?.tag]);
  const newCatalog = after.catalog();
  const oldCatalog = before.catalog();
  const entry = (catalog: PDFDict | null, key: string) => catalog?.get(PDFName.of(key));
  const dss = after.reachable(entry(newCatalog, 'DSS'));
  const oldDss = before.reachable(entry(oldCatalog, 'DSS'));
  const form = after.dict(entry(newCatalog, 'AcroForm'));
  const formTag = refTag(entry(newCatalog, 'AcroForm'));
  const formResources = form === null ? new Set<string>() : after.reachable(form.get(PDFName.of('DR')));
  const metadataTags = new Set([after.info?.tag, refTag(entry(newCatalog, 'Metadata'))]);
  const signatures = signaturesOf(after);
  // Arrays held by reference that may gain signature widgets or fields: pages' /Annots, the form's /Fields.
  const growingArrays = new Set<string | undefined>([refTag(form?.get(PDFName.of('Fields')))]);
  for (const object of after.objects.values()) {
    if (object instanceof PDFDict && after.name(object, 'Type') === 'Page') {
      growingArrays.add(refTag(object.get(PDFName.of('Annots'))));
    }
  }

  for (const tag of redefined) {
    const now = after.objects.get(tag);
    if (now === undefined || catalogTags.has(tag)) continue;
    const then = before.objects.get(tag);
    if (then !== undefined && fingerprint(then) === fingerprint(now)) continue;
    const isNew = then === undefined;
    const valueKind = signatures.values.get(tag);
    const fieldKind = signatures.fields.get(tag);
    const appearanceKind = signatures.appearances.get(tag);
    if (dss.has(tag)) {
      kinds.add(isNew || oldDss.has(tag) ? 'dss' : 'other');
    } else if (valueKind !== undefined) {
      // A signature dictionary may be added, never rewritten.
      kinds.add(isNew ? valueKind : 'other');
    } else if (fieldKind !== undefined) {
      const old = asDict(then);
      const isSigningEmptyField =
        old !== null &&
        !old.has(PDFName.of('V')) &&
        changedKeys(old, asDict(now) ?? old).every((key) => FIELD_SIGNING_UPDATES.has(key));
      kinds.add(isNew || isSigningEmptyField ? fieldKind : 'other');
    } else if (appearanceKind !== undefined) {
      kinds.add(isNew ? appearanceKind : 'other');
    } else if (tag === formTag) {
      for (const kind of formChange(before, after, asDict(then), asDict(now))) kinds.add(kind);
    } else if (formResources.has(tag)) {
      kinds.add(isNew ? 'signature' : 'other');
    } else if (metadataTags.has(tag)) {
      kinds.add('metadata');
    } else if (now instanceof PDFDict && then instanceof PDFDict && after.name(now, 'Type') === 'Page') {
      const onlyAnnotations = changedKeys(then, now).every((key) => key === 'Annots');
      const kind = onlyAnnotations
        ? gainedOnlySignatures(after, arrayIn(before, then, 'Annots'), arrayIn(after, now, 'Annots'))
        : null;
      kinds.add(kind ?? 'other');
    } else if (now instanceof PDFArray && growingArrays.has(tag)) {
      kinds.add(gainedOnlySignatures(after, then instanceof PDFArray ? then : null, now) ?? 'other');
    } else {
      kinds.add('other');
    }
  }
  return kinds;
}

function refTag(value: PDFObject | undefined): string | undefined {
  return value instanceof PDFRef ? value.tag : undefined;
}
