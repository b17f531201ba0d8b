// Revocation status from the evidence a signed PDF carries: OCSP responses and CRLs from the DSS (PAdES
// B-LT) or from the signature itself (the CMS's revocation choices, Adobe's archival attribute). Evidence
// counts only once its own signature verifies with the certificate's issuer (or, for OCSP, a responder the
// issuer delegated to); anything else is as if it were absent, and the status is then "not checked".
import { AsnConvert } from '@peculiar/asn1-schema';
import { RevocationInfoChoice } from '@peculiar/asn1-cms';
import {
  BasicOCSPResponse,
  OCSPResponse,
  OCSPResponseStatus,
  type SingleResponse,
} from '@peculiar/asn1-ocsp';
import { Certificate, CertificateList, CRLReason, CRLReasons } from '@peculiar/asn1-x509';
import type { RevocationReason } from '../signing/pki/types.ts';
import { checkSignature, digest, digestName } from './algorithms.ts';
import { bytesOf, OID } from './asn1.ts';
import { hasExtendedKeyUsage, isIssuedBy, parseCertificate, type ParsedCertificate } from './certificates.ts';

// `service`: this deployment's own current CRL, for the certificates its CA issued.
export type EvidenceSource = 'dss' | 'signature' | 'service';

export type RevocationStatus =
  | { status: 'good'; kind: 'ocsp' | 'crl'; source: EvidenceSource; checkedAt: Date }
  | {
      status: 'revoked';
      kind: 'ocsp' | 'crl';
      source: EvidenceSource;
      checkedAt: Date;
      revokedAt: Date;
      reason: RevocationReason;
    }
  | { status: 'unknown'; kind: 'ocsp'; source: EvidenceSource; checkedAt: Date }
  | { status: 'not_checked' };

type OcspEvidence = {
  source: EvidenceSource;
  response: BasicOCSPResponse;
  signedBytes: Buffer;
  certificates: ParsedCertificate[];
};

type CrlEvidence = { source: EvidenceSource; list: CertificateList; signedBytes: Buffer };

const REASONS: Record<number, RevocationReason> = {
  [CRLReasons.unspecified]: 'unspecified',
  [CRLReasons.keyCompromise]: 'keyCompromise',
  [CRLReasons.cACompromise]: 'cACompromise',
  [CRLReasons.affiliationChanged]: 'affiliationChanged',
  [CRLReasons.superseded]: 'superseded',
  [CRLReasons.cessationOfOperation]: 'cessationOfOperation',
  [CRLReasons.certificateHold]: 'certificateHold',
  [CRLReasons.removeFromCRL]: 'removeFromCRL',
  [CRLReasons.privilegeWithdrawn]: 'privilegeWithdrawn',
  [CRLReasons.aACompromise]: 'aACompromise',
};

const reasonOf = (reason: CRLReasons | undefined): RevocationReason =>
  (reason === undefined ? undefined : REASONS[reason]) ?? 'unspecified';

/** A serial number as hex without leading zero bytes, whichever way it was encoded. */
function serialHex(bytes: Uint8Array | string): string {
  const hex = typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('hex');
  return hex.toUpperCase().replace(/^(00)+(?=.)/, '');
}

function parseOcsp(der: Uint8Array, source: EvidenceSource): OcspEvidence | null {
  try {
    const outer = AsnConvert.parse(der, OCSPResponse);
    if (outer.responseStatus !== OCSPResponseStatus.successful || outer.responseBytes === undefined)
      return null;
    if (outer.responseBytes.responseType !== OID.ocspBasic) return null;
    const response = AsnConvert.parse(outer.responseBytes.response, BasicOCSPResponse);
    if (response.tbsResponseDataRaw === undefined) return null;
    const certificates = (response.certs ?? []).flatMap((certificate: Certificate) => {
      const parsed = parseCertificate(new Uint8Array(AsnConvert.serialize(certificate)));
      return parsed === null ? [] : [parsed];
    });
    return { source, response, signedBytes: bytesOf(response.tbsResponseDataRaw), certificates };
  } catch {
    return null;
  }
}

