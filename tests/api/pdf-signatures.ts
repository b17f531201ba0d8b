// Reading signatures back from a signed PDF, for the tests that check them: pdfsig's report (poppler, an
// independent verifier) and the signature pages' widgets.
import { PDFArray, PDFBool, PDFDict, type PDFDocument, PDFName } from 'pdf-lib';

export type PdfsigSignature = { isValid: boolean; isTotal: boolean; commonName: string | undefined };

/**
 * Each signature pdfsig lists, in the file's order; a document time-stamp (B-LTA's last revision) is no
 * one's signature and is left out (documentTimeStamps counts them).
 */
export function parsePdfsigReport(report: string): PdfsigSignature[] {
  return pdfsigBlocks(report)
    .filter((block) => !isDocumentTimeStamp(block))
    .map((block) => ({
      isValid: block.includes('Signature Validation: Signature is Valid.'),
      isTotal: /^\s*- Total document signed$/m.test(block),
      commonName: /Signer Certificate Common Name: (.*)$/m.exec(block)?.[1],
    }));
}

/** The document time-stamps pdfsig lists, and whether each covers the whole file. */
export function documentTimeStamps(report: string): { isTotal: boolean }[] {
  return pdfsigBlocks(report)
    .filter(isDocumentTimeStamp)
    .map((block) => ({ isTotal: /^\s*- Total document signed$/m.test(block) }));
}

const pdfsigBlocks = (report: string): string[] => report.split(/^Signature #\d+:$/m).slice(1);

// Poppler does not know the ETSI.RFC3161 sub-filter ("Signature Type: unknown"); the field is ours.
const isDocumentTimeStamp = (block: string): boolean =>
  /Signature Field Name: DocumentTimeStamp\d/.test(block);

/** The indexes of the pages the signing engine added to hold signatures. */
export function signaturePageIndexes(doc: PDFDocument): number[] {
  return doc
    .getPages()
    .flatMap((page, index) =>
      page.node.lookup(PDFName.of('ParaphSignaturePage')) === PDFBool.True ? [index] : [],
    );
}

/** How many signature fields a page carries. */
export function signatureWidgetCount(doc: PDFDocument, pageIndex: number): number {
  const annots = doc.getPage(pageIndex).node.lookup(PDFName.of('Annots'));
  if (!(annots instanceof PDFArray)) return 0;
  return annots.asArray().filter((_, index) => {
    const annot = annots.lookup(index);
    return annot instanceof PDFDict && annot.lookup(PDFName.of('FT')) === PDFName.of('Sig');
  }).length;
}

/**
 * True when everything after the last CAdES signature is long-term validation data: incremental updates
 * that each hold a DSS and change nothing a reader shows, and at most a document time-stamp, which then
 * covers the whole file. What a B-LT or B-LTA file looks like after its last signature.
 */
export function onlyValidationDataAfterLastSignature(pdf: Uint8Array): boolean {
  const text = Buffer.from(pdf).toString('latin1');
  const signature = [
    ...text.matchAll(/\/SubFilter \/ETSI\.CAdES\.detached\s*\/ByteRange \[(\d+) (\d+) (\d+) (\d+)\s*\]/g),
  ].at(-1);
  if (signature === undefined) return false;
  const updates = text
    .slice(Number(signature[3]) + Number(signature[4]))
    .split('%%EOF')
    .slice(0, -1);
  const isDss = (update: string): boolean =>
    update.includes('/Type /DSS') && !/\/Type \/Page\b|\/Subtype \/Widget|\/ByteRange/.test(update);
  const stamps = updates.filter((update) => update.includes('/Type /DocTimeStamp'));
  if (updates.length === 0 || stamps.length > 1) return false;
  if (!updates.every((update) => isDss(update) || update.includes('/Type /DocTimeStamp'))) return false;
  if (stamps.length === 0) return true;
  const last = [...text.matchAll(/\/ByteRange \[(\d+) (\d+) (\d+) (\d+)\s*\]/g)].at(-1);
  return last !== undefined && Number(last[3]) + Number(last[4]) === pdf.length;
}
