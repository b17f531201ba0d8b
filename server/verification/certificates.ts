// Certificates as the report shows them (names, validity) and the chain from a signer's certificate up to
// a trust anchor. node:crypto's X509Certificate checks issuance (names and key identifiers) and signatures;
// @peculiar/asn1-x509 reads the names attribute by attribute and the extensions.
import { X509Certificate } from 'node:crypto';
import { AsnConvert } from '@peculiar/asn1-schema';
import {
  Certificate,
  ExtendedKeyUsage,
  SubjectAlternativeName,
  type GeneralName,
  type Name,
} from '@peculiar/asn1-x509';
import { OID } from './asn1.ts';

export type ParsedCertificate = {
  der: Buffer;
  x509: X509Certificate;
  asn: Certificate;
  /** SHA-256 of the DER, upper-case hex with colons (as openssl prints it). */
  fingerprint: string;
  subject: string;
  issuer: string;
  commonName: string | null;
  email: string | null;
  /** Upper-case hex, as X509Certificate prints it. */
  serialNumber: string;
  notBefore: Date;
  notAfter: Date;
  extendedKeyUsage: readonly string[] | null;
};

const NAME_LABELS: Record<string, string> = {
  '2.5.4.3': 'CN',
  '2.5.4.4': 'SN',
  '2.5.4.42': 'G',
  '2.5.4.5': 'SERIALNUMBER',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.12': 'T',
  '2.5.4.97': 'organizationIdentifier',
  '1.2.840.113549.1.9.1': 'E',
  '0.9.2342.19200300.100.1.1': 'UID',
  '0.9.2342.19200300.100.1.25': 'DC',
};

/**
 * Text taken from a certificate or a PDF for people to read: control characters and the bidirectional
 * overrides that could make a name read as another are removed. It is shown as text, never as markup.
 */
export function readableText(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is being removed
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '').trim();
}

function attributes(name: Name): { type: string; value: string }[] {
  return name.flatMap((rdn) =>
    rdn.map((attribute) => ({ type: attribute.type, value: readableText(attribute.value.toString()) })),
  );
}

/** "CN=Ada Lovelace, E=ada@paraph.test", in the certificate's own order. */
export function describeName(name: Name): string {
  return attributes(name)
    .map(({ type, value }) => `${NAME_LABELS[type] ?? type}=${value}`)
    .join(', ');
}

function attributeOf(name: Name, type: string): string | null {
  const found = attributes(name).find((attribute) => attribute.type === type);
  return found && found.value !== '' ? found.value : null;
}

function extension<T>(certificate: Certificate, oid: string, type: new () => T): T | null {
  const found = certificate.tbsCertificate.extensions?.find((item) => item.extnID === oid);
  if (found === undefined) return null;
  try {
    return AsnConvert.parse(found.extnValue, type);
  } catch {
    return null;
  }
}

function rfc822Names(names: readonly GeneralName[]): string[] {
  return names.flatMap((name) => (name.rfc822Name ? [readableText(name.rfc822Name)] : []));
}

export function describeGeneralName(name: GeneralName): string | null {
  if (name.directoryName) return describeName(name.directoryName);
  const text = name.rfc822Name ?? name.dNSName ?? name.uniformResourceIdentifier ?? null;
  return text === null ? null : readableText(text);
}

function colonHex(hex: string): string {
  return (hex.toUpperCase().match(/../g) ?? []).join(':');
}

export function parseCertificate(der: Uint8Array): ParsedCertificate | null {
  try {
    const bytes = Buffer.from(der);
    const x509 = new X509Certificate(bytes);
    const asn = AsnConvert.parse(bytes, Certificate);
    const subjectName = asn.tbsCertificate.subject;
    const alternativeNames = extension(asn, OID.subjectAltName, SubjectAlternativeName);
    const usages = extension(asn, OID.extendedKeyUsage, ExtendedKeyUsage);
    return {
      der: bytes,
      x509,
      asn,
      fingerprint: colonHex(x509.fingerprint256.replaceAll(':', '')),
      subject: describeName(subjectName),
      issuer: describeName(asn.tbsCertificate.issuer),
      commonName: attributeOf(subjectName, '2.5.4.3'),
      email:
        attributeOf(subjectName, '1.2.840.113549.1.9.1') ?? rfc822Names(alternativeNames ?? [])[0] ?? null,
      serialNumber: x509.serialNumber.toUpperCase(),
      notBefore: new Date(x509.validFrom),
      notAfter: new Date(x509.validTo),
      extendedKeyUsage: usages === null ? null : [...usages],
    };
  } catch {
    return null;
  }
}

export function isValidAt(certificate: ParsedCertificate, time: Date): boolean {
  return (
    certificate.notBefore.getTime() <= time.getTime() && time.getTime() <= certificate.notAfter.getTime()
  );
}

/** Whether `issuer` issued `certificate`: names (and key identifiers) match and the signature verifies. */
export function isIssuedBy(certificate: ParsedCertificate, issuer: ParsedCertificate): boolean {
  try {
    return certificate.x509.checkIssued(issuer.x509) && certificate.x509.verify(issuer.x509.publicKey);
  } catch {
    return false;
  }
}

export function sameCertificate(a: ParsedCertificate, b: ParsedCertificate): boolean {
  return a.der.equals(b.der);
}

export type ChainStatus = 'trusted' | 'untrusted';

export type Chain = {
  status: ChainStatus;
  /** The signer's certificate first, then each issuer found, up to the anchor when trusted. */
  certificates: ParsedCertificate[];
};

const MAX_CHAIN_LENGTH = 10;

/**
 * The path from `leaf` to one of `anchors`, through `pool` (the certificates the signature, the DSS and
 * the time-stamps carry). `untrusted` when it ends elsewhere: another CA (one with the same name as an
 * anchor but another key included), a self-signed certificate, an issuer nobody included.
 */
export function buildChain(
  leaf: ParsedCertificate,
  pool: readonly ParsedCertificate[],
  anchors: readonly ParsedCertificate[],
): Chain {
  const path = [leaf];
  while (path.length < MAX_CHAIN_LENGTH) {
    const current = path[path.length - 1] as ParsedCertificate;
    if (anchors.some((anchor) => sameCertificate(anchor, current))) {
      return { status: 'trusted', certificates: path };
    }
    const issuer = [...anchors, ...pool].find(
      (candidate) => !path.some((seen) => sameCertificate(seen, candidate)) && isIssuedBy(current, candidate),
    );
    if (issuer === undefined) break;
    path.push(issuer);
  }
  const last = path[path.length - 1] as ParsedCertificate;
  const isTrusted = anchors.some((anchor) => sameCertificate(anchor, last));
  return { status: isTrusted ? 'trusted' : 'untrusted', certificates: path };
}

export function hasExtendedKeyUsage(certificate: ParsedCertificate, usage: string): boolean {
  return certificate.extendedKeyUsage?.includes(usage) ?? false;
}
