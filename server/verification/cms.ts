// One CMS SignedData checked (RFC 5652 §5.4, §5.6): a PDF signature's /Contents, or a time-stamp token.
// The signer's certificate is found by its identifier among the certificates the CMS carries; the
// message-digest attribute must equal the digest of the signed content, and the signature must verify over
// the signed attributes exactly as encoded (their [0] tag read as the SET it stands for). The ESS
// signing-certificate attribute, when present, must name that same certificate.
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import { ContentInfo, type Attribute } from '@peculiar/asn1-cms';
import { Time } from '@peculiar/asn1-x509';
import { checkSignature, digest, digestName } from './algorithms.ts';
import {
  bytesOf,
  OID,
  RevocationInfoArchival,
  SigningCertificate,
  SigningCertificateV2,
  VerifiedSignedData,
  type VerifiedSignerInfo,
} from './asn1.ts';
import { parseCertificate, type ParsedCertificate } from './certificates.ts';
import type { RevocationEvidence } from './revocation.ts';

/** What a CMS signs: the byte ranges of a PDF, or its own encapsulated content (a TSTInfo). */
export type SignedContent = { kind: 'detached'; parts: readonly Uint8Array[] } | { kind: 'encapsulated' };

export type CmsCheck = {
  signedData: VerifiedSignedData;
  signerInfo: VerifiedSignerInfo;
  certificates: ParsedCertificate[];
  signer: ParsedCertificate | null;
  /** Node's name of the digest algorithm ("sha256"), null when unknown. */
  digestAlgorithm: string | null;
  digestMatches: boolean;
  signatureVerifies: boolean;
  /** An algorithm this verifier does not know: nothing could be decided. */
  isUnsupported: boolean;
  /** false when the ESS signing-certificate attribute names another certificate. */
  signingCertificateMatches: boolean;
  signingTime: Date | null;
  /** The encapsulated content's bytes (a time-stamp token's TSTInfo). */
  encapsulatedContent: Buffer | null;
};

export class UnreadableCmsError extends Error {}

function attribute(attributes: readonly Attribute[] | undefined, type: string): ArrayBuffer | null {
  return attributes?.find((item) => item.attrType === type)?.attrValues[0] ?? null;
}

export function attributeValues(attributes: readonly Attribute[] | undefined, type: string): ArrayBuffer[] {
  return attributes?.filter((item) => item.attrType === type).flatMap((item) => item.attrValues) ?? [];
}

/** The SignedData inside a ContentInfo, or UnreadableCmsError. PDF padding after it is ignored. */
export function readSignedData(der: Uint8Array): VerifiedSignedData {
  try {
    const info = AsnConvert.parse(der, ContentInfo);
    if (info.contentType !== OID.signedData) throw new UnreadableCmsError('not a SignedData');
    return AsnConvert.parse(info.content, VerifiedSignedData);
  } catch (error) {
    if (error instanceof UnreadableCmsError) throw error;
    throw new UnreadableCmsError(error instanceof Error ? error.message : String(error));
  }
}

function findSigner(
  signerInfo: VerifiedSignerInfo,
  certificates: ParsedCertificate[],
): ParsedCertificate | null {
  const { issuerAndSerialNumber, subjectKeyIdentifier } = signerInfo.sid;
  if (issuerAndSerialNumber !== undefined) {
    const serial = Buffer.from(issuerAndSerialNumber.serialNumber)
      .toString('hex')
      .toUpperCase()
      .replace(/^(00)+(?=.)/, '');
    const issuer = Buffer.from(AsnConvert.serialize(issuerAndSerialNumber.issuer));
    return (
      certificates.find(
        (certificate) =>
          certificate.serialNumber.replace(/^(00)+(?=.)/, '') === serial &&
          Buffer.from(AsnConvert.serialize(certificate.asn.tbsCertificate.issuer)).equals(issuer),
      ) ?? null
    );
  }
  if (subjectKeyIdentifier !== undefined) {
    const wanted = bytesOf(subjectKeyIdentifier.buffer).toString('hex').toUpperCase();
    return (
      certificates.find((certificate) => {
        const ski = certificate.asn.tbsCertificate.extensions?.find((item) => item.extnID === '2.5.29.14');
        if (ski === undefined) return false;
        try {
          return (
            bytesOf(AsnConvert.parse(ski.extnValue, OctetString).buffer).toString('hex').toUpperCase() ===
            wanted
          );
        } catch {
          return false;
        }
      }) ?? null
    );
  }
  return null;
}

