// What the protocols read from a certificate: its serial number and issuer as encoded (CMS and ESS name the
// signer by them), its subject and key as encoded (OCSP identifies an issuer by their hashes), and a few
// extensions. Checks of validity and of who issued whom use node's X509Certificate.
import { X509Certificate, createHash } from 'node:crypto';
import {
  AuthorityInfoAccessSyntax,
  ExtendedKeyUsage,
  SubjectKeyIdentifier,
  id_ad_ocsp,
  id_ce_extKeyUsage,
  id_ce_subjectKeyIdentifier,
  id_pe_authorityInfoAccess,
  type Extension,
  type Name,
} from '@peculiar/asn1-x509';
import { CertificateWithNames, bytes, decode, integerHex } from './asn1.ts';
import { digest } from './crypto.ts';

export type CertificateFacts = {
  der: Uint8Array;
  x509: X509Certificate;
  /** The serialNumber INTEGER's content octets, as encoded. */
  serialNumber: ArrayBuffer;
  /** Upper-case hex, as X509Certificate.serialNumber prints it. */
  serialHex: string;
  issuer: Name;
  issuerDer: Uint8Array;
  subject: Name;
  subjectDer: Uint8Array;
  /** The subjectPublicKey BIT STRING's bits: what OCSP's key hashes and key identifiers are computed over. */
  publicKeyBits: Uint8Array;
  notBefore: Date;
  notAfter: Date;
  extensions: readonly Extension[];
};

// The same few certificates (the CA's, the TSA's, the responder's, a signer's) are read again and again,
// and parsing one with asn1-schema takes a millisecond or more of the event loop: the facts are kept.
const known = new Map<string, CertificateFacts>();
const KNOWN_MAX = 256;

/** Reads a DER certificate. Throws for anything else. */
export function readCertificate(der: Uint8Array): CertificateFacts {
  const key = createHash('sha256').update(der).digest('base64');
  const hit = known.get(key);
  if (hit) {
    known.delete(key);
    known.set(key, hit);
    return hit;
  }
  const facts = parseCertificate(der);
  known.set(key, facts);
  if (known.size > KNOWN_MAX) known.delete(known.keys().next().value as string);
  return facts;
}

function parseCertificate(input: Uint8Array): CertificateFacts {
  const der = new Uint8Array(input);
  let parsed: CertificateWithNames;
  let x509: X509Certificate;
  try {
    parsed = decode(der, CertificateWithNames);
    x509 = new X509Certificate(der);
  } catch (error) {
    throw new Error('Not a DER X.509 certificate', { cause: error });
  }
  const tbs = parsed.tbsCertificate;
  if (!tbs.issuerRaw || !tbs.subjectRaw) throw new Error('Not a DER X.509 certificate');
  return {
    der,
    x509,
    serialNumber: tbs.serialNumber,
    serialHex: integerHex(tbs.serialNumber),
    issuer: tbs.issuer,
    issuerDer: bytes(tbs.issuerRaw),
    subject: tbs.subject,
    subjectDer: bytes(tbs.subjectRaw),
    publicKeyBits: bytes(tbs.subjectPublicKeyInfo.subjectPublicKey),
    notBefore: tbs.validity.notBefore.getTime(),
    notAfter: tbs.validity.notAfter.getTime(),
    extensions: tbs.extensions ?? [],
  };
}

export function extensionValue(certificate: CertificateFacts, oid: string): Uint8Array | undefined {
  const extension = certificate.extensions.find((candidate) => candidate.extnID === oid);
  return extension ? bytes(extension.extnValue.buffer) : undefined;
}

/** The subject key identifier, or (without the extension) the SHA-1 of the key, RFC 5280 4.2.1.2 (1). */
export function keyIdentifier(certificate: CertificateFacts): Uint8Array {
  const value = extensionValue(certificate, id_ce_subjectKeyIdentifier);
  if (value) return bytes(decode(value, SubjectKeyIdentifier).buffer);
  return digest('sha1', certificate.publicKeyBits);
}

export function extendedKeyUsages(certificate: CertificateFacts): string[] {
  const value = extensionValue(certificate, id_ce_extKeyUsage);
  return value ? [...decode(value, ExtendedKeyUsage)] : [];
}

/** The http(s) OCSP responder URLs of the certificate's authority information access. */
export function ocspUrls(certificate: CertificateFacts): string[] {
  const value = extensionValue(certificate, id_pe_authorityInfoAccess);
  if (!value) return [];
  return decode(value, AuthorityInfoAccessSyntax)
    .filter((access) => access.accessMethod === id_ad_ocsp)
    .map((access) => access.accessLocation.uniformResourceIdentifier)
    .filter((url): url is string => typeof url === 'string' && /^https?:\/\//i.test(url));
}

/** Whether `issuer` issued `certificate`: names and key identifiers agree and its signature verifies. */
export function issuedBy(certificate: CertificateFacts, issuer: CertificateFacts): boolean {
  // X509Certificate.verify is one RSA public-key operation: tens of microseconds, fine on the event loop.
  return certificate.x509.checkIssued(issuer.x509) && certificate.x509.verify(issuer.x509.publicKey);
}

export function validAt(certificate: CertificateFacts, when: Date): boolean {
  return when >= certificate.notBefore && when <= certificate.notAfter;
}
