// The local certificate authority of the embedded signer: one CA created on first start in <dataDir>/ca/,
// and one end-entity certificate per signer issued by it. Keys come from Node's crypto (node-forge's pure-JS
// RSA key generation takes seconds); node-forge only builds and signs the X.509 structures.
// Several server processes may share one data folder, so every file is written to a temporary name and
// moved into place, and whatever is read is checked (the certificate must match its key) before use.
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPair,
  randomBytes,
  X509Certificate,
  type KeyObject,
} from 'node:crypto';
import { mkdir, readFile, rename, link, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import forge from 'node-forge';

export type CertifiedKey = {
  privateKey: KeyObject;
  certificate: forge.pki.Certificate;
  certificateDer: Buffer;
  certificatePem: string;
};

export type CertificateAuthority = CertifiedKey & { directory: string };

export type SignerSubject = { userId: string; fullName: string; email: string };

const CA_SUBJECT: forge.pki.CertificateField[] = [
  { name: 'commonName', value: 'Paraph Local Signing CA' },
  { name: 'organizationName', value: 'Paraph' },
];
const CA_KEY_BITS = 3072;
const SIGNER_KEY_BITS = 2048;
const CA_YEARS = 20;
const SIGNER_YEARS = 3;
// A certificate that expires within this margin is replaced before it is used again.
const RENEW_MARGIN_MS = 30 * 24 * 3600 * 1000;
// A process that lost the race for the CA key waits this long for the winner's certificate.
const CA_WAIT_MS = 10_000;
const CA_POLL_MS = 50;

const KEY_FILE = 'ca-key.pem';
const CERT_FILE = 'ca-cert.pem';

function randomSerial(): string {
  const bytes = randomBytes(16);
  // A positive INTEGER: the high bit clear, and never a leading zero byte that DER would strip.
  bytes[0] = ((bytes[0] ?? 0) & 0x7f) | 0x40;
  return bytes.toString('hex');
}

function addYears(date: Date, years: number): Date {
  const next = new Date(date.getTime());
  next.setUTCFullYear(next.getUTCFullYear() + years);
  return next;
}

function forgePublicKey(key: KeyObject): forge.pki.rsa.PublicKey {
  return forge.pki.publicKeyFromPem(createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString());
}

function forgePrivateKey(key: KeyObject): forge.pki.rsa.PrivateKey {
  return forge.pki.privateKeyFromPem(key.export({ type: 'pkcs1', format: 'pem' }).toString());
}

function certificateToDer(certificate: forge.pki.Certificate): Buffer {
  return Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(certificate)).getBytes(), 'binary');
}

// Reads a stored pair; null when either file is missing or unreadable, or the certificate is not the key's.
async function readPair(keyFile: string, certFile: string): Promise<CertifiedKey | null> {
  let keyPem: string;
  let certPem: string;
  try {
    [keyPem, certPem] = await Promise.all([readFile(keyFile, 'utf8'), readFile(certFile, 'utf8')]);
  } catch {
    return null;
  }
  try {
    const privateKey = createPrivateKey(keyPem);
    const x509 = new X509Certificate(certPem);
    if (!x509.checkPrivateKey(privateKey)) return null;
    // The DER is the file's own bytes: what the signature embeds and hashes must be the certificate as issued.
    return {
      privateKey,
      certificate: forge.pki.certificateFromPem(certPem),
      certificateDer: x509.raw,
      certificatePem: certPem,
    };
  } catch {
    return null;
  }
}

const generateKeyPairAsync = promisify(generateKeyPair);

// Off the event loop: a 3072-bit key takes up to seconds, and the server keeps answering meanwhile.
async function generateRsaKey(bits: number): Promise<KeyObject> {
  const { privateKey } = await generateKeyPairAsync('rsa', { modulusLength: bits, publicExponent: 0x10001 });
  return privateKey;
}