function signingCertificateMatches(
  signerInfo: VerifiedSignerInfo,
  signer: ParsedCertificate | null,
): boolean {
  if (signer === null) return true;
  const v2 = attribute(signerInfo.signedAttrs, OID.signingCertificateV2);
  const v1 = attribute(signerInfo.signedAttrs, OID.signingCertificate);
  try {
    if (v2 !== null) {
      const first = AsnConvert.parse(v2, SigningCertificateV2).certs[0];
      if (first === undefined) return false;
      const hash = digestName(first.hashAlgorithm?.algorithm ?? OID.sha256);
      return hash !== null && digest(hash, signer.der).equals(bytesOf(first.certHash.buffer));
    }
    if (v1 !== null) {
      const first = AsnConvert.parse(v1, SigningCertificate).certs[0];
      return first !== undefined && digest('sha1', signer.der).equals(bytesOf(first.certHash.buffer));
    }
  } catch {
    return false;
  }
  return true;
}

function signingTimeOf(signerInfo: VerifiedSignerInfo): Date | null {
  const value = attribute(signerInfo.signedAttrs, OID.signingTime);
  if (value === null) return null;
  try {
    return AsnConvert.parse(value, Time).getTime();
  } catch {
    return null;
  }
}

/**
 * Checks the first SignerInfo of `der` (PAdES and RFC 3161 allow exactly one) against `content`. Throws
 * UnreadableCmsError when `der` is not a SignedData this verifier can read.
 */
export async function checkSignedData(der: Uint8Array, content: SignedContent): Promise<CmsCheck> {
  const signedData = readSignedData(der);
  const signerInfo = signedData.signerInfos[0];
  if (signerInfo === undefined) throw new UnreadableCmsError('no SignerInfo');
  const certificates = (signedData.certificates ?? []).flatMap((item) => {
    const parsed = parseCertificate(new Uint8Array(item));
    return parsed === null ? [] : [parsed];
  });
  const signer = findSigner(signerInfo, certificates);
  const digestAlgorithm = digestName(signerInfo.digestAlgorithm.algorithm);
  const eContent = signedData.encapContentInfo.eContent;
  const encapsulatedContent =
    eContent?.single !== undefined
      ? bytesOf(eContent.single.buffer)
      : eContent?.any !== undefined
        ? bytesOf(eContent.any)
        : null;
  const signedParts: readonly Uint8Array[] =
    content.kind === 'detached' ? content.parts : encapsulatedContent === null ? [] : [encapsulatedContent];

  const result: CmsCheck = {
    signedData,
    signerInfo,
    certificates,
    signer,
    digestAlgorithm,
    digestMatches: false,
    signatureVerifies: false,
    isUnsupported: digestAlgorithm === null,
    signingCertificateMatches: signingCertificateMatches(signerInfo, signer),
    signingTime: signingTimeOf(signerInfo),
    encapsulatedContent,
  };
  if (digestAlgorithm === null || signer === null) return result;

  const signature = bytesOf(signerInfo.signature.buffer);
  const algorithm = signerInfo.signatureAlgorithm.algorithm;
  if (signerInfo.signedAttrsRaw === undefined) {
    // No signed attributes: the signature is over the content itself.
    const data = Buffer.concat(signedParts);
    const check = await checkSignature(algorithm, digestAlgorithm, data, signer.x509.publicKey, signature);
    result.isUnsupported = check === 'unsupported';
    result.signatureVerifies = check === 'valid';
    result.digestMatches = check === 'valid';
    return result;
  }
  const messageDigest = attribute(signerInfo.signedAttrs, OID.messageDigest);
  if (messageDigest !== null) {
    try {
      const expected = bytesOf(AsnConvert.parse(messageDigest, OctetString).buffer);
      result.digestMatches = digest(digestAlgorithm, ...signedParts).equals(expected);
    } catch {
      result.digestMatches = false;
    }
  }
  // The signature covers the DER of the attributes as a SET OF: the same bytes under the SET tag.
  const signedAttributes = Buffer.from(bytesOf(signerInfo.signedAttrsRaw));
  signedAttributes[0] = 0x31;
  const check = await checkSignature(
    algorithm,
    digestAlgorithm,
    signedAttributes,
    signer.x509.publicKey,
    signature,
  );
  result.isUnsupported = check === 'unsupported';
  result.signatureVerifies = check === 'valid';
  return result;
}

/** The revocation evidence a CMS carries: its RevocationInfoChoices and Adobe's archival attribute. */
export function collectRevocationEvidence(check: CmsCheck, evidence: RevocationEvidence): void {
  for (const choice of check.signedData.crls ?? [])
    evidence.addRevocationChoice(new Uint8Array(choice), 'signature');
  for (const value of attributeValues(check.signerInfo.signedAttrs, OID.adobeRevocationInfoArchival)) {
    try {
      const archive = AsnConvert.parse(value, RevocationInfoArchival);
      for (const crl of archive.crl ?? []) evidence.addCrl(new Uint8Array(crl), 'signature');
      for (const ocsp of archive.ocsp ?? []) evidence.addOcspResponse(new Uint8Array(ocsp), 'signature');
    } catch {
      // An archive this verifier cannot read adds nothing.
    }
  }
}
