// ASN.1 structures the @peculiar packages lack, or declare in a way a verifier cannot use, declared with
// asn1-schema (called as functions: the project does not enable decorators):
// - SignedData and SignerInfo that keep the bytes a signature covers: the signed attributes exactly as
//   encoded (asn1-cms 2.11 drops the raw bytes of a repeated field), and every certificate and revocation
//   entry as its own DER (a certificate re-encoded from its parse might not be the one its issuer signed;
//   asn1-cms's RevocationInfoChoice also lacks the plain CRL choice, so such a SignedData would not parse);
// - Adobe's revocation-information archive (a signed attribute of Acrobat's signatures);
// - ESS signing-certificate (v1, RFC 2634, and v2, RFC 5035), which binds the signer's certificate.
import { AsnArray, AsnProp, AsnPropTypes, AsnType, AsnTypeTypes, OctetString } from '@peculiar/asn1-schema';
import {
  Attribute,
  CMSVersion,
  DigestAlgorithmIdentifiers,
  EncapsulatedContentInfo,
  SignerIdentifier,
} from '@peculiar/asn1-cms';
import { AlgorithmIdentifier } from '@peculiar/asn1-x509';

export const OID = {
  signedData: '1.2.840.113549.1.7.2',
  data: '1.2.840.113549.1.7.1',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificate: '1.2.840.113549.1.9.16.2.12',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
  adobeRevocationInfoArchival: '1.2.840.113583.1.1.8',
  ocspResponseRevocationInfo: '1.3.6.1.5.5.7.16.2',
  ocspBasic: '1.3.6.1.5.5.7.48.1.1',
  ocspSigning: '1.3.6.1.5.5.7.3.9',
  timeStamping: '1.3.6.1.5.5.7.3.8',
  extendedKeyUsage: '2.5.29.37',
  subjectAltName: '2.5.29.17',
  crlReason: '2.5.29.21',
  sha1: '1.3.14.3.2.26',
  sha256: '2.16.840.1.101.3.4.2.1',
} as const;

/** A SET OF Attribute as its own type, so that a field of it can keep its raw bytes. */
export class AttributeSet extends AsnArray<Attribute> {
  constructor(items?: Attribute[]) {
    super(items);
    Object.setPrototypeOf(this, AttributeSet.prototype);
  }
}
AsnType({ type: AsnTypeTypes.Set, itemType: Attribute })(AttributeSet);

export class VerifiedSignerInfo {
  version = CMSVersion.v1;
  sid = new SignerIdentifier();
  digestAlgorithm = new AlgorithmIdentifier();
  signedAttrs?: AttributeSet;
  /** The signed attributes as encoded, their [0] tag included. */
  signedAttrsRaw?: ArrayBuffer | Uint8Array;
  signatureAlgorithm = new AlgorithmIdentifier();
  signature = new OctetString();
  unsignedAttrs?: AttributeSet;
}
AsnProp({ type: AsnPropTypes.Integer })(VerifiedSignerInfo.prototype, 'version');
AsnProp({ type: SignerIdentifier })(VerifiedSignerInfo.prototype, 'sid');
AsnProp({ type: AlgorithmIdentifier })(VerifiedSignerInfo.prototype, 'digestAlgorithm');
AsnProp({ type: AttributeSet, context: 0, implicit: true, optional: true, raw: true })(
  VerifiedSignerInfo.prototype,
  'signedAttrs',
);
AsnProp({ type: AlgorithmIdentifier })(VerifiedSignerInfo.prototype, 'signatureAlgorithm');
AsnProp({ type: OctetString })(VerifiedSignerInfo.prototype, 'signature');
AsnProp({ type: AttributeSet, context: 1, implicit: true, optional: true })(
  VerifiedSignerInfo.prototype,
  'unsignedAttrs',
);
AsnType({ type: AsnTypeTypes.Sequence })(VerifiedSignerInfo);

