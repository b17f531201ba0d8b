// The ASN.1 structures the @peculiar packages lack, or declare in a way that would re-encode bytes that must
// travel untouched, declared with asn1-schema (called as functions: the project does not enable
// decorators), and the small conversions every protocol file needs.
//
// Why some structures carry certificates as ANY: asn1-schema parses a Certificate into objects and writes it
// back from them, and a certificate written back from objects is only the same certificate if every string
// and time in it survives the round trip. A signature over its bytes does not forgive a difference, so
// certificates are carried as the exact DER they were given in.
import {
  AsnArray,
  AsnIntegerArrayBufferConverter,
  AsnIntegerBigIntConverter,
  AsnParser,
  AsnProp,
  AsnPropTypes,
  AsnSerializer,
  AsnType,
  AsnTypeTypes,
  OctetString,
} from '@peculiar/asn1-schema';
import {
  Attribute,
  DigestAlgorithmIdentifiers,
  EncapsulatedContentInfo,
  SignerInfos,
} from '@peculiar/asn1-cms';
import {
  AlgorithmIdentifier,
  CRLReason,
  CRLReasons,
  Certificate,
  GeneralNames,
  Name,
  TBSCertificate,
} from '@peculiar/asn1-x509';
import type { RevocationReason } from './types.ts';
import { PKIStatusInfo } from '@peculiar/asn1-tsp';

type Constructor<T> = new () => T;

/** DER (asn1-schema writes definite lengths, and SET OF in the order given: sort first where DER asks). */
export function encode(value: unknown): Uint8Array {
  return new Uint8Array(AsnSerializer.serialize(value));
}

/**
 * Lets the event loop turn. Encoding and decoding are synchronous, a few milliseconds for a CMS with its
 * certificates: between two of them, other requests get their turn.
 */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export function decode<T>(der: Uint8Array, type: Constructor<T>): T {
  return AsnParser.parse(der, type);
}

/**
 * A copy as a standalone ArrayBuffer, which is what asn1-schema's byte fields hold. (Not `.slice()`: on a
 * Buffer that is a view into node's shared pool, whose .buffer is the whole pool.)
 */
export function arrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return new Uint8Array(bytes).buffer;
}

export function bytes(value: ArrayBuffer | ArrayBufferView): Uint8Array {
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
}

export function sameBytes(a: ArrayBuffer | ArrayBufferView, b: ArrayBuffer | ArrayBufferView): boolean {
  return Buffer.from(bytes(a)).equals(Buffer.from(bytes(b)));
}

/**
 * A positive INTEGER's content octets as upper-case hex, the way node's X509Certificate.serialNumber (and
 * OpenSSL) print serial numbers: no leading zero bytes, two digits a byte.
 */
export function integerHex(content: ArrayBuffer | Uint8Array): string {
  const all = bytes(content);
  let start = 0;
  while (start < all.length - 1 && all[start] === 0) start += 1;
  return Buffer.from(all.subarray(start)).toString('hex').toUpperCase();
}

/** The content octets of the positive INTEGER written in hex (as integerHex prints it). */
export function hexInteger(hex: string): ArrayBuffer {
  if (!/^[0-9A-Fa-f]+$/.test(hex)) throw new Error(`Not a hexadecimal serial number: ${JSON.stringify(hex)}`);
  let value = Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex');
  let start = 0;
  while (start < value.length - 1 && value[start] === 0) start += 1;
  value = value.subarray(start);
  // A set top bit would make the number negative: DER then asks for one zero byte in front.
  if ((value[0] ?? 0) & 0x80) value = Buffer.concat([Buffer.from([0]), value]);
  return arrayBuffer(value);
}

/**
 * An OBJECT IDENTIFIER in dotted decimal. asn1js writes arcs of any size but reads an arc above 2^53 (a UUID
 * arc under 2.25, like Paraph's TSA policy) back as "{hex of its base-128 octets}": this turns it back into
 * its decimal value.
 */
