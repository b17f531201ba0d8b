// The shapes the signing parts share: the deployment's keys and certificates (server/signing/ca/) hand
// them to the protocols (server/signing/pki/) and the PDF signer (server/signing/pades.ts, ltv.ts).
// Certificates travel as DER bytes, exactly as issued; private keys as node:crypto KeyObjects.
import type { KeyObject } from 'node:crypto';

/** A key with its certificate and the chain above it, issuer first, up to and including the root. */
export type CertifiedKey = {
  privateKey: KeyObject;
  certificate: Uint8Array;
  chain: readonly Uint8Array[];
};

/** RFC 5280 CRLReason, by name. */
export type RevocationReason =
  | 'unspecified'
  | 'keyCompromise'
  | 'cACompromise'
  | 'affiliationChanged'
  | 'superseded'
  | 'cessationOfOperation'
  | 'certificateHold'
  | 'removeFromCRL'
  | 'privilegeWithdrawn'
  | 'aACompromise';

export type CertificateStatus =
  | { status: 'good' }
  | { status: 'revoked'; revokedAt: Date; reason: RevocationReason }
  | { status: 'unknown' };

/** A revoked certificate as a CRL lists it. Serials are upper-case hex, as X509Certificate.serialNumber prints them. */
export type RevokedCertificate = { serialNumber: string; revokedAt: Date; reason: RevocationReason };
