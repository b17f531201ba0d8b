// The sign flow form's body (spec 001 §7) checked against the specification's rules before anything is
// written. Each rule answers 422 with the specification's validation key as its code, so the app can say
// why; the contract's schema has already refused malformed bodies (400).
import type { components } from '../../openapi/schema';
import { DEFAULT_PAGE_RATIO, findOverlaps } from '../../machines/placement-overlap.ts';
import type { ParticipantRow, PlacementRow, SignFlowRow, SignFlowType } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';

type SignFlowRequest = components['schemas']['SignFlowRequest']['sign_flow'];

// Spec 001 §5: letters, digits and _ . + - before the @, then a domain containing a dot.
export const EMAIL_PATTERN = /^[A-Za-z0-9_.+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;
export const COMMENT_MAX = 1024;
// Spec 001 §4: the box is 28 % wide and 15 % high; its left edge at most 72 %, its top at least 15 %.
export const PLACEMENT_BOUNDS = { maxLeft: 0.72, minTop: 0.15, maxTop: 1 } as const;

export type PlacementInput = { email: string; pageNumber: number; top: string; left: string };

export type SignFlowInput = {
  type: SignFlowType;
  comment: string;
  signatories: string[];
  reviewers: string[];
  minimumRequiredSigns: number;
  signPageNumber: number;
  placements: PlacementInput[];
};

function invalid(code: string, field: string, message: string): ApiError {
  return new ApiError(422, code, message, { field, validations: { [field]: [message] } });
}

function normalise(address: string): string {
  return address.trim().toLowerCase();
}

function addresses(list: readonly string[], field: string, code: string, what: string): string[] {
  const seen = new Set<string>();
  for (const raw of list) {
    const address = normalise(raw);
    if (!EMAIL_PATTERN.test(address)) {
      throw invalid('validation.email', field, `“${raw}” is not a valid e-mail address.`);
    }
    if (seen.has(address)) throw invalid(code, field, `${what} ${address} is listed twice.`);
    seen.add(address);
  }
  return [...seen];
}

/** The rules that need only the body. */
export function parseSignFlowBody(body: unknown): SignFlowInput {
  const flow = (body as { sign_flow: SignFlowRequest }).sign_flow;
  const signatories = addresses(
    flow.signatory_email_addresses,
    'signatory_email_addresses',
    'validation.signatory_twice',
    'The signatory',
  );
  const reviewers = addresses(
    flow.reviewer_email_addresses ?? [],
    'reviewer_email_addresses',
    'validation.reviewer_twice',
    'The reviewer',
  );
  if (signatories.length === 0) {
    throw invalid('validation.signatories', 'signatory_email_addresses', 'Add at least one signatory.');
  }
  const both = reviewers.find((address) => signatories.includes(address));
  if (both !== undefined) {
    throw invalid(
      'validation.reviewer_is_signatory',
      'reviewer_email_addresses',
      `${both} cannot both review and sign.`,
    );
  }
  const comment = flow.comment ?? '';
  if ([...comment].length > COMMENT_MAX) {
    throw invalid('validation.comment', 'comment', `The comment is longer than ${COMMENT_MAX} characters.`);
  }
  const minimum = flow.minimum_required_signs ?? 0;
  // 0 means everyone; otherwise fewer than all (all would be 0), and only when the order does not matter.
  const minimumIsValid =
    minimum === 0 || (flow.type === 'standard' && Number.isInteger(minimum) && minimum < signatories.length);
  if (!minimumIsValid) {
    throw invalid(
      'validation.minimum_required_signs',
      'minimum_required_signs',
      flow.type === 'ordered'
        ? 'An ordered flow needs every signature (minimum 0).'
        : `The minimum must be a whole number from 1 to ${signatories.length - 1}, or 0 for everyone.`,
    );
  }
  const placements = (flow.signature_coordinates ?? []).map((coordinate) => ({
    email: normalise(coordinate.email_address),
    pageNumber: coordinate.sign_page_number,
    top: coordinate.top,
    left: coordinate.left,
  }));
  const placed = new Set<string>();
  for (const placement of placements) {
    if (!signatories.includes(placement.email)) {
      throw invalid(
        'validation.signature_coordinates',
        'signature_coordinates',
        `${placement.email} is not a signatory of this flow.`,
      );
    }
    if (placed.has(placement.email)) {
      throw invalid(
        'validation.signature_coordinates',
        'signature_coordinates',
        `${placement.email} has more than one signature placed.`,
      );
    }
    placed.add(placement.email);
    const top = Number(placement.top);
    const left = Number(placement.left);
    if (left > PLACEMENT_BOUNDS.maxLeft || top < PLACEMENT_BOUNDS.minTop || top > PLACEMENT_BOUNDS.maxTop) {
      throw invalid(
        'validation.signature_coordinates',
        'signature_coordinates',
        `The signature of ${placement.email} is outside the page.`,
      );
    }
  }
  return {
    type: flow.type,
    comment,
    signatories,
    reviewers,
    minimumRequiredSigns: minimum,
    signPageNumber: flow.sign_page_number ?? 0,
    placements,
  };
}

/** The rules that need the document: its pages. */
export function checkAgainstDocument(input: SignFlowInput, pageCount: number): void {
  // 0 last, 1 first, N + 1 after page N: at most one past the last page.
  if (input.signPageNumber > pageCount + 1) {
    throw invalid(
      'validation.sign_page_number',
      'sign_page_number',
      `The signature page can go after page ${pageCount} at most.`,
    );
  }
  const outside = input.placements.find((placement) => placement.pageNumber > pageCount);
  if (outside !== undefined) {
    throw invalid(
      'validation.signature_coordinates',
      'signature_coordinates',
      `The document has ${pageCount} pages; ${outside.email}'s signature is on page ${outside.pageNumber}.`,
    );
  }
}

/**
 * Two signatories' boxes must not overlap (the placement editor's rule, machines/placement-overlap.ts):
 * another client could send what the editor refuses to save. `pageRatios` are the rendered pages' height
 * over width; a page without one counts as A4 portrait, as in the editor. Two boxes whose signatories
 * have both signed are let be: both stamps are on the document already.
 */
export function checkOverlaps(
  input: SignFlowInput,
  pageRatios: ReadonlyMap<number, number>,
  signed: ReadonlySet<string>,
): void {
  const overlaps = findOverlaps(
    input.placements.map((placement) => ({
      emailAddress: placement.email,
      pageNumber: placement.pageNumber,
      left: Number(placement.left),
      top: Number(placement.top),
    })),
    (pageNumber) => pageRatios.get(pageNumber) ?? DEFAULT_PAGE_RATIO,
    (email) => signed.has(email),
  );
  if (overlaps.length === 0) return;
  const messages = overlaps.map(
    ({ pageNumber, emailAddresses: [first, second] }) =>
      `The signatures of ${first} and ${second} overlap on page ${pageNumber}.`,
  );
  throw new ApiError(422, 'validation.signature_overlap', messages.join(' '), {
    field: 'signature_coordinates',
    validations: { signature_coordinates: messages },
  });
}

function samePlacement(a: PlacementInput | undefined, b: PlacementRow | undefined): boolean {
  if (a === undefined || b === undefined) return a === undefined && b === undefined;
  return (
    a.pageNumber === b.page_number &&
    Number(a.top) === Number(b.top_fraction) &&
    Number(a.left) === Number(b.left_fraction)
  );
}

/** Spec 001 §4: what an edit of a running flow may not change. */
export function checkEdit(
  input: SignFlowInput,
  flow: SignFlowRow,
  participants: readonly ParticipantRow[],
  placements: readonly PlacementRow[],
): void {
  const refuse = (code: string, field: string, message: string) =>
    new ApiError(422, code, message, { field });
  if (input.type !== flow.type) {
    throw refuse('sign_flow.type_locked', 'type', 'The type of a flow cannot change.');
  }
  const reviewers = participants.filter((participant) => participant.role === 'reviewer');
  const sameReviewers =
    reviewers.length === input.reviewers.length &&
    reviewers.every((reviewer) => input.reviewers.includes(reviewer.email.toLowerCase()));
  if (flow.state !== 'in_review' && !sameReviewers) {
    throw refuse(
      'sign_flow.reviewers_locked',
      'reviewer_email_addresses',
      'Reviewers can only change while the document is in review.',
    );
  }
  const approvedGone = reviewers.find(
    (reviewer) => reviewer.state === 'approved' && !input.reviewers.includes(reviewer.email.toLowerCase()),
  );
  if (approvedGone !== undefined) {
    throw refuse(
      'sign_flow.approved_reviewer_removed',
      'reviewer_email_addresses',
      `${approvedGone.email} has approved and cannot be removed.`,
    );
  }
  const signed = participants.filter(
    (participant) => participant.role === 'signatory' && participant.state === 'signed',
  );
  const signedGone = signed.find((signatory) => !input.signatories.includes(signatory.email.toLowerCase()));
  if (signedGone !== undefined) {
    throw refuse(
      'sign_flow.signed_signatory_removed',
      'signatory_email_addresses',
      `${signedGone.email} has signed and cannot be removed.`,
    );
  }
  for (const signatory of signed) {
    const sent = input.placements.find((placement) => placement.email === signatory.email.toLowerCase());
    const stored = placements.find((placement) => placement.participant_id === signatory.id);
    if (!samePlacement(sent, stored)) {
      throw refuse(
        'sign_flow.signed_placement_changed',
        'signature_coordinates',
        `${signatory.email} has signed: their signature cannot move.`,
      );
    }
  }
  if (signed.length > 0 && input.signPageNumber !== flow.sign_page_number) {
    throw refuse(
      'sign_flow.signature_mode_locked',
      'sign_page_number',
      'Someone has signed: the signature page cannot move.',
    );
  }
}
