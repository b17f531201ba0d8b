// Reading signatures back from a signed PDF, for the tests that check them: pdfsig's report (poppler, an
// independent verifier) and the signature pages' widgets.
import { PDFArray, PDFBool, PDFDict, type PDFDocument, PDFName } from 'pdf-lib';

export type PdfsigSignature = { isValid: boolean; isTotal: boolean; commonName: string | undefined };

/** Each signature pdfsig lists, in the file's order. */
export function parsePdfsigReport(report: string): PdfsigSignature[] {
  return report
    .split(/^Signature #\d+:$/m)
    .slice(1)
    .map((block) => ({
      isValid: block.includes('Signature Validation: Signature is Valid.'),
      isTotal: /^\s*- Total document signed$/m.test(block),
      commonName: /Signer Certificate Common Name: (.*)$/m.exec(block)?.[1],
    }));
}

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
