// The embedded signer: a local certificate authority in the data folder, pdf-lib stamps, PAdES B-B
// signatures appended as incremental updates (server/signing/{ca,stamp,pades,cms}.ts).
import { createHash } from 'node:crypto';
import { loadOrCreateCa, signerCertificate } from './ca.ts';
import { appendSignature, prepareForSigning } from './pades.ts';
import type { SignatureRequest, SignatureResult, Signer } from './signer.ts';

export type LocalSignerOptions = {
  /** The server's data folder; the CA lives in <dataDir>/ca/. */
  dataDir: string;
  /** Dates the certificates (the signature's own time is the request's signedAt). */
  clock?: () => Date;
};

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/**
 * Creates (first start) or loads the CA, then signs. `sign` throws PresignError for a PDF that cannot be
 * prepared (unreadable, encrypted, damaged, a placement page that does not exist); it never returns a
 * partly written file: the result exists only once the signature is in it.
 */
export async function createLocalSigner({
  dataDir,
  clock = () => new Date(),
}: LocalSignerOptions): Promise<Signer> {
  const ca = await loadOrCreateCa(dataDir, clock);
  return {
    async sign(request: SignatureRequest): Promise<SignatureResult> {
      const sha256Before = sha256(request.pdf);
      const prepared = await prepareForSigning(request.pdf);
      const key = await signerCertificate(ca, request.signer, clock());
      const pdf = await appendSignature(prepared, request, key, [ca.certificateDer]);
      return {
        pdf: new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength),
        sha256Before,
        sha256After: sha256(pdf),
      };
    },
  };
}
