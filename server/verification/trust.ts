// What a verification trusts and knows beyond the file: the deployment's trust anchors (its CA, or the top
// of the chain an operator gave with PARAPH_CA_CERT), and the CA's current CRL, so that a certificate
// revoked after the file was signed is reported revoked even though the file's own evidence says "good".
// A signature whose chain ends anywhere else is reported as "not from this deployment's trust list".
import type { AppDeps } from '../context.ts';

export type TrustContext = {
  /** The DER of every certificate verifications trust as a root. */
  anchors: Uint8Array[];
  /** The deployment CA's current CRLs (DER). */
  currentCrls: Uint8Array[];
};

export async function trustContext(deps: Pick<AppDeps, 'pki' | 'signingServices'>): Promise<TrustContext> {
  const [pki, services] = await Promise.all([deps.pki(), deps.signingServices()]);
  return { anchors: pki.trustAnchors, currentCrls: [await services.crl()] };
}
