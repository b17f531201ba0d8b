// The status a document list shows is derived from the document's state and the user's flags
// (spec 000 §4 "Displayed status"). Pure, so every row of that table is tested on its own.
import type { MessageId } from '../../i18n/messages';

export type StatusSource = {
  state: string;
  isSignFlow: boolean;
  currentUserCanSign: boolean;
  currentUserCanReview: boolean;
  signedCount: number;
  signatoryCount: number;
  approvedCount: number;
  reviewerCount: number;
};

export type StatusKind =
  | 'waiting'
  | 'pending'
  | 'toBeSigned'
  | 'signed'
  | 'refused'
  | 'error'
  | 'inReviewForYou'
  | 'inReviewByOthers'
  | 'disapproved'
  | 'cancelled'
  | 'uploaded';

export type DisplayedStatus = {
  kind: StatusKind;
  /** done out of total: signatures for sign states, approvals for review states. */
  counts?: { done: number; total: number };
};

export function deriveStatus(document: StatusSource): DisplayedStatus {
  const signatures = { done: document.signedCount, total: document.signatoryCount };
  switch (document.state) {
    case 'signing':
      // The spec's "signing alone" row: a document its owner signs without a sign flow.
      if (!document.isSignFlow) return { kind: 'toBeSigned' };
      return { kind: document.currentUserCanSign ? 'waiting' : 'pending', counts: signatures };
    case 'awaiting_signs':
      return { kind: document.currentUserCanSign ? 'waiting' : 'pending', counts: signatures };
    case 'signed':
      return document.isSignFlow ? { kind: 'signed', counts: signatures } : { kind: 'signed' };
    case 'refused':
      return { kind: 'refused' };
    case 'error':
      return { kind: 'error' };
    case 'in_review':
      return {
        kind: document.currentUserCanReview ? 'inReviewForYou' : 'inReviewByOthers',
        counts: { done: document.approvedCount, total: document.reviewerCount },
      };
    case 'rejected':
      return { kind: 'disapproved' };
    // Not in the spec's table (its product had no such state): a flow its owner stopped. Shown as such
    // rather than falling back to "uploaded", which would hide that signing was stopped.
    case 'cancelled':
      return { kind: 'cancelled' };
    default:
      return { kind: 'uploaded' };
  }
}

const STATUS_MESSAGES: Record<StatusKind, { plain: MessageId; counted?: MessageId }> = {
  waiting: { plain: 'documents.status.waiting.counted', counted: 'documents.status.waiting.counted' },
  pending: { plain: 'documents.status.pending.counted', counted: 'documents.status.pending.counted' },
  toBeSigned: { plain: 'documents.status.toBeSigned' },
  signed: { plain: 'documents.status.signed', counted: 'documents.status.signed.counted' },
  refused: { plain: 'documents.status.refused' },
  error: { plain: 'documents.status.error' },
  inReviewForYou: {
    plain: 'documents.status.inReviewForYou.counted',
    counted: 'documents.status.inReviewForYou.counted',
  },
  inReviewByOthers: {
    plain: 'documents.status.inReviewByOthers.counted',
    counted: 'documents.status.inReviewByOthers.counted',
  },
  disapproved: { plain: 'documents.status.disapproved' },
  cancelled: { plain: 'documents.status.cancelled' },
  uploaded: { plain: 'documents.status.uploaded' },
};

/** The catalogue id and values that turn a status into text. */
export function statusMessage(status: DisplayedStatus): {
  id: MessageId;
  values: { done: number; total: number };
} {
  const messages = STATUS_MESSAGES[status.kind];
  const counts = status.counts ?? { done: 0, total: 0 };
  return { id: (status.counts && messages.counted) || messages.plain, values: counts };
}
