// The embedded signer: the deployment's CA (server/signing/ca/) issues each person's key, pdf-lib stamps,
// PAdES B-B signatures appended as incremental updates (server/signing/{stamp,pades,cms}.ts).
import { createHash } from 'node:crypto';
import type { DeploymentPki } from './ca/index.ts';
import { appendSignature, prepareForSigning } from './pades.ts';
import type { SignatureRequest, SignatureResult, Signer } from './signer.ts';

export type LocalSignerOptions = {
  /** The deployment's PKI (server/signing/ca/index.ts), which holds every signing key. */
  pki: DeploymentPki;
  /** Dates the certificates (the signature's own time is the request's signedAt). */
  clock?: () => Date;
};

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/**
 * Signs with the signer's key from the deployment's PKI. `sign` throws PresignError for a PDF that cannot
 * be prepared (unreadable, encrypted, damaged, a placement page that does not exist); it never returns a
 * partly written file: the result exists only once the signature is in it.
 */
export function createLocalSigner({ pki, clock = () => new Date() }: LocalSignerOptions): Signer {
  return {
    async sign(request: SignatureRequest): Promise<SignatureResult> {
      const sha256Before = sha256(request.pdf);
      const prepared = await prepareForSigning(request.pdf);
      const key = await pki.signerKey(request.signer, clock());
      const pdf = await appendSignature(prepared, request, key, key.chain);
      return {
        pdf: new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength),
        sha256Before,
        sha256After: sha256(pdf),
      };
    },
  };
}
