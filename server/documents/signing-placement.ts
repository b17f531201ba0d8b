// Where a signature goes (docs/decisions.md "Signing on the server"): the owner's own signature where
// they placed it; in a flow, the signatory's inline placement if the flow has one, else the flow's
// signature page. Resolved at confirmation, from the flow as it stands then.
import { PDFDocument } from 'pdf-lib';
import type { DocumentVersionRow, PlacementRow, SignFlowRow } from '../db/schema.ts';
import type { SignaturePlacement } from '../signing/signer.ts';

export type ResolvedPlacement = {
  placement: SignaturePlacement;
  // What the version row keeps of it (the columns of migration 0006).
  columns: Pick<DocumentVersionRow, 'sign_page_number' | 'page_number' | 'top_fraction' | 'left_fraction'>;
};

export function soloPlacement(version: DocumentVersionRow): ResolvedPlacement | null {
  const { sign_page_number: signPage, page_number: page, top_fraction: top, left_fraction: left } = version;
  // No box: the owner asked for a signature page.
  if (page === null && top === null && left === null && signPage !== null) {
    return {
      placement: { kind: 'page', signPageNumber: signPage },
      columns: { sign_page_number: signPage, page_number: null, top_fraction: null, left_fraction: null },
    };
  }
  if (page === null || top === null || left === null) return null;
  return {
    placement: { kind: 'inline', pageNumber: page, top: Number(top), left: Number(left) },
    columns: { sign_page_number: page, page_number: page, top_fraction: top, left_fraction: left },
  };
}

export function flowPlacement(
  flow: Pick<SignFlowRow, 'sign_page_number'>,
  placement: Pick<PlacementRow, 'page_number' | 'top_fraction' | 'left_fraction'> | undefined,
): ResolvedPlacement {
  if (placement === undefined) {
    return {
      placement: { kind: 'page', signPageNumber: flow.sign_page_number },
      columns: {
        sign_page_number: flow.sign_page_number,
        page_number: null,
        top_fraction: null,
        left_fraction: null,
      },
    };
  }
  return {
    placement: {
      kind: 'inline',
      pageNumber: placement.page_number,
      top: Number(placement.top_fraction),
      left: Number(placement.left_fraction),
    },
    columns: {
      sign_page_number: flow.sign_page_number,
      page_number: placement.page_number,
      top_fraction: placement.top_fraction,
      left_fraction: placement.left_fraction,
    },
  };
}

/**
 * A flow that places some signatories and puts the others on a signature page: the placements count the
 * document's own pages, so once a signature page stands before a placed page, that page has moved down
 * by the pages inserted. (A last-page signature page moves nothing.)
 */
export async function shiftPastSignaturePages(
  placement: SignaturePlacement,
  input: { signPageNumber: number; documentPages: number; currentPdf: Uint8Array | null },
): Promise<SignaturePlacement> {
  if (placement.kind !== 'inline' || input.signPageNumber === 0 || input.currentPdf === null) {
    return placement;
  }
  // Signature page N + 1 goes after page N: pages from N + 1 on move.
  const firstMoved = input.signPageNumber;
  if (placement.pageNumber < firstMoved) return placement;
  const current = await PDFDocument.load(input.currentPdf, {
    ignoreEncryption: true,
    updateMetadata: false,
    throwOnInvalidObject: false,
  });
  const inserted = Math.max(0, current.getPageCount() - input.documentPages);
  return { ...placement, pageNumber: placement.pageNumber + inserted };
}