export function dottedOid(value: string): string {
  return value.replace(/\{([0-9a-fA-F]+)\}/g, (_match, hex: string) => {
    let arc = 0n;
    for (const octet of Buffer.from(hex, 'hex')) arc = (arc << 7n) | BigInt(octet & 0x7f);
    return arc.toString();
  });
}

function declare(
  type: Constructor<object>,
  kind: AsnTypeTypes,
  itemType?: Parameters<typeof AsnType>[0]['itemType'],
) {
  AsnType(itemType === undefined ? { type: kind } : { type: kind, itemType })(type);
}

// --- CMS -------------------------------------------------------------------------------------------------

/** SignedAttributes as the signature covers them: a SET OF Attribute under its own SET tag (RFC 5652 5.4). */
export class AttributeSet extends AsnArray<Attribute> {
  constructor(items?: Attribute[]) {
    super(items);
    Object.setPrototypeOf(this, AttributeSet.prototype);
  }
}
declare(AttributeSet, AsnTypeTypes.Set, Attribute);

/** One OBJECT IDENTIFIER on its own: the value of the content-type attribute. */
export class ObjectIdentifierValue {
  value = '';
  constructor(value = '') {
    this.value = value;
  }
}
AsnProp({ type: AsnPropTypes.ObjectIdentifier })(ObjectIdentifierValue.prototype, 'value');
declare(ObjectIdentifierValue, AsnTypeTypes.Choice);

/** CertificateSet with each certificate as the DER it came in (see the top of this file). */
export class RawCertificateSet extends AsnArray<ArrayBuffer> {
  constructor(items?: ArrayBuffer[]) {
    super(items);
    Object.setPrototypeOf(this, RawCertificateSet.prototype);
  }
}
declare(RawCertificateSet, AsnTypeTypes.Set, AsnPropTypes.Any);

/** RevocationInfoChoices, read and written as they are. */
export class RawRevocationInfoChoices extends AsnArray<ArrayBuffer> {
  constructor(items?: ArrayBuffer[]) {
    super(items);
    Object.setPrototypeOf(this, RawRevocationInfoChoices.prototype);
  }
}
declare(RawRevocationInfoChoices, AsnTypeTypes.Set, AsnPropTypes.Any);

/** RFC 5652 SignedData, as @peculiar/asn1-cms declares it but with the certificates kept as DER. */
export class SignedData {
  version = 1;
  digestAlgorithms = new DigestAlgorithmIdentifiers();
  encapContentInfo = new EncapsulatedContentInfo();
  certificates?: RawCertificateSet;
  crls?: RawRevocationInfoChoices;
  signerInfos = new SignerInfos();
  constructor(params: Partial<SignedData> = {}) {
    Object.assign(this, params);
  }
}
AsnProp({ type: AsnPropTypes.Integer })(SignedData.prototype, 'version');
AsnProp({ type: DigestAlgorithmIdentifiers })(SignedData.prototype, 'digestAlgorithms');
AsnProp({ type: EncapsulatedContentInfo })(SignedData.prototype, 'encapContentInfo');
AsnProp({ type: RawCertificateSet, context: 0, implicit: true, optional: true })(
  SignedData.prototype,
  'certificates',
);
AsnProp({ type: RawRevocationInfoChoices, context: 1, implicit: true, optional: true })(
  SignedData.prototype,
  'crls',
);
AsnProp({ type: SignerInfos })(SignedData.prototype, 'signerInfos');

/**
 * ContentInfo holding a SignedData, typed all the way: asn1-cms's ContentInfo holds its content as ANY,
 * which asn1-schema parses again whole when writing it, and which a reader has to parse a second time.
 */
export class SignedDataContentInfo {
  contentType = '';
  content = new SignedData();
  constructor(params: Partial<SignedDataContentInfo> = {}) {
    Object.assign(this, params);
  }
}
AsnProp({ type: AsnPropTypes.ObjectIdentifier })(SignedDataContentInfo.prototype, 'contentType');
AsnProp({ type: SignedData, context: 0 })(SignedDataContentInfo.prototype, 'content');

