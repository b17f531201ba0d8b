// One signature's part of a verification report: its CMS (or, for a document time-stamp, its token)
// checked against the bytes its range covers, its time-stamp, its signer's chain to the trust anchors and
// the revocation of each certificate in it, then its problems and its verdict (docs/decisions.md,
// "Verifying signed PDFs").
import { digest, digestLabel } from './algorithms.ts';
import { bytesOf, OID } from './asn1.ts';
import { ALLOWED_CHANGES, type ChangeKind } from './changes.ts';
import {
  buildChain,
  isValidAt,
  readableText,
  sameCertificate,
  type Chain,
  type ParsedCertificate,
} from './certificates.ts';
import {
  attributeValues,
  checkSignedData,
  collectRevocationEvidence,
  UnreadableCmsError,
  type CmsCheck,
} from './cms.ts';
import type { SignatureDictionary } from './pdf-signatures.ts';
import {
  signatureVerdict,
  type CertificateReport,
  type RevocationReport,
  type SignatureProblem,
  type SignatureReport,
} from './report.ts';
import type { RevocationEvidence, RevocationStatus } from './revocation.ts';
import { checkTimeStampToken, type TimeStampCheck } from './time-stamps.ts';

const DETACHED = new Set(['ETSI.CAdES.detached', 'adbe.pkcs7.detached']);
const SHA1_DIGEST = 'adbe.pkcs7.sha1';

/** What a signature's /ByteRange covers of the file (verify-pdf.ts checks it). */
export type RangeCheck = {
  ranges: number[];
  parts: Buffer[];
  end: number;
  coversWholeRevision: boolean;
  coversWholeFile: boolean;
};

const iso = (date: Date | null | undefined): string | null =>
  date === null || date === undefined || Number.isNaN(date.getTime()) ? null : date.toISOString();

function revocationReport(status: RevocationStatus): RevocationReport {
  if (status.status === 'not_checked') {
    return {
      status: 'not_checked',
      kind: null,
      source: null,
      checkedAt: null,
      revokedAt: null,
      reason: null,
    };
  }
  return {
    status: status.status,
    kind: status.kind,
    source: status.source,
    checkedAt: iso(status.checkedAt),
    revokedAt: status.status === 'revoked' ? iso(status.revokedAt) : null,
    reason: status.status === 'revoked' ? status.reason : null,
  };
}

type ChainReport = { certificates: CertificateReport[]; statuses: RevocationStatus[] };

async function reportChain(
  chain: Chain,
  anchors: readonly ParsedCertificate[],
  evidence: RevocationEvidence,
  at: Date,
): Promise<ChainReport> {
  const statuses: RevocationStatus[] = [];
  const certificates: CertificateReport[] = [];
  for (const [index, certificate] of chain.certificates.entries()) {
    const isTrustAnchor = anchors.some((anchor) => sameCertificate(anchor, certificate));
    const status = isTrustAnchor
      ? null
      : await evidence.statusOf(certificate, chain.certificates[index + 1] ?? null);
    if (status !== null) statuses.push(status);
    certificates.push({
      subject: certificate.subject,
      issuer: certificate.issuer,
      serialNumber: certificate.serialNumber,
      notBefore: certificate.notBefore.toISOString(),
      notAfter: certificate.notAfter.toISOString(),
      fingerprint: certificate.fingerprint,
      isTrustAnchor,
      isValidAtSigningTime: isValidAt(certificate, at),
      revocation: status === null ? null : revocationReport(status),
    });
  }
  return { certificates, statuses };
}

export type SignatureContext = {
  anchors: ParsedCertificate[];
  pool: ParsedCertificate[];
  evidence: RevocationEvidence;
  now: Date;
};

type Checked = {
  cms: CmsCheck | null;
  signer: ParsedCertificate | null;
  certificates: ParsedCertificate[];
  isUnreadable: boolean;
  isUnsupported: boolean;
  signatureVerifies: boolean;
  digestMatches: boolean;
  digestAlgorithm: string | null;
  timeStamp: TimeStampCheck | null;
};

