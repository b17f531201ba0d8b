// RFC 5652 SignedData with one signer, the shape both PAdES signatures (cms.ts) and RFC 3161 time-stamp
// tokens (tsa.ts) take: written with signed attributes in DER order, read back, and checked.
import { AsnAnyConverter, OctetString } from '@peculiar/asn1-schema';
import {
  Attribute,
  CMSVersion,
  DigestAlgorithmIdentifiers,
  EncapsulatedContent,
  EncapsulatedContentInfo,
  IssuerAndSerialNumber,
  MessageDigest,
  SignerIdentifier,
  SignerInfo,
  SignerInfos,
  id_contentType,
  id_data,
  id_messageDigest,
  id_signedData,
} from '@peculiar/asn1-cms';
import { GeneralName, GeneralNames } from '@peculiar/asn1-x509';
import {
  AttributeSet,
  EssCertIdV2,
  IssuerSerial,
  ObjectIdentifierValue,
  RawCertificateSet,
  SignedData,
  SignedDataContentInfo,
  SigningCertificateV2,
  arrayBuffer,
  bytes,
  decode,
  encode,
  id_aa_signingCertificateV2,
  sameBytes,
  yieldToEventLoop,
} from './asn1.ts';
import { readCertificate, keyIdentifier, type CertificateFacts } from './certificates.ts';
import {
  OID,
  digest,
  digestName,
  rsaIdentifier,
  sha256Identifier,
  verifySignature,
  type SignFunction,
} from './crypto.ts';

export const attribute = (type: string, value: Uint8Array): Attribute =>
  new Attribute({ attrType: type, attrValues: [arrayBuffer(value)] });

/**
 * ESS signing-certificate-v2 (RFC 5035) naming `certificate`: its SHA-256 (the DEFAULT hash, so the
 * hashAlgorithm is left out as DER requires) and its issuer and serial number.
 */
export function signingCertificateV2(certificate: CertificateFacts): Uint8Array {
  const essCertId = new EssCertIdV2({
    certHash: new OctetString(digest('sha256', certificate.der)),
    issuerSerial: new IssuerSerial({
      issuer: new GeneralNames([new GeneralName({ directoryName: certificate.issuer })]),
      serialNumber: certificate.serialNumber,
    }),
  });
  return encode(new SigningCertificateV2({ certs: [essCertId] }));
}

/** DER's SET OF: the members ordered by their encodings (X.690 11.6), which is what the signature covers. */
function derOrdered(attributes: Attribute[]): Attribute[] {
  return attributes
    .map((item) => ({ item, der: Buffer.from(encode(item)) }))
    .sort((a, b) => Buffer.compare(a.der, b.der))
    .map(({ item }) => item);
}

/** Who signs: their certificate, and their RSA key's signature (rsaSigning in crypto.ts, or a call for it). */
export type SignedBy = { certificate: Uint8Array; sign: SignFunction };

export type SignedDataOptions = {
  contentType: string;
  /** The content, for an encapsulated SignedData; absent for a detached one. */
  content?: Uint8Array;
  /** SHA-256 of the content. */
  contentDigest: Uint8Array;
  signer: SignedBy;
  /** Certificates carried in the SignedData, in this order, as given (the signer's first). */
  certificates: readonly Uint8Array[];
  /** Unsigned attributes made from the signature value once it exists (a time-stamp token). */
  unsignedAttributes?: (signatureValue: Uint8Array) => Promise<Attribute[]>;
};

/**
 * The DER of a ContentInfo holding a SignedData signed by `signer` (RSA PKCS #1 v1.5, SHA-256) with the
 * signed attributes content-type, message-digest and signing-certificate-v2, and no others.
 */
export async function buildSignedData(options: SignedDataOptions): Promise<Uint8Array> {
  const contentInfo = await signData(options);
  await yieldToEventLoop();
  return encode(contentInfo);
}

