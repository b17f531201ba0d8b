// The CMS in a PAdES signature's /Contents (ETSI EN 319 142-1 baseline, ETSI.CAdES.detached): a detached
// SignedData over the PDF's byte ranges, SHA-256 and RSA PKCS #1 v1.5, with the signed attributes
// content-type, message-digest and signing-certificate-v2 and no others. No signing-time: the baseline
// forbids it and takes the claimed time from the signature dictionary's /M. With a time-stamp token over
// the signature value as the unsigned attribute signature-time-stamp, the signature is PAdES B-T.
import { MessageDigest, id_contentType, id_data, id_messageDigest } from '@peculiar/asn1-cms';
import type { CertifiedKey } from './types.ts';
import {
  ObjectIdentifierValue,
  SigningCertificateV2,
  bytes,
  decode,
  id_aa_signingCertificateV2,
  yieldToEventLoop,
} from './asn1.ts';
import { offThread } from './codec.ts';
import { digest, rsaSigning, type SignFunction } from './crypto.ts';
import { TimeStampUnavailableError } from './errors.ts';
import { attribute, buildSignedData, readSignedData } from './signed-data.ts';
import { checkTimeStampToken } from './tsa.ts';

/** id-aa-signatureTimeStampToken (RFC 3161 appendix A): a time-stamp token over the signature value. */
export const id_aa_signatureTimeStampToken = '1.2.840.113549.1.9.16.2.14';

export type CadesSignatureOptions = {
  /** SHA-256 of the signed content (the PDF without its /Contents). */
  contentDigest: Uint8Array;
  /** The signer's key, certificate and chain: the SignedData carries the certificate, then the chain. */
  signer: CertifiedKey;
  /**
   * Time-stamps the signature (B-T): answers a TimeStampToken (ContentInfo DER) over the SHA-256 of the
   * signature value it is given, as `timeStampSignature(stamper)` from tsa.ts does.
   */
  timeStamp?: (signatureValue: Uint8Array) => Promise<Uint8Array>;
};

/**
 * The DER of a detached CMS SignedData for a PAdES signature. Throws TimeStampUnavailableError (from
 * `timeStamp`, or for a token that is not over this signature) rather than return a signature without the
 * time-stamp it was asked for. The ASN.1 is written on the codec thread (codec.ts); the key signs here.
 */
export async function buildCadesSignature({
  contentDigest,
  signer,
  timeStamp,
}: CadesSignatureOptions): Promise<Uint8Array> {
  const sign = rsaSigning(signer.privateKey, signer.certificate, 'signer');
  return offThread(
    'cades',
    { contentDigest, certificate: signer.certificate, chain: signer.chain },
    timeStamp ? { sign, timeStamp } : { sign },
  );
}

export type CadesInput = {
  contentDigest: Uint8Array;
  certificate: Uint8Array;
  chain: readonly Uint8Array[];
};

export type CadesCalls = {
  sign: SignFunction;
  timeStamp?: (signatureValue: Uint8Array) => Promise<Uint8Array>;
};

/** buildCadesSignature's ASN.1, on the codec thread. */
export function assembleCadesSignature(
  { contentDigest, certificate, chain }: CadesInput,
  { sign, timeStamp }: CadesCalls,
): Promise<Uint8Array> {
  return buildSignedData({
    contentType: id_data,
    contentDigest,
    signer: { certificate, sign },
    certificates: [certificate, ...chain],
    unsignedAttributes: timeStamp
      ? async (signatureValue) => {
          const token = await timeStamp(signatureValue);
          await yieldToEventLoop();
          try {
            await checkTimeStampToken(token, digest('sha256', signatureValue));
          } catch (error) {
            const detail = error instanceof Error ? error.message : 'the token is unreadable';
            throw new TimeStampUnavailableError(detail, { cause: error });
          }
          return [attribute(id_aa_signatureTimeStampToken, token)];
        }
      : undefined,
  });
}

export type CadesSignature = {
  /** The signer's certificate, as carried. */
  signerCertificate: Uint8Array;
  /** Every certificate of the SignedData, in order. */
  certificates: Uint8Array[];
  /** The signed attributes' types, in their (DER) order. */
  signedAttributeTypes: string[];
  /** The message-digest attribute: the SHA-256 of the signed content. */
  messageDigest: Uint8Array;
  /** The content-type attribute. */
  contentType: string;
  /** The signing-certificate-v2 attribute's first certificate hash (SHA-256 when no algorithm is named). */
  signingCertificateHash?: { hashAlgorithm: string | undefined; hash: Uint8Array };
  digestAlgorithm: string;
  signatureAlgorithm: string;
  signatureValue: Uint8Array;
  /** The signature-time-stamp token (ContentInfo DER), for B-T and above. */
  timeStampToken?: Uint8Array;
  /** The signed attributes as the signature covers them. */
  signedAttributes: Uint8Array;
};

/** Reads a CAdES signature as buildCadesSignature writes it. Throws for a CMS that is not one. */
export function readCadesSignature(der: Uint8Array): CadesSignature {
  const view = readSignedData(der);
  const [signer, ...others] = view.signers;
  if (!signer || others.length > 0) throw new Error('Not a CMS signature with one signer');
  if (!signer.certificate) throw new Error("The signer's certificate is not in the CMS signature");
  const messageDigest = signer.attribute(id_messageDigest);
  const contentType = signer.attribute(id_contentType);
  if (!messageDigest || !contentType || !signer.signedAttributesDer) {
    throw new Error('The CMS signature lacks the content-type or message-digest attribute');
  }
  const essValue = signer.attribute(id_aa_signingCertificateV2);
  const essFirst = essValue ? decode(essValue, SigningCertificateV2).certs[0] : undefined;
  return {
    signerCertificate: signer.certificate,
    certificates: view.certificates,
    signedAttributeTypes: (signer.info.signedAttrs ?? []).map((item) => item.attrType),
    messageDigest: bytes(decode(messageDigest, MessageDigest).buffer),
    contentType: decode(contentType, ObjectIdentifierValue).value,
    signingCertificateHash: essFirst
      ? { hashAlgorithm: essFirst.hashAlgorithm?.algorithm, hash: bytes(essFirst.certHash.buffer) }
      : undefined,
    digestAlgorithm: signer.info.digestAlgorithm.algorithm,
    signatureAlgorithm: signer.info.signatureAlgorithm.algorithm,
    signatureValue: bytes(signer.info.signature.buffer),
    timeStampToken: signer.unsignedAttribute(id_aa_signatureTimeStampToken),
    signedAttributes: signer.signedAttributesDer,
  };
}
