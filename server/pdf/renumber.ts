// Object numbers for a rewrite and for an update. pdf-lib writes every object its context holds, with the
// numbers it was given, and its writer lists two generations of one number as two entries in a row (every
// later entry of the table then names the wrong object). A file rewritten before its first signature
// therefore keeps only what its catalog and information dictionary reach, numbered 1..n, generation 0.
import { PDFArray, PDFDict, PDFNull, PDFRawStream, PDFRef, type PDFContext, type PDFObject } from 'pdf-lib';

/**
 * Replaces, inside `root` (not through references), each reference by `map(ref)`. A container already in
 * `done` is left alone: its references are new ones already, which `map` must not see again.
 */
export function replaceRefs(
  root: PDFObject,
  map: (ref: PDFRef) => PDFObject,
  done: Set<PDFObject> = new Set(),
): void {
  const pending: PDFObject[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (value === undefined || done.has(value)) continue;
    done.add(value);
    if (value instanceof PDFRawStream) {
      pending.push(value.dict);
    } else if (value instanceof PDFDict) {
      for (const [key, child] of value.entries()) {
        if (child instanceof PDFRef) value.set(key, map(child));
        else pending.push(child);
      }
    } else if (value instanceof PDFArray) {
      for (let index = 0; index < value.size(); index += 1) {
        const child = value.get(index);
        if (child instanceof PDFRef) value.set(index, map(child));
        else pending.push(child);
      }
    }
  }
}

function refsIn(root: PDFObject): PDFRef[] {
  const found: PDFRef[] = [];
  const pending: PDFObject[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (value instanceof PDFRef) found.push(value);
    else if (value instanceof PDFRawStream) pending.push(value.dict);
    else if (value instanceof PDFDict)
      pending.push(
        ...value
          .entries()
          .map(([, child]) => child)
          .reverse(),
      );
    else if (value instanceof PDFArray) pending.push(...value.asArray().slice().reverse());
  }
  return found;
}

/**
 * Keeps in `context` only the objects the trailer's /Root and /Info reach, renumbered 1..n in the order
 * they are reached, at generation 0. A reference to an object that does not exist becomes null, as
 * readers read it (kept, it could name one of the new numbers).
 */
export function compactObjects(context: PDFContext): void {
  const order: PDFRef[] = [];
  const renamed = new Map<PDFRef, PDFRef>();
  const reach = (ref: PDFRef): void => {
    if (renamed.has(ref) || context.lookup(ref) === undefined) return;
    renamed.set(ref, PDFRef.of(order.length + 1));
    order.push(ref);
  };
  const { Root, Info } = context.trailerInfo;
  for (const start of [Root, Info]) {
    if (start instanceof PDFRef) reach(start);
    else if (start !== undefined) refsIn(start).forEach(reach);
  }
  for (let index = 0; index < order.length; index += 1) {
    const object = context.lookup(order[index]);
    if (object !== undefined) refsIn(object).forEach(reach);
  }

  const rename = (ref: PDFRef): PDFObject => renamed.get(ref) ?? PDFNull;
  const done = new Set<PDFObject>();
  const kept = order.map((ref) => [ref, context.lookup(ref)] as const);
  for (const [ref] of context.enumerateIndirectObjects()) context.delete(ref);
  context.largestObjectNumber = 0;
  for (const [ref, object] of kept) {
    if (object === undefined) continue;
    replaceRefs(object, rename, done);
    context.assign(renamed.get(ref) ?? ref, object);
  }
  for (const key of ['Root', 'Info'] as const) {
    const value = context.trailerInfo[key];
    if (value instanceof PDFRef) context.trailerInfo[key] = renamed.get(value);
    else if (value !== undefined) replaceRefs(value, rename, done);
  }
}
