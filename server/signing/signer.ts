// The signer interface between the sign pipeline (server/documents/signing-*.ts, the /idp/ confirmation)
// and the engine that stamps and signs PDFs (server/signing/*). The embedded default is a local
// certificate authority with pdf-lib stamps and a PAdES signature; an HSM or a trust service provider
// would implement the same type.
import type { SmartCardType } from './smart-card-type.ts';
import type { StampLocale } from './stamp-text.ts';

/** Where the visible signature goes. */
export type SignaturePlacement =
  // The box's top-left corner as fractions of the page (the sign flow's placements, spec 001 §9:
  // 28 % of the page width wide, 15 % of the page width high).
  | { kind: 'inline'; pageNumber: number; top: number; left: number }
  // A signature page: 0 last, 1 first, N + 1 after page N (the sign flow's sign_page_number). Each later
  // signer of the same flow adds their box to the signature page the first signer created.
  | { kind: 'page'; signPageNumber: number };

export type SignerIdentity = {
  userId: string;
  fullName: string;
  email: string;
};

export type SignatureRequest = {
  pdf: Uint8Array;
  signer: SignerIdentity;
  smartCardType: SmartCardType;
  /** The signer's profile language: the stamp's labels, date and level are written in it. */
  locale: StampLocale;
  location: string;
  reason: string;
  signedAt: Date;
  placement: SignaturePlacement;
  // How many signatures this document already carries from this flow (0 for the first): decides
  // where on a shared signature page this one's box goes.
  signatureIndex: number;
  // This signature ends the flow (or is the owner's own): a document time-stamp over the whole file
  // follows it (PAdES B-LTA).
  completesFlow?: boolean;
};

export type SignatureResult = {
  pdf: Uint8Array;
  sha256Before: string;
  sha256After: string;
};

/** The PDF cannot be prepared for signing (damaged, encrypted, a page out of range): presign_error. */
export class PresignError extends Error {
  readonly code = 'presign_error';
}

export type Signer = {
  sign(request: SignatureRequest): Promise<SignatureResult>;
};
