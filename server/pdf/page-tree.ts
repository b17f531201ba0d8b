// The page tree as readers take it, for pdf-lib. pdf-lib decides what a dictionary is when it parses it,
// by its /Type alone: a Pages node without /Type is a plain dictionary, so walking the tree fails
// ("catalog.Pages(...).traverse is not a function") or skips its pages, and a page whose /Parent is not a
// typed Pages node cannot inherit its attributes ("Parent.ascend is not a function"). Readers go by the
// tree's shape instead: a dictionary in /Kids with /Kids of its own is a Pages node, any other is a page
// (pdf.js and poppler both), and a node's parent is the node whose /Kids hold it, whatever /Parent says.
import {
  PDFArray,
  PDFCatalog,
  PDFDict,
  PDFInvalidObject,
  PDFName,
  PDFNumber,
  PDFPageLeaf,
  PDFPageTree,
  PDFRef,
  type PDFDocument,
  type PDFObject,
} from 'pdf-lib';

const KIDS = PDFName.of('Kids');
const PARENT = PDFName.of('Parent');
const TYPE = PDFName.of('Type');

type Place = { ref: PDFRef | null; replace: (object: PDFDict) => void };

function promote<T extends PDFDict>(
  doc: PDFDocument,
  value: PDFObject | undefined,
  place: Place,
  make: (entries: Map<PDFName, PDFObject>) => T,
  is: (object: PDFDict) => object is T,
): T | null {
  const object = value instanceof PDFRef ? doc.context.lookup(value) : value;
  if (!(object instanceof PDFDict)) return null;
  if (is(object)) return object;
  const promoted = make(new Map(object.entries()));
  if (place.ref !== null) doc.context.assign(place.ref, promoted);
  else place.replace(promoted);
  return promoted;
}

const isNodeDict = (dict: PDFDict): boolean => dict.lookup(KIDS) instanceof PDFArray;

/**
 * Gives the catalog and every node of the page tree the class readers' rules say (the objects' contents
 * unchanged), and sets each node's /Parent to the node that holds it (the root has none).
 */
export function normalisePageTree(doc: PDFDocument): void {
  const { context } = doc;
  const rootRef = context.trailerInfo.Root;
  const catalog = promote(
    doc,
    rootRef,
    { ref: rootRef instanceof PDFRef ? rootRef : null, replace: () => undefined },
    (entries) => PDFCatalog.fromMapWithContext(entries, context),
    (object): object is PDFCatalog => object instanceof PDFCatalog,
  );
  if (catalog === null) return;
  // The constructor read the catalog before it could be given its class.
  (doc as { catalog: PDFCatalog }).catalog = catalog;

  const seen = new Set<PDFDict>();
  const node = (value: PDFObject | undefined, place: Place): PDFDict | null => {
    const object = value instanceof PDFRef ? context.lookup(value) : value;
    if (!(object instanceof PDFDict)) return null;
    return isNodeDict(object)
      ? promote(
          doc,
          value,
          place,
          (entries) => PDFPageTree.fromMapWithContext(entries, context),
          (dict): dict is PDFPageTree => dict instanceof PDFPageTree,
        )
      : promote(
          doc,
          value,
          place,
          (entries) => PDFPageLeaf.fromMapWithContext(entries, context),
          (dict): dict is PDFPageLeaf => dict instanceof PDFPageLeaf,
        );
  };
  const walk = (tree: PDFPageTree, treeRef: PDFRef | null): void => {
    if (seen.has(tree)) return;
    seen.add(tree);
    const kids = tree.lookup(KIDS);
    if (!(kids instanceof PDFArray)) return;
    for (let index = 0; index < kids.size(); index += 1) {
      const value = kids.get(index);
      const ref = value instanceof PDFRef ? value : null;
      const kid = node(value, { ref, replace: (object) => kids.set(index, object) });
      if (kid === null) continue;
      if (treeRef !== null && kid.get(PARENT) !== treeRef) kid.set(PARENT, treeRef);
      if (kid instanceof PDFPageTree) walk(kid, ref);
    }
  };
  const pagesValue = catalog.get(PDFName.of('Pages'));
  const pagesRef = pagesValue instanceof PDFRef ? pagesValue : null;
  const root = node(pagesValue, {
    ref: pagesRef,
    replace: (object) => catalog.set(PDFName.of('Pages'), object),
  });
  if (!(root instanceof PDFPageTree)) return;
  if (root.has(PARENT)) root.delete(PARENT);
  walk(root, pagesRef);
}

