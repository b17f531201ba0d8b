// Certificates of the deployment's CA: the CA itself, a signer per person, the time-stamping authority and
// the OCSP responder. The structures are @peculiar/asn1-x509's typed classes, serialised by asn1-schema;
// keys are node:crypto KeyObjects, generated and used through the asynchronous APIs, which run on libuv's
// thread pool: issuing a certificate never holds the event loop for the RSA work.
import { createHash, createPublicKey, generateKeyPair, randomBytes, sign, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { AsnConvert, AsnNullConverter, OctetString } from '@peculiar/asn1-schema';
import {
  AccessDescription,
  AlgorithmIdentifier,
  AttributeTypeAndValue,
  AttributeValue,
  AuthorityInfoAccessSyntax,
  AuthorityKeyIdentifier,
  BasicConstraints,
  Certificate,
  CRLDistributionPoints,
  DistributionPoint,
  DistributionPointName,
  ExtendedKeyUsage,
  Extension,
  Extensions,
  GeneralName,
  KeyIdentifier,
  KeyUsage,
  KeyUsageFlags,
  Name,
  RelativeDistinguishedName,
  SubjectAlternativeName,
  SubjectKeyIdentifier,
  SubjectPublicKeyInfo,
  TBSCertificate,
  Validity,
  Version,
  id_ce_authorityKeyIdentifier,
  id_ce_basicConstraints,
  id_ce_cRLDistributionPoints,
  id_ce_extKeyUsage,
  id_ce_keyUsage,
  id_ce_subjectAltName,
  id_ce_subjectKeyIdentifier,
  id_kp_emailProtection,
  id_kp_OCSPSigning,
  id_kp_timeStamping,
  id_pe_authorityInfoAccess,
} from '@peculiar/asn1-x509';

export const CA_KEY_BITS = 3072;
export const KEY_BITS = 2048;

// Validity in years per profile: the CA outlives what it issues; the OCSP responder's key signs answers
// every minute of every day, so it is the one replaced often (server/signing/ca/index.ts renews it).
export const VALIDITY_YEARS = { ca: 20, signer: 3, tsa: 10, ocsp: 1 } as const;
// A certificate starts an hour early, so that a verifier whose clock is a little behind accepts it at once.
const BACKDATE_MS = 3600 * 1000;

const OID = {
  sha256WithRSAEncryption: '1.2.840.113549.1.1.11',
  commonName: '2.5.4.3',
  organizationName: '2.5.4.10',
  organizationalUnitName: '2.5.4.11',
  emailAddress: '1.2.840.113549.1.9.1',
  ocsp: '1.3.6.1.5.5.7.48.1',
  caIssuers: '1.3.6.1.5.5.7.48.2',
  ocspNoCheck: '1.3.6.1.5.5.7.48.1.5',
} as const;

const generateKeyPairAsync = promisify(generateKeyPair);
const signAsync = promisify(sign);

/** A new RSA private key, made on the thread pool (a 3072-bit key takes up to seconds). */
export async function generateRsaKey(bits: number): Promise<KeyObject> {
  const { privateKey } = await generateKeyPairAsync('rsa', { modulusLength: bits, publicExponent: 0x10001 });
  return privateKey;
}

/**
 * A serial number as X509Certificate.serialNumber prints it: upper-case hex of the positive INTEGER, two
 * digits a byte, without the sign byte DER adds before a high bit.
 */
export function serialNumberHex(bytes: Uint8Array): string {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start += 1;
  return Buffer.from(bytes.subarray(start)).toString('hex').toUpperCase();
}

/** Any way of writing a serial (lower case, odd length, leading zeros) in the form above. */
export function normaliseSerialNumber(serial: string): string {
  const hex = serial.trim().replace(/^0x/i, '').replace(/:/g, '');
  if (!/^[0-9a-fA-F]+$/.test(hex)) return hex.toUpperCase();
  return serialNumberHex(Buffer.from(hex.length % 2 === 1 ? `0${hex}` : hex, 'hex'));
}

// 16 random bytes, positive, never starting with a zero byte DER would strip (RFC 5280 allows 20).
function newSerialNumber(): Uint8Array {
  const bytes = randomBytes(16);
  bytes[0] = ((bytes[0] ?? 0) & 0x7f) | 0x40;
  return bytes;
}

const bytesOf = (buffer: ArrayBuffer): Uint8Array => new Uint8Array(buffer);
// A copy in an ArrayBuffer of its own: a Buffer's .buffer may be Node's shared pool.
const exactBuffer = (bytes: Uint8Array): ArrayBuffer => new Uint8Array(bytes).buffer;

// Takes the private key too: its public half is what the certificate carries.
function spkiOf(key: KeyObject): SubjectPublicKeyInfo {
  const der = createPublicKey(key).export({ type: 'spki', format: 'der' });
  return AsnConvert.parse(der, SubjectPublicKeyInfo);
}

/** RFC 5280 4.2.1.2 method 1: SHA-1 of the subjectPublicKey bits. */
function keyIdentifierOf(spki: SubjectPublicKeyInfo): Uint8Array {
  return createHash('sha1').update(bytesOf(spki.subjectPublicKey)).digest();
}

function extension(extnID: string, value: unknown, critical = false): Extension {
  return new Extension({ extnID, critical, extnValue: new OctetString(AsnConvert.serialize(value)) });
}

type NameAttribute = { type: string; value: AttributeValue };

const utf8 = (type: string, text: string): NameAttribute => ({
  type,
  value: new AttributeValue({ utf8String: text }),
});

function nameOf(attributes: NameAttribute[]): Name {
  return new Name(
    attributes.map(
      (attribute) =>
        new RelativeDistinguishedName([
          new AttributeTypeAndValue({ type: attribute.type, value: attribute.value }),
        ]),
    ),
  );
}

/** What every certificate of the deployment points at: where its issuer, status and CRL are served. */
export type PkiUrls = { ocsp: string; caIssuers: string; crl: string };

export function pkiUrls(publicOrigin: string): PkiUrls {
  const origin = publicOrigin.replace(/\/+$/, '');
  return { ocsp: `${origin}/pki/ocsp`, caIssuers: `${origin}/pki/ca.crt`, crl: `${origin}/pki/crl` };
}

const uri = (value: string): GeneralName => new GeneralName({ uniformResourceIdentifier: value });

function authorityInfoAccess(urls: PkiUrls, withOcsp: boolean): Extension {
  return extension(
    id_pe_authorityInfoAccess,
    new AuthorityInfoAccessSyntax([
      ...(withOcsp
        ? [new AccessDescription({ accessMethod: OID.ocsp, accessLocation: uri(urls.ocsp) })]
        : []),
      new AccessDescription({ accessMethod: OID.caIssuers, accessLocation: uri(urls.caIssuers) }),
    ]),
  );
}

function crlDistributionPoints(urls: PkiUrls): Extension {
  return extension(
    id_ce_cRLDistributionPoints,
    new CRLDistributionPoints([
      new DistributionPoint({ distributionPoint: new DistributionPointName({ fullName: [uri(urls.crl)] }) }),
    ]),
  );
}

const keyUsage = (flags: number): Extension => extension(id_ce_keyUsage, new KeyUsage(flags), true);

/** The CA that signs: its key, and its certificate as issued (DER). */
export type Issuer = { privateKey: KeyObject; certificate: Uint8Array };

type IssuerFields = { name: Name; keyIdentifier: Uint8Array; notAfter: Date };

// The issuer's own subject (so that names compare equal however the CA wrote them), its subject key
// identifier as it states it (a CA made elsewhere may have computed it otherwise), and its end of validity.
// Parsed once per CA certificate: asn1-schema takes milliseconds to parse one, on the event loop.
const issuerFieldsCache = new WeakMap<Uint8Array, IssuerFields>();

function issuerFields(issuer: Issuer): IssuerFields {
  let fields = issuerFieldsCache.get(issuer.certificate);
  if (fields === undefined) {
    fields = parseIssuerFields(issuer);
    issuerFieldsCache.set(issuer.certificate, fields);
  }
  return fields;
}

function parseIssuerFields(issuer: Issuer): IssuerFields {
  const certificate = AsnConvert.parse(issuer.certificate, Certificate);
  const { tbsCertificate } = certificate;
  const ski = tbsCertificate.extensions?.find((entry) => entry.extnID === id_ce_subjectKeyIdentifier);
  const keyIdentifier =
    ski === undefined
      ? keyIdentifierOf(tbsCertificate.subjectPublicKeyInfo)
      : bytesOf(AsnConvert.parse(ski.extnValue, SubjectKeyIdentifier).buffer);
  return {
    name: tbsCertificate.subject,
    keyIdentifier,
    notAfter: tbsCertificate.validity.notAfter.getTime(),
  };
}

type Draft = {
  subject: Name;
  publicKey: KeyObject;
  // null: self-signed with signingKey.
  issuer: IssuerFields | null;
  signingKey: KeyObject;
  now: Date;
  years: number;
  extensions: (keyIdentifier: Uint8Array) => Extension[];
};

function draftTbs(draft: Draft): {
  tbsCertificate: TBSCertificate;
  signatureAlgorithm: AlgorithmIdentifier;
  tbs: Buffer;
} {
  const spki = spkiOf(draft.publicKey);
  const keyIdentifier = keyIdentifierOf(spki);
  const notBefore = new Date(draft.now.getTime() - BACKDATE_MS);
  const wanted = new Date(draft.now.getTime());
  wanted.setUTCFullYear(wanted.getUTCFullYear() + draft.years);
  // Nothing outlives the CA that vouches for it.
  const notAfter =
    draft.issuer !== null && draft.issuer.notAfter.getTime() < wanted.getTime()
      ? draft.issuer.notAfter
      : wanted;
  const signatureAlgorithm = new AlgorithmIdentifier({
    algorithm: OID.sha256WithRSAEncryption,
    parameters: null,
  });
  const tbsCertificate = new TBSCertificate({
    version: Version.v3,
    serialNumber: exactBuffer(newSerialNumber()),
    signature: signatureAlgorithm,
    issuer: draft.issuer?.name ?? draft.subject,
    validity: new Validity({ notBefore, notAfter }),
    subject: draft.subject,
    subjectPublicKeyInfo: spki,
    extensions: new Extensions(draft.extensions(keyIdentifier)),
  });
  return { tbsCertificate, signatureAlgorithm, tbs: Buffer.from(AsnConvert.serialize(tbsCertificate)) };
}

async function issue(draft: Draft): Promise<Uint8Array> {
  const { tbsCertificate, signatureAlgorithm, tbs } = draftTbs(draft);
  const signature = await signAsync('sha256', tbs, draft.signingKey);
  const certificate = new Certificate({
    tbsCertificate,
    signatureAlgorithm,
    signatureValue: exactBuffer(signature),
  });
  return bytesOf(AsnConvert.serialize(certificate));
}

function authorityKeyIdentifier(issuer: IssuerFields): Extension {
  return extension(
    id_ce_authorityKeyIdentifier,
    new AuthorityKeyIdentifier({ keyIdentifier: new KeyIdentifier(issuer.keyIdentifier) }),
  );
}

const subjectKeyIdentifier = (keyIdentifier: Uint8Array): Extension =>
  extension(id_ce_subjectKeyIdentifier, new SubjectKeyIdentifier(keyIdentifier));

/** The names of the deployment's own certificates; the host tells one deployment's CA from another's. */
export function deploymentName(role: string, publicOrigin: string): Name {
  return nameOf([
    utf8(OID.commonName, role),
    utf8(OID.organizationalUnitName, new URL(publicOrigin).host),
    utf8(OID.organizationName, 'Paraph'),
  ]);
}

/** The self-signed root: RSA 3072, 20 years, CA (critical), keyCertSign and cRLSign (critical). */
export async function issueCaCertificate(
  privateKey: KeyObject,
  options: { now: Date; publicOrigin: string },
): Promise<Uint8Array> {
  return issue({
    subject: deploymentName('Paraph Signing CA', options.publicOrigin),
    publicKey: privateKey,
    issuer: null,
    signingKey: privateKey,
    now: options.now,
    years: VALIDITY_YEARS.ca,
    extensions: (keyIdentifier) => [
      extension(id_ce_basicConstraints, new BasicConstraints({ cA: true }), true),
      keyUsage(KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign),
      subjectKeyIdentifier(keyIdentifier),
    ],
  });
}

export type SignerSubject = { userId: string; fullName: string; email: string };

// RFC 5280's ub-common-name: strict verifiers refuse a longer commonName.
const COMMON_NAME_MAX = 64;
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** `text` cut to at most `max` characters (code points), whole letters only, and "…" when cut. */
function shortened(text: string, max: number): string {
  if ([...text].length <= max) return text;
  let kept = '';
  for (const { segment } of graphemes.segment(text)) {
    if ([...kept].length + [...segment].length > max - 1) break;
    kept += segment;
  }
  return `${kept.trimEnd()}…`;
}

/**
 * The name a signer certificate gives a person: the full name, or the address when there is none, cut to
 * the 64 characters a commonName may hold (the stamp and the audit trail carry the whole name).
 */
export function signerCommonName(subject: Pick<SignerSubject, 'fullName' | 'email'>): string {
  const name = subject.fullName.normalize('NFC').trim();
  return shortened(name === '' ? subject.email : name, COMMON_NAME_MAX);
}

/**
 * A person's certificate: CN as UTF8String (any script survives), emailAddress, the address as
 * rfc822Name, digitalSignature + nonRepudiation (critical), emailProtection, 3 years, with where to find
 * the issuer, its status (OCSP) and the CRL.
 */
export async function issueSignerCertificate(
  publicKey: KeyObject,
  subject: Pick<SignerSubject, 'fullName' | 'email'>,
  issuer: Issuer,
  options: { now: Date; publicOrigin: string },
): Promise<Uint8Array> {
  return issue(signerDraft(publicKey, subject, issuer, options));
}

function signerDraft(
  publicKey: KeyObject,
  subject: Pick<SignerSubject, 'fullName' | 'email'>,
  issuer: Issuer,
  options: { now: Date; publicOrigin: string },
): Draft {
  const fields = issuerFields(issuer);
  const urls = pkiUrls(options.publicOrigin);
  return {
    subject: nameOf([
      utf8(OID.commonName, signerCommonName(subject)),
      { type: OID.emailAddress, value: new AttributeValue({ ia5String: subject.email }) },
    ]),
    publicKey,
    issuer: fields,
    signingKey: issuer.privateKey,
    now: options.now,
    years: VALIDITY_YEARS.signer,
    extensions: (keyIdentifier) => [
      extension(id_ce_basicConstraints, new BasicConstraints({ cA: false }), true),
      keyUsage(KeyUsageFlags.digitalSignature | KeyUsageFlags.nonRepudiation),
      extension(id_ce_extKeyUsage, new ExtendedKeyUsage([id_kp_emailProtection])),
      extension(
        id_ce_subjectAltName,
        new SubjectAlternativeName([new GeneralName({ rfc822Name: subject.email })]),
      ),
      subjectKeyIdentifier(keyIdentifier),
      authorityKeyIdentifier(fields),
      authorityInfoAccess(urls, true),
      crlDistributionPoints(urls),
    ],
  };
}

/**
 * Does once, at load, what a person's first certificate would otherwise pay on the event loop: parsing
 * the CA's certificate and asn1-schema's first encoding of each structure (tens of milliseconds together).
 */
export function prepareIssuer(issuer: Issuer, publicOrigin: string): void {
  draftTbs(
    signerDraft(issuer.privateKey, { fullName: 'Warm-up', email: 'warm-up@paraph.invalid' }, issuer, {
      now: new Date(),
      publicOrigin,
    }),
  );
}

/** The time-stamping authority's certificate: timeStamping as its only, critical, extended key usage. */
export async function issueTsaCertificate(
  publicKey: KeyObject,
  issuer: Issuer,
  options: { now: Date; publicOrigin: string },
): Promise<Uint8Array> {
  const fields = issuerFields(issuer);
  const urls = pkiUrls(options.publicOrigin);
  return issue({
    subject: deploymentName('Paraph Time-Stamping Authority', options.publicOrigin),
    publicKey,
    issuer: fields,
    signingKey: issuer.privateKey,
    now: options.now,
    years: VALIDITY_YEARS.tsa,
    extensions: (keyIdentifier) => [
      keyUsage(KeyUsageFlags.digitalSignature | KeyUsageFlags.nonRepudiation),
      extension(id_ce_extKeyUsage, new ExtendedKeyUsage([id_kp_timeStamping]), true),
      subjectKeyIdentifier(keyIdentifier),
      authorityKeyIdentifier(fields),
      authorityInfoAccess(urls, true),
      crlDistributionPoints(urls),
    ],
  });
}

/**
 * The OCSP responder's certificate, delegated by the CA (OCSPSigning), with id-pkix-ocsp-nocheck: a
 * verifier does not ask the responder about its own certificate, which is why it lives a year only.
 */
export async function issueOcspResponderCertificate(
  publicKey: KeyObject,
  issuer: Issuer,
  options: { now: Date; publicOrigin: string },
): Promise<Uint8Array> {
  const fields = issuerFields(issuer);
  return issue({
    subject: deploymentName('Paraph OCSP Responder', options.publicOrigin),
    publicKey,
    issuer: fields,
    signingKey: issuer.privateKey,
    now: options.now,
    years: VALIDITY_YEARS.ocsp,
    extensions: (keyIdentifier) => [
      keyUsage(KeyUsageFlags.digitalSignature),
      extension(id_ce_extKeyUsage, new ExtendedKeyUsage([id_kp_OCSPSigning])),
      new Extension({
        extnID: OID.ocspNoCheck,
        critical: false,
        extnValue: new OctetString(AsnNullConverter.toASN(null).toBER(false)),
      }),
      subjectKeyIdentifier(keyIdentifier),
      authorityKeyIdentifier(fields),
      authorityInfoAccess(pkiUrls(options.publicOrigin), false),
    ],
  });
}
