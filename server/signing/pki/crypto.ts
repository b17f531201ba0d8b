// Signing and checking with node:crypto, off the event loop: crypto.sign and crypto.verify with a callback
// run in libuv's thread pool, where an RSA private-key operation (a few milliseconds) cannot stall requests.
// Also the algorithm identifiers the protocols write and the ones they accept when they read.
import { X509Certificate, createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { AlgorithmIdentifier } from '@peculiar/asn1-x509';

export const OID = {
  sha1: '1.3.14.3.2.26',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha384: '2.16.840.1.101.3.4.2.2',
  sha512: '2.16.840.1.101.3.4.2.3',
  rsaEncryption: '1.2.840.113549.1.1.1',
  sha1WithRSAEncryption: '1.2.840.113549.1.1.5',
  sha256WithRSAEncryption: '1.2.840.113549.1.1.11',
  sha384WithRSAEncryption: '1.2.840.113549.1.1.12',
  sha512WithRSAEncryption: '1.2.840.113549.1.1.13',
  ecdsaWithSHA256: '1.2.840.10045.4.3.2',
  ecdsaWithSHA384: '1.2.840.10045.4.3.3',
  ecdsaWithSHA512: '1.2.840.10045.4.3.4',
  ecPublicKey: '1.2.840.10045.2.1',
} as const;

export type DigestName = 'sha1' | 'sha256' | 'sha384' | 'sha512';

const DIGEST_NAMES: Record<string, DigestName> = {
  [OID.sha1]: 'sha1',
  [OID.sha256]: 'sha256',
  [OID.sha384]: 'sha384',
  [OID.sha512]: 'sha512',
};

export const DIGEST_LENGTHS: Record<DigestName, number> = { sha1: 20, sha256: 32, sha384: 48, sha512: 64 };

/** node's name for a digest algorithm OID, or undefined for one Paraph does not accept. */
export function digestName(oid: string): DigestName | undefined {
  return DIGEST_NAMES[oid];
}

export function digest(name: DigestName, data: Uint8Array): Uint8Array {
  return new Uint8Array(createHash(name).update(data).digest());
}

/** SHA-256 as a digest AlgorithmIdentifier: no parameters (RFC 5754 3). */
export const sha256Identifier = (): AlgorithmIdentifier => new AlgorithmIdentifier({ algorithm: OID.sha256 });

/** An RSA signature AlgorithmIdentifier: parameters NULL (RFC 4055 5). */
export const rsaIdentifier = (algorithm: string): AlgorithmIdentifier =>
  new AlgorithmIdentifier({ algorithm, parameters: null });

/** RSA PKCS #1 v1.5 with SHA-256 of `data`, computed in the thread pool. */
export function signSha256Rsa(data: Uint8Array, key: KeyObject): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    sign('sha256', data, key, (error, signature) => {
      if (error) reject(error);
      else resolve(new Uint8Array(signature));
    });
  });
}

/** Makes a signature (RSA PKCS #1 v1.5, SHA-256) over `data` with a key the caller does not hand out. */
export type SignFunction = (data: Uint8Array) => Promise<Uint8Array>;

/**
 * signSha256Rsa with `privateKey`, once it is known to be an RSA key and the key of `certificate`: what the
 * codec thread (codec.ts) is given instead of the key itself.
 */
export function rsaSigning(privateKey: KeyObject, certificate: Uint8Array, what: string): SignFunction {
  if (privateKey.asymmetricKeyType !== 'rsa') throw new Error('Paraph signs with RSA keys only');
  assertKeyMatches(privateKey, certificate, what);
  return (data) => signSha256Rsa(data, privateKey);
}

const SIGNATURE_DIGESTS: Record<string, DigestName> = {
  [OID.sha1WithRSAEncryption]: 'sha1',
  [OID.sha256WithRSAEncryption]: 'sha256',
  [OID.sha384WithRSAEncryption]: 'sha384',
  [OID.sha512WithRSAEncryption]: 'sha512',
  [OID.ecdsaWithSHA256]: 'sha256',
  [OID.ecdsaWithSHA384]: 'sha384',
  [OID.ecdsaWithSHA512]: 'sha512',
};

/**
 * Checks a signature in the thread pool. `algorithm` is the signature AlgorithmIdentifier's OID; CMS may
 * name only the key type (rsaEncryption, id-ecPublicKey) and leave the digest to `digestOid`. Answers
 * false for a wrong signature, throws for an algorithm it does not know (RSASSA-PSS among them).
 */
export function verifySignature(
  algorithm: string,
  data: Uint8Array,
  key: KeyObject,
  signature: Uint8Array,
  digestOid?: string,
): Promise<boolean> {
  const byKeyOnly = algorithm === OID.rsaEncryption || algorithm === OID.ecPublicKey;
  const hash = byKeyOnly && digestOid ? digestName(digestOid) : SIGNATURE_DIGESTS[algorithm];
  if (!hash) return Promise.reject(new Error(`Unsupported signature algorithm ${algorithm}`));
  return new Promise((resolve, reject) => {
    verify(hash, data, key, signature, (error, valid) => {
      if (error) reject(error);
      else resolve(valid);
    });
  });
}

// Keys and certificates travel together for the life of the process: checked once per pair.
const matched = new WeakMap<KeyObject, Set<string>>();

/** Throws when `privateKey` is not the key of `certificate`: every signature it made would fail to verify. */
export function assertKeyMatches(privateKey: KeyObject, certificate: Uint8Array, what: string): void {
  const id = createHash('sha256').update(certificate).digest('base64');
  if (matched.get(privateKey)?.has(id)) return;
  const fromKey = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  const fromCertificate = new X509Certificate(certificate).publicKey.export({ type: 'spki', format: 'der' });
  if (!fromKey.equals(fromCertificate)) {
    throw new Error(`The ${what} private key does not belong to its certificate`);
  }
  const ids = matched.get(privateKey) ?? new Set<string>();
  ids.add(id);
  matched.set(privateKey, ids);
}
