// Representative verification reports, shaped like POST /verifications answers: what the registry's
// events, the view tests and the QA paths feed the verification machine. Plain values, no behaviour.
import type { VerificationReport, VerificationSignature } from '../../machines/verification.machine';

export function sampleVerificationSignature(
  overrides: Partial<VerificationSignature> = {},
): VerificationSignature {
  return {
    index: 1,
    kind: 'signature',
    fieldName: 'Signature1',
    verdict: 'valid',
    problems: ['revocation_not_checked'],
    subFilter: 'ETSI.CAdES.detached',
    signer: {
      name: 'Ada Lovelace',
      email: 'ada@paraph.test',
      certificateSubject: 'CN=Ada Lovelace, E=ada@paraph.test',
      nameInDocument: 'Ada Lovelace',
    },
    reason: 'I approve this contract',
    location: 'Brussels',
    signingTime: { claimed: '2030-01-02T09:30:00.000Z', cms: null },
    timeStamp: null,
    integrity: { isIntact: true, signatureVerifies: true, digestMatches: true, digestAlgorithm: 'SHA-256' },
    byteRange: {
      ranges: [0, 3804, 36574, 626],
      coveredBytes: 4430,
      revisionEnd: 37200,
      coversWholeRevision: true,
      coversWholeFile: true,
    },
    changesAfter: { isChanged: false, onlyAllowed: true, kinds: [] },
    chain: {
      isTrusted: true,
      certificates: [
        {
          subject: 'CN=Ada Lovelace, E=ada@paraph.test',
          issuer: 'CN=Paraph Local Signing CA, O=Paraph',
          serialNumber: '4F9344641D7421790E9CAE6DD5DB300D',
          notBefore: '2030-01-01T00:00:00.000Z',
          notAfter: '2033-01-01T00:00:00.000Z',
          fingerprint: 'D3:AE:CF:54',
          isTrustAnchor: false,
          isValidAtSigningTime: true,
          revocation: {
            status: 'not_checked',
            kind: null,
            source: null,
            checkedAt: null,
            revokedAt: null,
            reason: null,
          },
        },
        {
          subject: 'CN=Paraph Local Signing CA, O=Paraph',
          issuer: 'CN=Paraph Local Signing CA, O=Paraph',
          serialNumber: '489FF1EF18575E8407399168E0D75391',
          notBefore: '2029-01-01T00:00:00.000Z',
          notAfter: '2049-01-01T00:00:00.000Z',
          fingerprint: '7E:FE:4E:09',
          isTrustAnchor: true,
          isValidAtSigningTime: true,
          revocation: null,
        },
      ],
    },
    ...overrides,
  };
}

export function sampleVerificationReport(overrides: Partial<VerificationReport> = {}): VerificationReport {
  return {
    verdict: 'valid',
    checkedAt: '2030-01-03T10:00:00.000Z',
    fileSize: 37200,
    level: 'B-B',
    hasDss: false,
    lastRevisionIsDocumentTimeStamp: false,
    changedAfterLastSignature: false,
    signatures: [sampleVerificationSignature()],
    ...overrides,
  };
}
