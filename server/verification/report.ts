// The report a verification answers (openapi VerificationReport), as plain data: it crosses from the PDF
// sandbox to the API process, so dates are ISO strings and nothing holds a class.
import type { components } from '../../openapi/schema';

export type VerificationReport = components['schemas']['VerificationReport'];
export type SignatureReport = components['schemas']['VerificationSignature'];
export type CertificateReport = components['schemas']['VerificationCertificate'];
export type RevocationReport = components['schemas']['VerificationRevocation'];
export type SignatureProblem = SignatureReport['problems'][number];
export type SignatureVerdict = SignatureReport['verdict'];
export type DocumentVerdict = VerificationReport['verdict'];

/** Files this verifier refuses outright, before any signature is looked at. */
export type RefusedFile = 'empty_file' | 'not_a_pdf' | 'encrypted_pdf';

/** `sha256`: the file's, in hex (the report's id), hashed in the sandbox like everything else. */
export type VerificationOutcome =
  { ok: true; report: VerificationReport; sha256: string } | { ok: false; code: RefusedFile };

// What makes a signature invalid: the document it covers, its signature or its signer's standing.
const INVALIDATING: ReadonlySet<SignatureProblem> = new Set([
  'byte_range_invalid',
  'signature_unreadable',
  'signer_certificate_missing',
  'signature_invalid',
  'digest_mismatch',
  'revoked',
  'certificate_not_valid_at_signing_time',
  'time_stamp_invalid',
]);

/** The verdict first: invalid, then changed after, then untrusted, then what could not be checked. */
export function signatureVerdict(problems: readonly SignatureProblem[]): SignatureVerdict {
  if (problems.some((problem) => INVALIDATING.has(problem))) return 'invalid';
  if (problems.includes('changed_after')) return 'changed';
  if (problems.includes('not_trusted')) return 'untrusted';
  if (problems.includes('unsupported_format')) return 'unsupported';
  return 'valid';
}

const VERDICT_ORDER: readonly SignatureVerdict[] = [
  'invalid',
  'changed',
  'untrusted',
  'unsupported',
  'valid',
];

export function documentVerdict(signatures: readonly Pick<SignatureReport, 'verdict'>[]): DocumentVerdict {
  if (signatures.length === 0) return 'no_signatures';
  return (
    VERDICT_ORDER.find((verdict) => signatures.some((signature) => signature.verdict === verdict)) ?? 'valid'
  );
}
