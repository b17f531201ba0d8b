// A CMS SignedData for PAdES B-B (ETSI EN 319 142-1, ETSI.CAdES.detached): detached, SHA-256, with the
// signed attributes content-type, message-digest and signing-certificate-v2. No signing-time attribute: the
// baseline profile forbids it and takes the time from the signature dictionary's /M instead. node-forge's
// pkcs7 cannot add signing-certificate-v2, so the DER is assembled here from raw parts (certificates are
// embedded byte for byte, never re-encoded) and signed with Node's crypto.
import { createHash, sign } from 'node:crypto';
import { promisify } from 'node:util';
import forge from 'node-forge';
import type { CertifiedKey } from './pki/types.ts';

// On the thread pool: an RSA signature must not hold the event loop.
const signAsync = promisify(sign);

const OID = {
  signedData: '1.2.840.113549.1.7.2',
  data: '1.2.840.113549.1.7.1',
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
} as const;

const TAG = {
  integer: 0x02,
  octetString: 0x04,
  null: 0x05,
  oid: 0x06,
  sequence: 0x30,
  set: 0x31,
  context0: 0xa0,
  context4: 0xa4,
} as const;

function derLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

const tlv = (tag: number, ...contents: Buffer[]): Buffer => {
  const body = Buffer.concat(contents);
  return Buffer.concat([Buffer.from([tag]), derLength(body.length), body]);
};
const oid = (value: string): Buffer =>
  tlv(TAG.oid, Buffer.from(forge.asn1.oidToDer(value).getBytes(), 'binary'));
const seq = (...items: Buffer[]): Buffer => tlv(TAG.sequence, ...items);
const octets = (bytes: Buffer): Buffer => tlv(TAG.octetString, bytes);
const smallInteger = (value: number): Buffer => tlv(TAG.integer, Buffer.from([value]));
const algorithm = (value: string, withNull: boolean): Buffer =>
  withNull ? seq(oid(value), tlv(TAG.null)) : seq(oid(value));
/** DER's SET OF: the members ordered by their encodings. */
const setOf = (items: Buffer[]): Buffer => tlv(TAG.set, ...[...items].sort(Buffer.compare));

type Element = { tag: number; start: number; end: number; bodyStart: number };

function readElement(bytes: Buffer, offset: number): Element {
  const tag = bytes[offset];
  let lengthByte = bytes[offset + 1];
  if (tag === undefined || lengthByte === undefined) throw new Error('Truncated DER');
  let bodyStart = offset + 2;
  let length = lengthByte;
  if (lengthByte & 0x80) {
    const count = lengthByte & 0x7f;
    length = 0;
    for (let index = 0; index < count; index += 1) {
      lengthByte = bytes[bodyStart + index];
      if (lengthByte === undefined) throw new Error('Truncated DER');
      length = length * 256 + lengthByte;
    }
    bodyStart += count;
  }
  const end = bodyStart + length;
  if (end > bytes.length) throw new Error('Truncated DER');
  return { tag, start: offset, end, bodyStart };
}

function children(bytes: Buffer, parent: Element): Element[] {
  const result: Element[] = [];
  for (let offset = parent.bodyStart; offset < parent.end;) {
    const element = readElement(bytes, offset);
    result.push(element);
    offset = element.end;
  }
  return result;
}

/** The certificate's issuer Name and serialNumber, byte for byte as the certificate encodes them. */
function issuerAndSerial(certificateDer: Buffer): { issuer: Buffer; serial: Buffer } {
  const certificate = readElement(certificateDer, 0);
  const tbs = children(certificateDer, certificate)[0];
  if (!tbs) throw new Error('Unreadable certificate');
  const fields = children(certificateDer, tbs);
  // tbsCertificate: [0] version (optional), serialNumber, signature, issuer, ...
  const skip = fields[0]?.tag === TAG.context0 ? 1 : 0;
  const serial = fields[skip];
  const issuer = fields[skip + 2];
  if (!serial || !issuer) throw new Error('Unreadable certificate');
  const slice = (element: Element) => certificateDer.subarray(element.start, element.end);
  return { issuer: slice(issuer), serial: slice(serial) };
}

function signingCertificateV2(certificateDer: Buffer): Buffer {
  const { issuer, serial } = issuerAndSerial(certificateDer);
  const certHash = createHash('sha256').update(certificateDer).digest();
  // ESSCertIDv2 { certHash, issuerSerial { GeneralNames { directoryName [4] Name }, serialNumber } }; the
  // hashAlgorithm is omitted, as DER requires for its DEFAULT (SHA-256).
  const essCertId = seq(octets(certHash), seq(seq(tlv(TAG.context4, issuer)), serial));
  return seq(seq(essCertId));
}

const attribute = (type: string, value: Buffer): Buffer => seq(oid(type), tlv(TAG.set, value));

/**
 * The DER of a detached SignedData over content whose SHA-256 is `contentDigest`, signed by `signer`
 * (RSA PKCS #1 v1.5 with SHA-256), carrying the signer's certificate and then `chain`.
 */
export async function buildCadesSignature(
  contentDigest: Buffer,
  signer: CertifiedKey,
  chain: readonly Uint8Array[],
): Promise<Buffer> {
  const certificateDer = Buffer.from(signer.certificate);
  const signedAttributes = setOf([
    attribute(OID.contentType, oid(OID.data)),
    attribute(OID.messageDigest, octets(contentDigest)),
    attribute(OID.signingCertificateV2, signingCertificateV2(certificateDer)),
  ]);
  // The signature covers the attributes encoded as a SET; the SignerInfo carries the same bytes as [0].
  const signature = await signAsync('sha256', signedAttributes, signer.privateKey);
  const signedAttributesImplicit = Buffer.concat([Buffer.from([TAG.context0]), signedAttributes.subarray(1)]);

  const { issuer, serial } = issuerAndSerial(certificateDer);
  const signerInfo = seq(
    smallInteger(1),
    seq(issuer, serial),
    algorithm(OID.sha256, false),
    signedAttributesImplicit,
    algorithm(OID.rsaEncryption, true),
    octets(signature),
  );
  const signedData = seq(
    smallInteger(1),
    tlv(TAG.set, algorithm(OID.sha256, false)),
    seq(oid(OID.data)),
    tlv(TAG.context0, certificateDer, ...chain.map((certificate) => Buffer.from(certificate))),
    tlv(TAG.set, signerInfo),
  );
  return seq(oid(OID.signedData), tlv(TAG.context0, signedData));
}