/** Writes the /Type entries the tree's shape implies (for a file that is rewritten anyway). */
export function writePageTreeTypes(doc: PDFDocument): void {
  doc.catalog.set(TYPE, PDFName.of('Catalog'));
  const seen = new Set<PDFDict>();
  const walk = (tree: PDFDict): void => {
    if (seen.has(tree)) return;
    seen.add(tree);
    tree.set(TYPE, PDFName.of('Pages'));
    const kids = tree.lookup(KIDS);
    if (!(kids instanceof PDFArray)) return;
    for (let index = 0; index < kids.size(); index += 1) {
      const kid = kids.lookup(index);
      if (kid instanceof PDFPageTree) walk(kid);
      else if (kid instanceof PDFPageLeaf) kid.set(TYPE, PDFName.of('Page'));
    }
  };
  const root = doc.catalog.lookup(PDFName.of('Pages'));
  if (root instanceof PDFPageTree) walk(root);
}

function resolves(doc: PDFDocument, value: PDFObject | undefined): boolean {
  if (!(value instanceof PDFRef)) return true;
  const target = doc.context.lookup(value);
  return target !== undefined && !(target instanceof PDFInvalidObject);
}

/**
 * Why readers could disagree on the pages (null when they cannot): a node or page missing or unreadable,
 * a page's content missing, a loop, a /Count that is not the number of pages below it. Readers differ on
 * such a file (pdf.js trusts /Count, poppler recounts), so the pages a signer saw are not certain.
 */
export function pageTreeProblem(doc: PDFDocument): string | null {
  // A rebuilt file may have no catalog at all.
  const catalog = doc.catalog as PDFCatalog | undefined;
  if (!(catalog instanceof PDFCatalog)) return 'it has no catalog';
  const root = catalog.lookup(PDFName.of('Pages'));
  if (!(root instanceof PDFPageTree)) return 'it has no page tree';
  const seen = new Set<PDFDict>();
  let pages = 0;
  const count = (tree: PDFPageTree): number => {
    if (seen.has(tree)) throw new Error('its page tree loops');
    seen.add(tree);
    const kids = tree.lookup(KIDS);
    if (!(kids instanceof PDFArray)) throw new Error('a page tree node has no pages');
    let below = 0;
    for (let index = 0; index < kids.size(); index += 1) {
      if (!resolves(doc, kids.get(index))) throw new Error(`page ${pages + 1} is missing or unreadable`);
      const kid = kids.lookup(index);
      if (kid instanceof PDFPageTree) {
        below += count(kid);
      } else if (kid instanceof PDFPageLeaf) {
        pages += 1;
        below += 1;
        const contents = kid.get(PDFName.of('Contents'));
        const parts = contents instanceof PDFArray ? contents.asArray() : [contents];
        if (!parts.every((part) => resolves(doc, part)))
          throw new Error(`the content of page ${pages} is missing or unreadable`);
      } else {
        throw new Error(`page ${pages + 1} is not a dictionary`);
      }
    }
    const declared = tree.lookup(PDFName.of('Count'));
    if (!(declared instanceof PDFNumber) || declared.asNumber() !== below) {
      throw new Error('its page count does not match its pages');
    }
    return below;
  };
  try {
    if (count(root) < 1) return 'it has no pages';
  } catch (error) {
    return (error as Error).message;
  }
  return null;
}