function buildCaCertificate(privateKey: KeyObject, now: Date): forge.pki.Certificate {
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forgePublicKey(privateKey);
  certificate.serialNumber = randomSerial();
  certificate.validity.notBefore = new Date(now.getTime() - 3600 * 1000);
  certificate.validity.notAfter = addYears(now, CA_YEARS);
  certificate.setSubject(CA_SUBJECT);
  certificate.setIssuer(CA_SUBJECT);
  certificate.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  certificate.sign(forgePrivateKey(privateKey), forge.md.sha256.create());
  return certificate;
}

async function writeTemp(file: string, content: string, mode: number): Promise<string> {
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temp, content, { mode });
  return temp;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The CA of this data folder, created on first use. Two processes starting at once both generate a key,
 * but only one hard-links its key into place (link fails when the name exists), then moves its certificate
 * beside it; the other discards its own and waits for the winner's pair.
 */
export async function loadOrCreateCa(
  dataDir: string,
  clock: () => Date = () => new Date(),
): Promise<CertificateAuthority> {
  const directory = path.join(dataDir, 'ca');
  const keyFile = path.join(directory, KEY_FILE);
  const certFile = path.join(directory, CERT_FILE);
  const existing = await readPair(keyFile, certFile);
  if (existing) return { ...existing, directory };

  await mkdir(directory, { recursive: true, mode: 0o700 });
  const privateKey = await generateRsaKey(CA_KEY_BITS);
  const certificate = buildCaCertificate(privateKey, clock());
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const certPem = forge.pki.certificateToPem(certificate);
  const tempKey = await writeTemp(keyFile, keyPem, 0o600);
  const tempCert = await writeTemp(certFile, certPem, 0o644);
  let isWinner = false;
  try {
    await link(tempKey, keyFile);
    isWinner = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  await rm(tempKey, { force: true });
  if (isWinner) {
    await rename(tempCert, certFile);
    return {
      privateKey,
      certificate,
      certificateDer: certificateToDer(certificate),
      certificatePem: certPem,
      directory,
    };
  }
  await rm(tempCert, { force: true });

  const deadline = Date.now() + CA_WAIT_MS;
  while (Date.now() < deadline) {
    const theirs = await readPair(keyFile, certFile);
    if (theirs) return { ...theirs, directory };
    await sleep(CA_POLL_MS);
  }
  // The winner died between its key and its certificate: certify the key that is there, so the folder
  // is usable again. Any process doing the same writes an equivalent certificate (same name, same key).
  const orphanKey = createPrivateKey(await readFile(keyFile, 'utf8'));
  const repaired = buildCaCertificate(orphanKey, clock());
  const repairedPem = forge.pki.certificateToPem(repaired);
  await rename(await writeTemp(certFile, repairedPem, 0o644), certFile);
  return {
    privateKey: orphanKey,
    certificate: repaired,
    certificateDer: certificateToDer(repaired),
    certificatePem: repairedPem,
    directory,
  };
}

function subjectOf(certificate: forge.pki.Certificate, name: string): string | undefined {
  // getField takes a short name as a string; the long name must be passed as { name }.
  const field = certificate.subject.getField({ name }) as { value?: unknown } | null;
  return typeof field?.value === 'string' ? field.value : undefined;
}

// forge stores attribute values as binary strings (UTF-8 bytes for utf8String values).
const toForgeUtf8 = (text: string): string => forge.util.encodeUtf8(text);

// Compares with the certificate as read from its file, where forge keeps UTF8String values as UTF-8 bytes.
function isCurrentFor(pair: CertifiedKey, subject: SignerSubject, ca: CertifiedKey, now: Date): boolean {
  const { certificate } = pair;
  return (
    subjectOf(certificate, 'commonName') === toForgeUtf8(subject.fullName) &&
    subjectOf(certificate, 'emailAddress') === subject.email &&
    certificate.validity.notAfter.getTime() - now.getTime() > RENEW_MARGIN_MS &&
    certificate.validity.notBefore.getTime() <= now.getTime() &&
    isIssuedBy(pair, ca)
  );
}

function isIssuedBy(pair: CertifiedKey, ca: CertifiedKey): boolean {
  const issuer = new X509Certificate(ca.certificateDer);
  const certificate = new X509Certificate(pair.certificateDer);
  return certificate.checkIssued(issuer) && certificate.verify(issuer.publicKey);
}

type CachedSigner = { fullName: string; email: string; pair: CertifiedKey };
// Per CA, the pairs this process already read or made: reading and checking them again costs ~50 ms.
const signerCache = new WeakMap<CertificateAuthority, Map<string, CachedSigner>>();

// A user id becomes a file name only when it is plainly safe; anything else is hashed.
function signerFileBase(userId: string): string {
  return /^[A-Za-z0-9_-]{1,100}$/.test(userId) ? userId : createHash('sha256').update(userId).digest('hex');
}

function buildSignerCertificate(
  privateKey: KeyObject,
  subject: SignerSubject,
  ca: CertifiedKey,
  now: Date,
): forge.pki.Certificate {
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forgePublicKey(privateKey);
  certificate.serialNumber = randomSerial();
  certificate.validity.notBefore = new Date(now.getTime() - 3600 * 1000);
  certificate.validity.notAfter = addYears(now, SIGNER_YEARS);
  certificate.setSubject([
    // A UTF8String, so that any name survives in the certificate even where the stamp cannot show it. forge
    // takes the string tag here although its types name the field a tag class.
    {
      name: 'commonName',
      value: subject.fullName,
      valueTagClass: forge.asn1.Type.UTF8 as unknown as forge.asn1.Class,
    },
    { name: 'emailAddress', value: subject.email },
  ]);
  certificate.setIssuer(ca.certificate.subject.attributes);
  certificate.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true },
    { name: 'extKeyUsage', emailProtection: true },
    { name: 'subjectAltName', altNames: [{ type: 1, value: subject.email }] },
    { name: 'subjectKeyIdentifier' },
    {
      name: 'authorityKeyIdentifier',
      keyIdentifier: ca.certificate.generateSubjectKeyIdentifier().getBytes(),
    },
  ]);
  certificate.sign(forgePrivateKey(ca.privateKey), forge.md.sha256.create());
  return certificate;
}