function parseCrl(der: Uint8Array, source: EvidenceSource): CrlEvidence | null {
  try {
    const list = AsnConvert.parse(der, CertificateList);
    if (list.tbsCertListRaw === undefined) return null;
    return { source, list, signedBytes: bytesOf(list.tbsCertListRaw) };
  } catch {
    return null;
  }
}

/** All the revocation evidence of one document, parsed once; signatures are checked when first needed. */
export class RevocationEvidence {
  readonly ocsp: OcspEvidence[] = [];
  readonly crls: CrlEvidence[] = [];
  readonly #verified = new Map<object, Map<string, Promise<boolean>>>();

  addOcspResponse(der: Uint8Array, source: EvidenceSource): void {
    const parsed = parseOcsp(der, source);
    if (parsed !== null) this.ocsp.push(parsed);
  }

  addCrl(der: Uint8Array, source: EvidenceSource): void {
    const parsed = parseCrl(der, source);
    if (parsed !== null) this.crls.push(parsed);
  }

  /** One entry of a CMS's RevocationInfoChoices: a CRL, or an OCSP response as "other" revocation info. */
  addRevocationChoice(der: Uint8Array, source: EvidenceSource): void {
    const crl = parseCrl(der, source);
    if (crl !== null) {
      this.crls.push(crl);
      return;
    }
    try {
      const choice = AsnConvert.parse(der, RevocationInfoChoice);
      if (choice.other.otherRevInfoFormat === OID.ocspResponseRevocationInfo) {
        this.addOcspResponse(new Uint8Array(choice.other.otherRevInfo), source);
      }
    } catch {
      // Neither a CRL nor a revocation choice this verifier reads: ignored, like any unreadable evidence.
    }
  }