// --- ESS signing-certificate-v2 (RFC 5035), which no @peculiar package declares ------------------------

export const id_aa_signingCertificateV2 = '1.2.840.113549.1.9.16.2.47';

/** IssuerSerial ::= SEQUENCE { issuer GeneralNames, serialNumber CertificateSerialNumber, issuerUID OPTIONAL } */
export class IssuerSerial {
  issuer = new GeneralNames();
  serialNumber: ArrayBuffer = new ArrayBuffer(0);
  issuerUID?: ArrayBuffer;
  constructor(params: Partial<IssuerSerial> = {}) {
    Object.assign(this, params);
  }
}
AsnProp({ type: GeneralNames })(IssuerSerial.prototype, 'issuer');
AsnProp({ type: AsnPropTypes.Integer, converter: AsnIntegerArrayBufferConverter })(
  IssuerSerial.prototype,
  'serialNumber',
);
AsnProp({ type: AsnPropTypes.BitString, optional: true })(IssuerSerial.prototype, 'issuerUID');

/**
 * ESSCertIDv2 ::= SEQUENCE { hashAlgorithm AlgorithmIdentifier DEFAULT {algorithm id-sha256},
 * certHash OCTET STRING, issuerSerial IssuerSerial OPTIONAL }. An absent hashAlgorithm means SHA-256, and
 * DER leaves a DEFAULT value out: leave it undefined to write SHA-256.
 */
export class EssCertIdV2 {
  hashAlgorithm?: AlgorithmIdentifier;
  certHash = new OctetString();
  issuerSerial?: IssuerSerial;
  constructor(params: Partial<EssCertIdV2> = {}) {
    Object.assign(this, params);
  }
}
AsnProp({ type: AlgorithmIdentifier, optional: true })(EssCertIdV2.prototype, 'hashAlgorithm');
AsnProp({ type: OctetString })(EssCertIdV2.prototype, 'certHash');
AsnProp({ type: IssuerSerial, optional: true })(EssCertIdV2.prototype, 'issuerSerial');

/** SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2, policies SEQUENCE OF PolicyInformation OPTIONAL } */
export class SigningCertificateV2 {
  certs: EssCertIdV2[] = [];
  policies?: ArrayBuffer[];
  constructor(params: Partial<SigningCertificateV2> = {}) {
    Object.assign(this, params);
  }
}
AsnProp({ type: EssCertIdV2, repeated: 'sequence' })(SigningCertificateV2.prototype, 'certs');
AsnProp({ type: AsnPropTypes.Any, repeated: 'sequence', optional: true })(
  SigningCertificateV2.prototype,
  'policies',
);

// --- OCSP ------------------------------------------------------------------------------------------------

/**
 * BasicOCSPResponse (RFC 6960 4.2.1) with the signed ResponseData and the certificates as DER: the
 * signature is over exactly the bytes carried, and the certificates are the ones given.
 */
export class SignedOcspResponse {
  tbsResponseData: ArrayBuffer = new ArrayBuffer(0);
  signatureAlgorithm = new AlgorithmIdentifier();
  signature: ArrayBuffer = new ArrayBuffer(0);
  certs?: ArrayBuffer[];
  constructor(params: Partial<SignedOcspResponse> = {}) {
    Object.assign(this, params);
  }
}
AsnProp({ type: AsnPropTypes.Any })(SignedOcspResponse.prototype, 'tbsResponseData');
AsnProp({ type: AlgorithmIdentifier })(SignedOcspResponse.prototype, 'signatureAlgorithm');
AsnProp({ type: AsnPropTypes.BitString })(SignedOcspResponse.prototype, 'signature');
AsnProp({ type: AsnPropTypes.Any, repeated: 'sequence', context: 0, optional: true })(
  SignedOcspResponse.prototype,
  'certs',
);

