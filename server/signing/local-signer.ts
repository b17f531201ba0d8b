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
// confirmed again. The embedded TSA has no outages: what it gets wrong is a bug, thrown as a plain Error.
import { createHash, X509Certificate } from 'node:crypto';
import type { DeploymentPki } from './ca/index.ts';
import { signEngine } from './engine.ts';
import { fillPlaceholder } from './increment.ts';
import { signatureContentsAt, type ValidationData } from './ltv.ts';
import { buildCadesSignature } from './pki/cms.ts';
import { readTimeStampTokenOffThread, timeStampSignature } from './pki/tsa.ts';
import { TimeStampUnavailableError } from './pki/errors.ts';
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
 * A remote TSA's certificate, issued by another CA, gets the answer of the responder it names (fetched
 * once and kept until its nextUpdate by the services); one that is not good makes the token worthless.
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
  const tsaCertificate = stamp?.signerCertificate;
  const external =
    stamp === null || tsaCertificate === undefined || isOurs(tsaCertificate) || isSelfIssued(tsaCertificate)
      ? null
      : await services.externalOcsp(tsaCertificate, stamp.certificates);
  if (external !== null && external.status.status !== 'good') {
    throw new TimeStampUnavailableError(
      `the TSA's certificate ${external.serialNumber} is ${external.status.status} according to its OCSP responder`,
    );
  }
  return {
    certificates: unique([
      signer.certificate,
      ...signer.chain,
      ...(stamp?.certificates ?? []),
      pki.ocspResponder.certificate,
      ...(external === null ? [] : [external.responder]),
    ]),
    ocspResponses: [
      ...(await Promise.all(checked.map((certificate) => services.ocsp.responseFor(certificate)))),
      ...(external === null ? [] : [external.der]),
    ],
    crls: [],
  };
}

const isSelfIssued = (der: Uint8Array): boolean => {
  const certificate = new X509Certificate(der);
  return certificate.checkIssued(certificate);
};

// The embedded TSA is code in this process: a token it cannot give, or one that does not check out, is a
// bug to fix, not an outage to wait out.
function embeddedFailure(error: unknown): unknown {
  if (!(error instanceof TimeStampUnavailableError)) return error;
  return new Error(`The embedded time-stamping authority failed: ${error.message}`, { cause: error });
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
  const signer: Signer = {
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
  if (services.embeddedTsa === null) return signer;
  return {
    sign: (request) => signer.sign(request).catch((error: unknown) => Promise.reject(embeddedFailure(error))),
  };
}
