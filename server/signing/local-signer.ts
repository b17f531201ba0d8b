// The embedded signer: PAdES B-LT signatures with the deployment's keys (./ca/), and B-LTA once a flow's
// last signature is in. Each signature is:
//  1. placed by the sign engine's sandboxed child (the first rewrite, the stamp, an empty value), which
//     answers the digest to sign;
//  2. signed here with the signer's key (async, off the event loop), its value time-stamped (B-T);
//  3. given its validation data in the DSS (B-LT): the chains of the signer's and the TSA's certificates
//     and an OCSP response for each, from the deployment's responder;
//  4. when it completes the flow, followed by a document time-stamp over the whole file (B-LTA).
// A time-stamping authority or OCSP responder that does not answer fails the signature with
// TimeStampUnavailableError / RevocationUnavailableError before anything is stored: the request can be
// confirmed again.
import { createHash, X509Certificate } from 'node:crypto';
import type { DeploymentPki } from './ca/index.ts';
import { signEngine } from './engine.ts';
import { fillPlaceholder } from './increment.ts';
import { signatureContentsAt, type ValidationData } from './ltv.ts';
import { buildCadesSignature } from './pki/cms.ts';
import { readTimeStampTokenOffThread, timeStampSignature } from './pki/tsa.ts';
import type { CertifiedKey } from './pki/types.ts';
import { signingServices, type SigningServices } from './services.ts';
import type { SignatureRequest, SignatureResult, Signer } from './signer.ts';

export type LocalSignerOptions = {
  pki: DeploymentPki;
  /** PARAPH_TSA_URL, or null (the default) for the embedded TSA. */
  tsaUrl?: string | null;
  /** Dates the certificates and the embedded services' answers (the signature's own time is the request's signedAt). */
  clock?: () => Date;
  /** The deployment's services (the app shares one set with its /pki/* routes); made from pki when absent. */
  services?: SigningServices;
};

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

// Hashing is synchronous: the SHA-256 of a file of tens of megabytes (before and after signing, as the
// version records them) is taken a slice per turn of the event loop, and one slice per turn for all the
// signatures under way together.
const HASH_SLICE_BYTES = 512 * 1024;
const sliceQueue: (() => void)[] = [];

function nextSlice(): void {
  sliceQueue.shift()?.();
  if (sliceQueue.length > 0) setImmediate(nextSlice);
}

const sliceTurn = (): Promise<void> =>
  new Promise((resolve) => {
    sliceQueue.push(resolve);
    if (sliceQueue.length === 1) setImmediate(nextSlice);
  });

export async function sha256OfFile(bytes: Uint8Array): Promise<string> {
  const hash = createHash('sha256');
  for (let offset = 0; offset < bytes.length; offset += HASH_SLICE_BYTES) {
    await sliceTurn();
    hash.update(bytes.subarray(offset, offset + HASH_SLICE_BYTES));
  }
  return hash.digest('hex');
}

const unique = (items: readonly Uint8Array[]): Uint8Array[] => {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = sha256(item);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
};

/**
 * What validates a signature made with `signer` whose value carries `token`: every certificate of both
 * chains and the deployment's OCSP responder's, and the responder's answer for each certificate the
 * deployment's CA issued (the roots need none; the responder's own certificate says it needs no check).
 */
async function validationData(
  pki: DeploymentPki,
  services: SigningServices,
  signer: CertifiedKey,
  token: Uint8Array | undefined,
): Promise<ValidationData> {
  const stamp = token === undefined ? null : await readTimeStampTokenOffThread(token);
  const ca = new X509Certificate(pki.ca.certificate);
  const isOurs = (der: Uint8Array): boolean => {
    const certificate = new X509Certificate(der);
    return certificate.checkIssued(ca) && certificate.verify(ca.publicKey);
  };
  const checked = unique([
    signer.certificate,
    ...(stamp?.signerCertificate === undefined ? [] : [stamp.signerCertificate]),
  ]).filter(isOurs);
  return {
    certificates: unique([
      signer.certificate,
      ...signer.chain,
      ...(stamp?.certificates ?? []),
      pki.ocspResponder.certificate,
    ]),
    ocspResponses: await Promise.all(checked.map((certificate) => services.ocsp.responseFor(certificate))),
    crls: [],
  };
}

/**
 * Signs with the signer's key from the deployment's PKI. `sign` throws PresignError for a PDF that cannot
 * be prepared (unreadable, encrypted, damaged, a placement page that does not exist); it never returns a
 * partly written file: the result exists only once every step is in it.
 */
export function createLocalSigner({
  pki,
  tsaUrl = null,
  clock = () => new Date(),
  services = signingServices(pki, { tsaUrl }, clock),
}: LocalSignerOptions): Signer {
  const engine = signEngine();
  return {
    async sign(request: SignatureRequest): Promise<SignatureResult> {
      const { pdf: original, ...place } = request;
      const sha256Before = await sha256OfFile(original);
      const placeholder = await engine.placeSignature(original, place);
      const key = await pki.signerKey(request.signer, clock());
      // The token is kept as it comes, for the DSS: reading it back out of the CMS would parse it again.
      let token: Uint8Array | undefined;
      const timeStampValue = timeStampSignature(services.timeStamper);
      const cms = await buildCadesSignature({
        contentDigest: placeholder.digest,
        signer: key,
        timeStamp: async (signatureValue) => (token = await timeStampValue(signatureValue)),
      });
      const signed = fillPlaceholder(placeholder, cms);
      const data = await validationData(pki, services, key, token);
      let pdf = await engine.appendDss(signed, [
        { signatureContents: signatureContentsAt(signed, placeholder), data },
      ]);
      if (request.completesFlow === true) {
        const stamp = await engine.placeDocumentTimeStamp(pdf);
        pdf = fillPlaceholder(stamp, await services.timeStamper.timeStamp(stamp.digest));
      }
      return {
        pdf: new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength),
        sha256Before,
        sha256After: await sha256OfFile(pdf),
      };
    },
  };
}