/** buildSignedData's ContentInfo before it is written, for a structure that carries it (TimeStampResp). */
export async function signData(options: SignedDataOptions): Promise<SignedDataContentInfo> {
  const { signer, contentDigest } = options;
  if (contentDigest.length !== 32) throw new Error('The content digest is not a SHA-256 digest');
  const certificate = readCertificate(signer.certificate);
  for (const der of options.certificates) assertCarriedIntact(readCertificate(der));

  const signedAttributes = derOrdered([
    attribute(id_contentType, encode(new ObjectIdentifierValue(options.contentType))),
    attribute(id_messageDigest, encode(new MessageDigest(contentDigest))),
    attribute(id_aa_signingCertificateV2, signingCertificateV2(certificate)),
  ]);
  // The signature covers the attributes under the SET tag; the SignerInfo carries the same content as [0].
  const signature = await signer.sign(encode(new AttributeSet(signedAttributes)));
  const unsignedAttributes = options.unsignedAttributes ? await options.unsignedAttributes(signature) : [];

  const signerInfo = new SignerInfo({
    version: CMSVersion.v1,
    sid: new SignerIdentifier({
      issuerAndSerialNumber: new IssuerAndSerialNumber({
        issuer: certificate.issuer,
        serialNumber: certificate.serialNumber,
      }),
    }),
    digestAlgorithm: sha256Identifier(),
    signedAttrs: signedAttributes,
    signatureAlgorithm: rsaIdentifier(OID.rsaEncryption),
    signature: new OctetString(signature),
    unsignedAttrs: unsignedAttributes.length > 0 ? unsignedAttributes : undefined,
  });
  const signedData = new SignedData({
    // RFC 5652 5.1: version 3 when the content is not id-data.
    version: options.contentType === id_data ? CMSVersion.v1 : CMSVersion.v3,
    digestAlgorithms: new DigestAlgorithmIdentifiers([sha256Identifier()]),
    encapContentInfo: new EncapsulatedContentInfo({
      eContentType: options.contentType,
      eContent: options.content
        ? new EncapsulatedContent({ single: new OctetString(options.content) })
        : undefined,
    }),
    certificates:
      options.certificates.length > 0
        ? new RawCertificateSet(options.certificates.map((der) => arrayBuffer(der)))
        : undefined,
    signerInfos: new SignerInfos([signerInfo]),
  });
  return new SignedDataContentInfo({ contentType: id_signedData, content: signedData });
}

const intact = new WeakMap<CertificateFacts, boolean>();

/**
 * Throws unless the certificate comes out of asn1-schema's ANY exactly as it went in (it does for DER): a
 * certificate changed on the way no longer matches its issuer's signature or the signing-certificate-v2 hash.
 */
function assertCarriedIntact(certificate: CertificateFacts): void {
  let same = intact.get(certificate);
  if (same === undefined) {
    same = sameBytes(encode(AsnAnyConverter.toASN(arrayBuffer(certificate.der))), certificate.der);
    intact.set(certificate, same);
  }
  if (!same)
    throw new Error(`The certificate ${certificate.serialHex} is not DER: it cannot be carried as it is`);
}

export type SignerView = {
  info: SignerInfo;
  /** The signer's certificate, found among the SignedData's certificates. */
  certificate?: Uint8Array;
  /** The signed attributes as the signature covers them (a SET), when there are signed attributes. */
  signedAttributesDer?: Uint8Array;
  attribute(type: string): Uint8Array | undefined;
  unsignedAttribute(type: string): Uint8Array | undefined;
};

export type SignedDataView = {
  contentType: string;
  content?: Uint8Array;
  certificates: Uint8Array[];
  signers: SignerView[];
};

/** Which of `certificates` the SignerInfo names (by issuer and serial number, or by key identifier). */
function signerIndex(info: SignerInfo, certificates: readonly (CertificateFacts | undefined)[]): number {
  const { issuerAndSerialNumber, subjectKeyIdentifier } = info.sid;
  if (issuerAndSerialNumber) {
    const issuer = Buffer.from(encode(issuerAndSerialNumber.issuer));
    return certificates.findIndex(
      (candidate) =>
        candidate !== undefined &&
        sameBytes(candidate.serialNumber, issuerAndSerialNumber.serialNumber) &&
        issuer.equals(Buffer.from(encode(candidate.issuer))),
    );
  }
  if (subjectKeyIdentifier) {
    return certificates.findIndex(
      (candidate) =>
        candidate !== undefined && sameBytes(keyIdentifier(candidate), subjectKeyIdentifier.buffer),
    );
  }
  return -1;
}