async function checkSignature(
  signature: SignatureDictionary,
  range: RangeCheck,
  context: SignatureContext,
): Promise<Checked> {
  const unreadable: Checked = {
    cms: null,
    signer: null,
    certificates: [],
    isUnreadable: true,
    isUnsupported: false,
    signatureVerifies: false,
    digestMatches: false,
    digestAlgorithm: null,
    timeStamp: null,
  };
  if (signature.contents === null) return unreadable;
  if (signature.kind === 'document_time_stamp') {
    const token = await checkTimeStampToken(signature.contents, range.parts, context.anchors, context.pool);
    if (token.cms === null) return unreadable;
    return {
      cms: token.cms,
      signer: token.cms.signer,
      certificates: token.cms.certificates,
      isUnreadable: false,
      isUnsupported: token.isUnsupported,
      signatureVerifies: token.isValid,
      digestMatches: token.imprintMatches,
      digestAlgorithm: token.cms.digestAlgorithm,
      timeStamp: token,
    };
  }
  const subFilter = signature.subFilter ?? '';
  if (!DETACHED.has(subFilter) && subFilter !== SHA1_DIGEST)
    return { ...unreadable, isUnreadable: false, isUnsupported: true };
  let cms: CmsCheck;
  try {
    cms = await checkSignedData(
      signature.contents,
      subFilter === SHA1_DIGEST ? { kind: 'encapsulated' } : { kind: 'detached', parts: range.parts },
    );
  } catch (error) {
    if (error instanceof UnreadableCmsError) return unreadable;
    throw error;
  }
  collectRevocationEvidence(cms, context.evidence);
  let digestMatches = cms.digestMatches;
  // adbe.pkcs7.sha1 signs the SHA-1 of the byte range, carried as the CMS's content.
  if (subFilter === SHA1_DIGEST) {
    digestMatches &&=
      cms.encapsulatedContent !== null && cms.encapsulatedContent.equals(digest('sha1', ...range.parts));
  }
  const tokenDer = attributeValues(cms.signerInfo.unsignedAttrs, OID.signatureTimeStampToken)[0];
  const timeStamp =
    tokenDer === undefined
      ? null
      : await checkTimeStampToken(
          new Uint8Array(tokenDer),
          [bytesOf(cms.signerInfo.signature.buffer)],
          context.anchors,
          [...context.pool, ...cms.certificates],
        );
  if (timeStamp?.cms) collectRevocationEvidence(timeStamp.cms, context.evidence);
  return {
    cms,
    signer: cms.signer,
    certificates: cms.certificates,
    isUnreadable: false,
    isUnsupported: cms.isUnsupported,
    signatureVerifies: cms.signatureVerifies && cms.signingCertificateMatches,
    digestMatches,
    digestAlgorithm: cms.digestAlgorithm,
    timeStamp,
  };
}