// --- CRL -------------------------------------------------------------------------------------------------

/**
 * CertificateList (RFC 5280 5.1) with the signed TBSCertList as the DER the signature is over, written
 * once: asn1-x509's CertificateList would serialize a long list a second time.
 */
export class SignedCertificateList {
  tbsCertList: ArrayBuffer = new ArrayBuffer(0);
  signatureAlgorithm = new AlgorithmIdentifier();
  signature: ArrayBuffer = new ArrayBuffer(0);
  constructor(params: Partial<SignedCertificateList> = {}) {
    Object.assign(this, params);
  }
}
AsnProp({ type: AsnPropTypes.Any })(SignedCertificateList.prototype, 'tbsCertList');
AsnProp({ type: AlgorithmIdentifier })(SignedCertificateList.prototype, 'signatureAlgorithm');
AsnProp({ type: AsnPropTypes.BitString })(SignedCertificateList.prototype, 'signature');

/** CRLNumber ::= INTEGER (0..MAX), up to 20 octets: asn1-x509's CRLNumber holds a JavaScript number. */
export class CrlNumber {
  value = 0n;
  constructor(value = 0n) {
    this.value = value;
  }
}
AsnProp({ type: AsnPropTypes.Integer, converter: AsnIntegerBigIntConverter })(CrlNumber.prototype, 'value');
declare(CrlNumber, AsnTypeTypes.Choice);

/**
 * The reason code of an OCSP revocation or a CRL entry. RFC 5280 5.3.1 asks to leave the code out rather
 * than say "unspecified": an absent reason reads back as 'unspecified'.
 */
export function crlReason(reason: RevocationReason): CRLReason | undefined {
  return reason === 'unspecified' ? undefined : new CRLReason(CRLReasons[reason]);
}

export function revocationReason(reason: CRLReason | undefined): RevocationReason {
  if (reason === undefined) return 'unspecified';
  return (CRLReasons[reason.reason] as RevocationReason | undefined) ?? 'unspecified';
}

// --- Certificates ------------------------------------------------------------------------------------------

/** TBSCertificate that also keeps the issuer's and subject's Name as encoded (issuerRaw, subjectRaw). */
export class TbsCertificateWithNames extends TBSCertificate {
  issuerRaw?: ArrayBuffer;
  subjectRaw?: ArrayBuffer;
}
AsnProp({ type: Name, raw: true })(TbsCertificateWithNames.prototype, 'issuer');
AsnProp({ type: Name, raw: true })(TbsCertificateWithNames.prototype, 'subject');

export class CertificateWithNames extends Certificate {
  declare tbsCertificate: TbsCertificateWithNames;
}
AsnProp({ type: TbsCertificateWithNames, raw: true })(CertificateWithNames.prototype, 'tbsCertificate');

// --- RFC 3161 ----------------------------------------------------------------------------------------------

/** TimeStampResp as the embedded TSA writes it, with the token it has just made (not parsed again). */
export class TimeStampRespWithToken {
  status = new PKIStatusInfo();
  timeStampToken?: SignedDataContentInfo;
  constructor(params: Partial<TimeStampRespWithToken> = {}) {
    Object.assign(this, params);
  }
}
AsnProp({ type: PKIStatusInfo })(TimeStampRespWithToken.prototype, 'status');
AsnProp({ type: SignedDataContentInfo, optional: true })(TimeStampRespWithToken.prototype, 'timeStampToken');

/** TimeStampResp with the token kept as received: it goes into a PDF as it is. */
export class RawTimeStampResp {
  status = new PKIStatusInfo();
  timeStampToken?: ArrayBuffer;
  constructor(params: Partial<RawTimeStampResp> = {}) {
    Object.assign(this, params);
  }
}
AsnProp({ type: PKIStatusInfo })(RawTimeStampResp.prototype, 'status');
AsnProp({ type: AsnPropTypes.Any, optional: true })(RawTimeStampResp.prototype, 'timeStampToken');
