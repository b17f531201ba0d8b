// Digest and signature algorithms by OID, and signature checks through node:crypto's asynchronous verify
// (it runs on the thread pool). An algorithm not listed here is reported as unsupported, never guessed.
import { createHash, verify, type KeyObject } from 'node:crypto';

const DIGESTS: Record<string, string> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.4': 'sha224',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};

// Signature algorithms that name their digest; the key type comes from the key itself.
const SIGNATURES_WITH_DIGEST: Record<string, string | null> = {
  '1.2.840.113549.1.1.5': 'sha1',
  '1.2.840.113549.1.1.14': 'sha224',
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
  '1.2.840.10045.4.1': 'sha1',
  '1.2.840.10045.4.3.1': 'sha224',
  '1.2.840.10045.4.3.2': 'sha256',
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
  // Ed25519 and Ed448 hash inside the algorithm.
  '1.3.101.112': null,
  '1.3.101.113': null,
};

// A CMS SignerInfo may name only the key's algorithm (rsaEncryption, ecPublicKey) and take the digest
// from its digestAlgorithm.
const KEY_ONLY_SIGNATURES = new Set(['1.2.840.113549.1.1.1', '1.2.840.10045.2.1']);

/** Node's name of a digest algorithm OID, or null when it is not one this verifier knows. */
export function digestName(oid: string): string | null {
  return DIGESTS[oid] ?? null;
}

/** What people read: "SHA-256". */
export function digestLabel(name: string): string {
  return name.toUpperCase().replace(/^SHA/, 'SHA-');
}

export function digest(name: string, ...parts: readonly Uint8Array[]): Buffer {
  const hash = createHash(name);
  for (const part of parts) hash.update(part);
  return hash.digest();
}

/**
 * The digest crypto.verify takes for a signature algorithm (null for EdDSA), or undefined when the
 * algorithm is unknown. `fallbackDigest` is the SignerInfo's digest for a bare key algorithm.
 */
export function signatureDigest(
  signatureOid: string,
  fallbackDigest: string | null,
): string | null | undefined {
  if (signatureOid in SIGNATURES_WITH_DIGEST) return SIGNATURES_WITH_DIGEST[signatureOid];
  if (KEY_ONLY_SIGNATURES.has(signatureOid)) return fallbackDigest ?? undefined;
  return undefined;
}

export type SignatureCheck = 'valid' | 'invalid' | 'unsupported';

/** Whether `signature` over `data` verifies with `key`; a malformed key or signature is simply invalid. */
export function verifySignature(
  digestAlgorithm: string | null,
  data: Uint8Array,
  key: KeyObject,
  signature: Uint8Array,
): Promise<boolean> {
  return new Promise((resolve) => {
    try {
      verify(digestAlgorithm, data, key, signature, (error, isValid) => resolve(error === null && isValid));
    } catch {
      resolve(false);
    }
  });
}

/** Verifies with the algorithm named by OID; 'unsupported' when this verifier does not know it. */
export async function checkSignature(
  signatureOid: string,
  fallbackDigest: string | null,
  data: Uint8Array,
  key: KeyObject,
  signature: Uint8Array,
): Promise<SignatureCheck> {
  const algorithm = signatureDigest(signatureOid, fallbackDigest);
  if (algorithm === undefined) return 'unsupported';
  return (await verifySignature(algorithm, data, key, signature)) ? 'valid' : 'invalid';
}