export class VerifiedSignedData {
  version = 1;
  digestAlgorithms = new DigestAlgorithmIdentifiers();
  encapContentInfo = new EncapsulatedContentInfo();
  /** Each CertificateChoices as encoded. */
  certificates?: ArrayBuffer[];
  /** Each RevocationInfoChoice as encoded: a CertificateList, or [1] other (an OCSP response). */
  crls?: ArrayBuffer[];
  signerInfos: VerifiedSignerInfo[] = [];
}
AsnProp({ type: AsnPropTypes.Integer })(VerifiedSignedData.prototype, 'version');
AsnProp({ type: DigestAlgorithmIdentifiers })(VerifiedSignedData.prototype, 'digestAlgorithms');
AsnProp({ type: EncapsulatedContentInfo })(VerifiedSignedData.prototype, 'encapContentInfo');
AsnProp({ type: AsnPropTypes.Any, repeated: 'set', context: 0, implicit: true, optional: true })(
  VerifiedSignedData.prototype,
  'certificates',
);
AsnProp({ type: AsnPropTypes.Any, repeated: 'set', context: 1, implicit: true, optional: true })(
  VerifiedSignedData.prototype,
  'crls',
);
AsnProp({ type: VerifiedSignerInfo, repeated: 'set' })(VerifiedSignedData.prototype, 'signerInfos');
AsnType({ type: AsnTypeTypes.Sequence })(VerifiedSignedData);

/** Adobe's RevocationInfoArchival: { crl [0] SEQUENCE OF CRL, ocsp [1] SEQUENCE OF OCSPResponse, ... }. */
export class RevocationInfoArchival {
  crl?: ArrayBuffer[];
  ocsp?: ArrayBuffer[];
}
AsnProp({ type: AsnPropTypes.Any, repeated: 'sequence', context: 0, optional: true })(
  RevocationInfoArchival.prototype,
  'crl',
);
AsnProp({ type: AsnPropTypes.Any, repeated: 'sequence', context: 1, optional: true })(
  RevocationInfoArchival.prototype,
  'ocsp',
);
AsnType({ type: AsnTypeTypes.Sequence })(RevocationInfoArchival);

/** ESSCertIDv2 (RFC 5035): the hash of the signer's certificate; SHA-256 unless named. */
export class EssCertIdV2 {
  hashAlgorithm?: AlgorithmIdentifier;
  certHash = new OctetString();
  issuerSerial?: ArrayBuffer;
}
AsnProp({ type: AlgorithmIdentifier, optional: true })(EssCertIdV2.prototype, 'hashAlgorithm');
AsnProp({ type: OctetString })(EssCertIdV2.prototype, 'certHash');
AsnProp({ type: AsnPropTypes.Any, optional: true })(EssCertIdV2.prototype, 'issuerSerial');
AsnType({ type: AsnTypeTypes.Sequence })(EssCertIdV2);

export class SigningCertificateV2 {
  certs: EssCertIdV2[] = [];
  policies?: ArrayBuffer;
}
AsnProp({ type: EssCertIdV2, repeated: 'sequence' })(SigningCertificateV2.prototype, 'certs');
AsnProp({ type: AsnPropTypes.Any, optional: true })(SigningCertificateV2.prototype, 'policies');
AsnType({ type: AsnTypeTypes.Sequence })(SigningCertificateV2);

/** ESSCertID (RFC 2634): the SHA-1 hash of the signer's certificate. */
export class EssCertId {
  certHash = new OctetString();
  issuerSerial?: ArrayBuffer;
}
AsnProp({ type: OctetString })(EssCertId.prototype, 'certHash');
AsnProp({ type: AsnPropTypes.Any, optional: true })(EssCertId.prototype, 'issuerSerial');
AsnType({ type: AsnTypeTypes.Sequence })(EssCertId);

export class SigningCertificate {
  certs: EssCertId[] = [];
  policies?: ArrayBuffer;
}
AsnProp({ type: EssCertId, repeated: 'sequence' })(SigningCertificate.prototype, 'certs');
AsnProp({ type: AsnPropTypes.Any, optional: true })(SigningCertificate.prototype, 'policies');
AsnType({ type: AsnTypeTypes.Sequence })(SigningCertificate);

/** ArrayBuffer or view (asn1-schema hands out both) as a Buffer over the same bytes. */
export function bytesOf(value: ArrayBuffer | ArrayBufferView): Buffer {
  return ArrayBuffer.isView(value)
    ? Buffer.from(value.buffer, value.byteOffset, value.byteLength)
    : Buffer.from(value);
}