/** The report of one signature (or document time-stamp), its problems worst first. */
export async function reportSignature(
  signature: SignatureDictionary,
  index: number,
  range: RangeCheck,
  changes: Set<ChangeKind> | null,
  context: SignatureContext,
): Promise<SignatureReport> {
  const checked = await checkSignature(signature, range, context);
  const problems = new Set<SignatureProblem>();
  if (!range.coversWholeRevision) problems.add('byte_range_invalid');
  if (checked.isUnreadable) problems.add('signature_unreadable');
  else if (checked.isUnsupported) problems.add('unsupported_format');
  else if (checked.signer === null) problems.add('signer_certificate_missing');
  else {
    if (!checked.signatureVerifies) problems.add('signature_invalid');
    if (!checked.digestMatches) problems.add('digest_mismatch');
  }

  const { timeStamp } = checked;
  const isStampSound = timeStamp !== null && timeStamp.isValid && timeStamp.imprintMatches;
  if (signature.kind === 'signature' && timeStamp !== null) {
    if (!isStampSound) problems.add('time_stamp_invalid');
    else if (!timeStamp.isTrusted) problems.add('time_stamp_not_trusted');
  }
  // The time a certificate must have been valid at: proven by a sound time-stamp, else as claimed.
  const provenTime = isStampSound ? timeStamp.genTime : null;
  const signingTime = provenTime ?? signature.signingTime ?? checked.cms?.signingTime ?? context.now;

  let chain: Chain | null = null;
  let chainReport: ChainReport = { certificates: [], statuses: [] };
  if (checked.signer !== null) {
    chain =
      signature.kind === 'document_time_stamp' && timeStamp?.chain
        ? timeStamp.chain
        : buildChain(checked.signer, [...checked.certificates, ...context.pool], context.anchors);
    chainReport = await reportChain(chain, context.anchors, context.evidence, signingTime);
    if (chain.status !== 'trusted') problems.add('not_trusted');
    else if (signature.kind === 'document_time_stamp' && !timeStamp?.isTrusted) problems.add('not_trusted');
    if (!isValidAt(checked.signer, signingTime)) problems.add('certificate_not_valid_at_signing_time');
    for (const status of chainReport.statuses) {
      if (status.status !== 'revoked') continue;
      const isAfterProvenTime = provenTime !== null && status.revokedAt.getTime() > provenTime.getTime();
      problems.add(isAfterProvenTime ? 'revoked_after_signing' : 'revoked');
    }
    if (
      chainReport.statuses.some((status) => status.status === 'not_checked' || status.status === 'unknown')
    ) {
      problems.add('revocation_not_checked');
    }
  }
  const changeKinds = [...(changes ?? [])].sort();
  const onlyAllowed = changeKinds.every((kind) => ALLOWED_CHANGES.has(kind));
  if (!onlyAllowed) problems.add('changed_after');

  const ordered = ORDER.filter((problem) => problems.has(problem));
  const signer = checked.signer;
  return {
    index,
    kind: signature.kind,
    fieldName: signature.fieldName === null ? null : readableText(signature.fieldName),
    verdict: signatureVerdict(ordered),
    problems: ordered,
    subFilter: signature.subFilter,
    signer: {
      name: signer?.commonName ?? null,
      email: signer?.email ?? null,
      certificateSubject: signer?.subject ?? null,
      nameInDocument: signature.name === null ? null : readableText(signature.name),
    },
    reason: signature.reason === null ? null : readableText(signature.reason),
    location: signature.location === null ? null : readableText(signature.location),
    signingTime: { claimed: iso(signature.signingTime), cms: iso(checked.cms?.signingTime) },
    timeStamp:
      timeStamp === null
        ? null
        : {
            time: iso(timeStamp.genTime),
            authority: timeStamp.authority,
            isValid: timeStamp.isValid,
            imprintMatches: timeStamp.imprintMatches,
            isTrusted: timeStamp.isTrusted,
          },
    integrity: {
      isIntact: checked.signatureVerifies && checked.digestMatches && range.coversWholeRevision,
      signatureVerifies: checked.signatureVerifies,
      digestMatches: checked.digestMatches,
      digestAlgorithm: checked.digestAlgorithm === null ? null : digestLabel(checked.digestAlgorithm),
    },
    byteRange: {
      ranges: range.ranges,
      coveredBytes: range.parts.reduce((total, part) => total + part.length, 0),
      revisionEnd: range.end,
      coversWholeRevision: range.coversWholeRevision,
      coversWholeFile: range.coversWholeFile,
    },
    changesAfter: { isChanged: changeKinds.length > 0, onlyAllowed, kinds: changeKinds },
    chain: { isTrusted: chain?.status === 'trusted', certificates: chainReport.certificates },
  };
}

const ORDER: readonly SignatureProblem[] = [
  'byte_range_invalid',
  'signature_unreadable',
  'signer_certificate_missing',
  'signature_invalid',
  'digest_mismatch',
  'revoked',
  'certificate_not_valid_at_signing_time',
  'time_stamp_invalid',
  'changed_after',
  'not_trusted',
  'unsupported_format',
  'revoked_after_signing',
  'revocation_not_checked',
  'time_stamp_not_trusted',
];