  // A response or list names many certificates of one issuer: its signature is checked once per issuer.
  #once(evidence: object, issuer: ParsedCertificate, check: () => Promise<boolean>): Promise<boolean> {
    const key = issuer.fingerprint;
    let byIssuer = this.#verified.get(evidence);
    if (byIssuer === undefined) {
      byIssuer = new Map();
      this.#verified.set(evidence, byIssuer);
    }
    let verified = byIssuer.get(key);
    if (verified === undefined) {
      verified = check();
      byIssuer.set(key, verified);
    }
    return verified;
  }

  #ocspIsAuthentic(evidence: OcspEvidence, issuer: ParsedCertificate): Promise<boolean> {
    return this.#once(evidence, issuer, async () => {
      // The issuer answers for its own certificates, or delegates to a responder it certified for OCSP.
      const responders = [
        issuer,
        ...evidence.certificates.filter(
          (candidate) => hasExtendedKeyUsage(candidate, OID.ocspSigning) && isIssuedBy(candidate, issuer),
        ),
      ];
      for (const responder of responders) {
        const check = await checkSignature(
          evidence.response.signatureAlgorithm.algorithm,
          null,
          evidence.signedBytes,
          responder.x509.publicKey,
          new Uint8Array(evidence.response.signature),
        );
        if (check === 'valid') return true;
      }
      return false;
    });
  }

  #crlIsAuthentic(evidence: CrlEvidence, issuer: ParsedCertificate): Promise<boolean> {
    return this.#once(evidence, issuer, async () => {
      const issuerName = Buffer.from(AsnConvert.serialize(issuer.asn.tbsCertificate.subject));
      const crlIssuer = Buffer.from(AsnConvert.serialize(evidence.list.tbsCertList.issuer));
      if (!issuerName.equals(crlIssuer)) return false;
      const check = await checkSignature(
        evidence.list.signatureAlgorithm.algorithm,
        null,
        evidence.signedBytes,
        issuer.x509.publicKey,
        new Uint8Array(evidence.list.signature),
      );
      return check === 'valid';
    });
  }

  #matches(single: SingleResponse, certificate: ParsedCertificate, issuer: ParsedCertificate): boolean {
    if (serialHex(new Uint8Array(single.certID.serialNumber)) !== serialHex(certificate.serialNumber))
      return false;
    const hash = digestName(single.certID.hashAlgorithm.algorithm);
    if (hash === null) return false;
    const keyHash = digest(
      hash,
      new Uint8Array(issuer.asn.tbsCertificate.subjectPublicKeyInfo.subjectPublicKey),
    );
    return keyHash.equals(bytesOf(single.certID.issuerKeyHash.buffer));
  }

  /** The status of `certificate` issued by `issuer`, from the newest authentic evidence that names it. */
  async statusOf(
    certificate: ParsedCertificate,
    issuer: ParsedCertificate | null,
  ): Promise<RevocationStatus> {
    if (issuer === null) return { status: 'not_checked' };
    const found: Exclude<RevocationStatus, { status: 'not_checked' }>[] = [];
    for (const evidence of this.ocsp) {
      const singles = evidence.response.tbsResponseData.responses.filter((single) =>
        this.#matches(single, certificate, issuer),
      );
      if (singles.length === 0) continue;
      if (!(await this.#ocspIsAuthentic(evidence, issuer))) continue;
      const checkedAt = evidence.response.tbsResponseData.producedAt;
      for (const single of singles) {
        const { certStatus } = single;
        if (certStatus.revoked !== undefined) {
          found.push({
            status: 'revoked',
            kind: 'ocsp',
            source: evidence.source,
            checkedAt,
            revokedAt: certStatus.revoked.revocationTime,
            reason: reasonOf(certStatus.revoked.revocationReason?.reason),
          });
        } else if (certStatus.good !== undefined) {
          found.push({ status: 'good', kind: 'ocsp', source: evidence.source, checkedAt });
        } else {
          found.push({ status: 'unknown', kind: 'ocsp', source: evidence.source, checkedAt });
        }
      }
    }
    for (const evidence of this.crls) {
      if (!(await this.#crlIsAuthentic(evidence, issuer))) continue;
      const { tbsCertList } = evidence.list;
      const checkedAt = tbsCertList.thisUpdate.getTime();
      const entry = tbsCertList.revokedCertificates?.find(
        (revoked) =>
          serialHex(new Uint8Array(revoked.userCertificate)) === serialHex(certificate.serialNumber),
      );
      if (entry === undefined) {
        found.push({ status: 'good', kind: 'crl', source: evidence.source, checkedAt });
        continue;
      }
      const reasonExtension = entry.crlEntryExtensions?.find(
        (extension) => extension.extnID === OID.crlReason,
      );
      let reason: RevocationReason = 'unspecified';
      if (reasonExtension !== undefined) {
        try {
          reason = reasonOf(AsnConvert.parse(reasonExtension.extnValue, CRLReason).reason);
        } catch {
          reason = 'unspecified';
        }
      }
      found.push({
        status: 'revoked',
        kind: 'crl',
        source: evidence.source,
        checkedAt,
        revokedAt: entry.revocationDate.getTime(),
        reason,
      });
    }
    // A revocation anyone authentic reports outweighs a "good" from older evidence; otherwise the newest
    // "good" the file carries itself (the proof that stays with it), the service's only when it has none.
    const revoked = found.filter((status) => status.status === 'revoked');
    const good = found.filter((status) => status.status === 'good');
    const carried = good.filter((status) => status.source !== 'service');
    const pool = revoked.length > 0 ? revoked : carried.length > 0 ? carried : good;
    const chosen = (pool.length > 0 ? pool : found).sort(
      (a, b) => b.checkedAt.getTime() - a.checkedAt.getTime(),
    )[0];
    return chosen ?? { status: 'not_checked' };
  }
}
