// The sign screen's rules (spec 001 §2 "Sign screen", §5, §9), shared by the signing machine, its views and
// its tests: what the form checks before it sends, the request it sends, and the shapes its actors
// exchange. Pure functions of the form's fields, so the guards and the views read the same answers.
import type { components } from '../openapi/schema';
import { toFraction } from './sign-flow-draft.ts';
import type { DocumentResource } from './types';

type Schemas = components['schemas'];

export type SmartCardType = Schemas['SmartCardType'];
export type SmartCard = { id: string; smartCardType: SmartCardType; description: string };
export type SignRequest = Schemas['SignRequest'];
export type DocumentVersionState = Schemas['DocumentVersionState'];

/** Where a signature goes on its page: the box's top-left corner as fractions of the page. */
export type PagePlacement = { pageNumber: number; left: number; top: number };

/** Spec 001 §9 "In the sign request, page mode last is 0 and first is 1"; after page N is N + 1. */
export type SignaturePosition = 'first' | 'after' | 'last';
/** A document without a sign flow: the user places the box (inline), or it goes on a signature page. */
export type SignatureMode = 'inline' | 'page';

export type SignScreenData = {
  document: DocumentResource;
  smartCards: SmartCard[];
  /** In a sign flow: the box the owner placed for this signatory, if any. */
  assignedPlacement: PagePlacement | null;
  /** In a sign flow: the flow's sign_page_number (0 last, 1 first, N + 1 after page N). */
  flowSignPageNumber: number | null;
};

export type LoadSignScreenInput = { documentId: string; emailAddress: string };
export type SignDocumentInput = { documentId: string; body: SignRequest };
/** What PATCH /documents/{id}/sign answers: the document version that awaits confirmation. */
export type PendingSignature = { versionId: string; confirmationUrl: string };

export const LOCATION_MIN_LENGTH = 2;
export const LOCATION_MAX_LENGTH = 128;
export const REASON_MAX_LENGTH = 128;
/** Spec 001 §9: a smart card's description is shortened to 35 characters. */
export const CARD_DESCRIPTION_LIMIT = 35;

export type LocationProblem = 'empty' | 'tooShort' | 'tooLong';

export function locationProblem(location: string): LocationProblem | null {
  const length = Array.from(location.trim()).length;
  if (length === 0) return 'empty';
  if (length < LOCATION_MIN_LENGTH) return 'tooShort';
  return length > LOCATION_MAX_LENGTH ? 'tooLong' : null;
}

export function isReasonTooLong(reason: string): boolean {
  return Array.from(reason.trim()).length > REASON_MAX_LENGTH;
}

/** The description as the card list shows it: 35 characters, then an ellipsis. */
export function shortDescription(description: string): string {
  const characters = Array.from(description);
  return characters.length > CARD_DESCRIPTION_LIMIT
    ? `${characters.slice(0, CARD_DESCRIPTION_LIMIT).join('')}…`
    : description;
}

export type SignFields = {
  document: DocumentResource | null;
  smartCards: SmartCard[];
  cardId: string | null;
  location: string;
  reason: string;
  signatureMode: SignatureMode;
  placement: PagePlacement | null;
  pagePosition: SignaturePosition;
  afterPageText: string;
  assignedPlacement: PagePlacement | null;
  flowSignPageNumber: number | null;
};

/** Documents outside a sign flow (the owner signing alone) choose where their signature goes. */
export function offersPlacement(fields: Pick<SignFields, 'document'>): boolean {
  return fields.document !== null && !fields.document.attributes.isSignFlow;
}

function wholeNumber(text: string): number | null {
  const trimmed = text.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : null;
}

export function afterPageProblem(fields: SignFields): 'belowOne' | 'pastEnd' | null {
  if (!offersPlacement(fields) || fields.signatureMode !== 'page' || fields.pagePosition !== 'after') {
    return null;
  }
  const page = wholeNumber(fields.afterPageText);
  if (page === null || page < 1) return 'belowOne';
  const pages = fields.document?.attributes.publicImagesFileUrls.length ?? 0;
  return pages > 0 && page > pages ? 'pastEnd' : null;
}

export function isPlacementMissing(fields: SignFields): boolean {
  return offersPlacement(fields) && fields.signatureMode === 'inline' && fields.placement === null;
}

export type SignBlocker = 'card' | 'location' | 'reason' | 'afterPage' | 'placement';

/** What stops the form from sending (spec 001 §5), in the order the form shows them. */
export function signBlockers(fields: SignFields): SignBlocker[] {
  const blockers: SignBlocker[] = [];
  if (!fields.smartCards.some((card) => card.id === fields.cardId)) blockers.push('card');
  if (locationProblem(fields.location) !== null) blockers.push('location');
  if (isReasonTooLong(fields.reason)) blockers.push('reason');
  if (afterPageProblem(fields) !== null) blockers.push('afterPage');
  if (isPlacementMissing(fields)) blockers.push('placement');
  return blockers;
}

function pageNumberOf(position: SignaturePosition, afterPageText: string): number {
  if (position === 'last') return 0;
  if (position === 'first') return 1;
  return (wholeNumber(afterPageText) ?? 0) + 1;
}

function boxOf(placement: PagePlacement) {
  return {
    sign_page_number: placement.pageNumber,
    signature_top: toFraction(placement.top),
    signature_left: toFraction(placement.left),
  };
}

/**
 * The body of PATCH /documents/{id}/sign. With `signature_top` / `signature_left`, `sign_page_number` is
 * the box's page (1-based); without them it is the signature page (0 last, 1 first, N + 1 after page N).
 * A sign flow's own placement or page is sent back as the flow has it.
 */
export function signRequestOf(fields: SignFields): SignRequest {
  const reason = fields.reason.trim();
  const base: SignRequest = {
    smart_card_id: fields.cardId ?? '',
    location: fields.location.trim(),
    ...(reason === '' ? {} : { reason }),
  };
  if (!offersPlacement(fields)) {
    if (fields.assignedPlacement) return { ...base, ...boxOf(fields.assignedPlacement) };
    return fields.flowSignPageNumber === null
      ? base
      : { ...base, sign_page_number: fields.flowSignPageNumber };
  }
  if (fields.signatureMode === 'inline' && fields.placement) return { ...base, ...boxOf(fields.placement) };
  return { ...base, sign_page_number: pageNumberOf(fields.pagePosition, fields.afterPageText) };
}

/** The messages of a refused sign call (`validations.base`), joined by the view; empty when none came. */
export function baseMessagesOf(error: unknown): string[] {
  if (typeof error !== 'object' || error === null || !('messages' in error)) return [];
  const { messages } = error as { messages: unknown };
  return Array.isArray(messages)
    ? messages.filter((message): message is string => typeof message === 'string' && message !== '')
    : [];
}