/**
 * The signer's key and certificate: the stored pair when it still names this person and is valid,
 * otherwise a new pair (a changed name or address, an expiring or unreadable certificate). The pair
 * returned is the one generated or checked in this call, so a concurrent writer cannot mismatch it.
 */
export async function signerCertificate(
  ca: CertificateAuthority,
  subject: SignerSubject,
  now: Date,
): Promise<CertifiedKey> {
  const cache = signerCache.get(ca) ?? new Map<string, CachedSigner>();
  signerCache.set(ca, cache);
  const cached = cache.get(subject.userId);
  if (
    cached &&
    cached.fullName === subject.fullName &&
    cached.email === subject.email &&
    cached.pair.certificate.validity.notAfter.getTime() - now.getTime() > RENEW_MARGIN_MS
  ) {
    return cached.pair;
  }
  const pair = await storedOrNewSigner(ca, subject, now);
  cache.set(subject.userId, { fullName: subject.fullName, email: subject.email, pair });
  return pair;
}

async function storedOrNewSigner(
  ca: CertificateAuthority,
  subject: SignerSubject,
  now: Date,
): Promise<CertifiedKey> {
  const directory = path.join(ca.directory, 'signers');
  const base = signerFileBase(subject.userId);
  const keyFile = path.join(directory, `${base}.key.pem`);
  const certFile = path.join(directory, `${base}.cert.pem`);
  const stored = await readPair(keyFile, certFile);
  if (stored && isCurrentFor(stored, subject, ca, now)) return stored;

  await mkdir(directory, { recursive: true, mode: 0o700 });
  const privateKey = await generateRsaKey(SIGNER_KEY_BITS);
  const certificate = buildSignerCertificate(privateKey, subject, ca, now);
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const certPem = forge.pki.certificateToPem(certificate);
  const tempKey = await writeTemp(keyFile, keyPem, 0o600);
  const tempCert = await writeTemp(certFile, certPem, 0o644);
  await rename(tempKey, keyFile);
  await rename(tempCert, certFile);
  return { privateKey, certificate, certificateDer: certificateToDer(certificate), certificatePem: certPem };
}