const firstValue = (list: Attribute[] | undefined, type: string): Uint8Array | undefined => {
  const value = list?.find((item) => item.attrType === type)?.attrValues[0];
  return value ? bytes(value) : undefined;
};

/** Reads a ContentInfo holding a SignedData. Throws for anything else. */
export function readSignedData(der: Uint8Array): SignedDataView {
  const contentInfo = decode(der, SignedDataContentInfo);
  if (contentInfo.contentType !== id_signedData) throw new Error('Not a CMS SignedData');
  const signedData = contentInfo.content;
  const certificates = [...(signedData.certificates ?? [])].map((item) => bytes(item));
  // Other certificate formats (attribute certificates) can be among them: they name no signer here.
  const readable = certificates.map((item) => {
    try {
      return readCertificate(item);
    } catch {
      return undefined;
    }
  });
  const content = signedData.encapContentInfo.eContent?.single;
  return {
    contentType: signedData.encapContentInfo.eContentType,
    content: content ? bytes(content.buffer) : undefined,
    certificates,
    signers: [...signedData.signerInfos].map((info) => ({
      info,
      certificate: certificates[signerIndex(info, readable)],
      signedAttributesDer: info.signedAttrs ? encode(new AttributeSet(info.signedAttrs)) : undefined,
      attribute: (type: string) => firstValue(info.signedAttrs, type),
      unsignedAttribute: (type: string) => firstValue(info.unsignedAttrs, type),
    })),
  };
}

export type SignedDataCheck =
  { valid: true; signerCertificate: Uint8Array } | { valid: false; reason: string };

/**
 * Checks the one signature of a SignedData: the signer's certificate is in it, the signed attributes name
 * the content type and carry the content's digest (the encapsulated content's, or `detachedContentDigest`,
 * a SHA-256), and the signature over them verifies with the certificate's key. Says nothing about whether
 * the certificate is to be trusted: that is the caller's chain and revocation check.
 */
export async function checkSignedData(
  view: SignedDataView,
  detachedContentDigest?: Uint8Array,
): Promise<SignedDataCheck> {
  if (view.signers.length !== 1) return { valid: false, reason: `${view.signers.length} signers, not one` };
  const [signer] = view.signers as [SignerView];
  if (!signer.certificate)
    return { valid: false, reason: "the signer's certificate is not in the SignedData" };
  if (!signer.signedAttributesDer) return { valid: false, reason: 'no signed attributes' };
  const hash = digestName(signer.info.digestAlgorithm.algorithm);
  if (!hash) return { valid: false, reason: `unsupported digest ${signer.info.digestAlgorithm.algorithm}` };
  let contentDigest: Uint8Array;
  if (view.content) contentDigest = digest(hash, view.content);
  else if (detachedContentDigest && hash === 'sha256') contentDigest = detachedContentDigest;
  else return { valid: false, reason: 'no content digest to compare with' };

  const messageDigest = signer.attribute(id_messageDigest);
  if (!messageDigest || !sameBytes(decode(messageDigest, MessageDigest).buffer, contentDigest)) {
    return { valid: false, reason: 'the message digest does not match the content' };
  }
  const contentType = signer.attribute(id_contentType);
  if (!contentType || decode(contentType, ObjectIdentifierValue).value !== view.contentType) {
    return { valid: false, reason: 'the content-type attribute does not match the content' };
  }
  const certificate = readCertificate(signer.certificate);
  const valid = await verifySignature(
    signer.info.signatureAlgorithm.algorithm,
    signer.signedAttributesDer,
    certificate.x509.publicKey,
    bytes(signer.info.signature.buffer),
    signer.info.digestAlgorithm.algorithm,
  ).catch(() => false);
  return valid
    ? { valid: true, signerCertificate: signer.certificate }
    : { valid: false, reason: 'the signature does not verify' };
}
