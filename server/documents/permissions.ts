// The one place that decides what a viewer may do with a document. Every flag the API sends and every
// category a list filters by comes from here, so the list, the details and the actions never disagree.
// A later issue replaces the core of `documentPermissions` with the document-lifecycle machine.
import type { DocumentCategory } from '../../machines/types.ts';
import type { components } from '../../openapi/schema';
import type {
  DocumentState,
  ParticipantRole,
  ParticipantState,
  SignFlowState,
  SignFlowType,
} from '../db/schema.ts';

export type PermissionDocument = { ownerId: string; state: DocumentState };
export type PermissionSignFlow = { type: SignFlowType; state: SignFlowState };
export type PermissionParticipant = {
  role: ParticipantRole;
  state: ParticipantState;
  userId: string | null;
  email: string;
};
export type PermissionViewer = { id: string; email: string };

type ContractDocumentAttributes = components['schemas']['DocumentAttributes'];

/** `isOwner` and every `currentUser*` flag of the contract's document attributes. */
export type DocumentPermissions = Pick<
  ContractDocumentAttributes,
  'isOwner' | Extract<keyof ContractDocumentAttributes, `currentUser${string}`>
>;

// The categories are the machines' (the list routes the app calls); re-exported for the server's callers.
export { DOCUMENT_CATEGORIES, type DocumentCategory } from '../../machines/types.ts';

export const SIGNING_STATES: readonly DocumentState[] = ['awaiting_signs', 'signing'];
export const IN_PROGRESS_STATES: readonly DocumentState[] = ['in_review', 'awaiting_signs', 'signing'];
export const FAILED_STATES: readonly DocumentState[] = ['refused', 'rejected', 'error', 'cancelled'];
// A flow can still be edited or cancelled by its owner until somebody has started the final signing.
const OPEN_FLOW_STATES: readonly DocumentState[] = ['in_review', 'awaiting_signs'];

export function isViewerParticipant(participant: PermissionParticipant, viewer: PermissionViewer): boolean {
  if (participant.userId !== null) return participant.userId === viewer.id;
  return participant.email.toLowerCase() === viewer.email.toLowerCase();
}

// A participant who must still review or sign, now or when their turn comes: their "delete for me" waits
// until they have acted or the flow has ended.
export function participantActionPending(
  state: DocumentState,
  mine: readonly Pick<PermissionParticipant, 'state'>[],
): boolean {
  return (
    IN_PROGRESS_STATES.includes(state) &&
    mine.some((participant) => participant.state === 'pending' || participant.state === 'waiting')
  );
}

export function documentPermissions(input: {
  document: PermissionDocument;
  signFlow: PermissionSignFlow | null;
  participants: readonly PermissionParticipant[];
  viewer: PermissionViewer;
  archivedByViewer: boolean;
}): DocumentPermissions {
  const { document, signFlow, participants, viewer, archivedByViewer } = input;
  const isOwner = document.ownerId === viewer.id;
  const mine = participants.filter((participant) => isViewerParticipant(participant, viewer));
  const asSignatory = mine.filter((participant) => participant.role === 'signatory');
  const asReviewer = mine.filter((participant) => participant.role === 'reviewer');
  const isSigningState = SIGNING_STATES.includes(document.state);
  const signatoryPending = asSignatory.some((participant) => participant.state === 'pending');
  const canSign = isSigningState && signatoryPending;
  const hasOpenFlow = signFlow !== null && OPEN_FLOW_STATES.includes(document.state);

  return {
    isOwner,
    currentUserCanSign: canSign,
    currentUserSigned: asSignatory.some((participant) => participant.state === 'signed'),
    currentUserCanReview:
      document.state === 'in_review' && asReviewer.some((participant) => participant.state === 'pending'),
    currentUserCanRefuse: canSign,
    currentUserCanCreateSignFlow: isOwner && document.state === 'uploaded' && signFlow === null,
    currentUserCanEditSignFlow: isOwner && hasOpenFlow,
    currentUserCanCancel: isOwner && hasOpenFlow,
    // Signing is a short server-side step; archiving or deleting in the middle of it would race the signer.
    currentUserCanArchive: !archivedByViewer && document.state !== 'signing',
    // The owner deletes the document; a participant deletes it "for themselves" once nothing waits for
    // them (docs/decisions.md, "Deleting and auto-deletion").
    currentUserCanDelete:
      document.state !== 'signing' &&
      (isOwner || (mine.length > 0 && !participantActionPending(document.state, mine))),
    currentUserArchived: archivedByViewer,
  };
}

// Whether the document belongs in a category for this viewer; the SQL in list-query.ts mirrors these rules
// and the API tests check that both agree.
export function isInCategory(
  category: DocumentCategory,
  state: DocumentState,
  permissions: DocumentPermissions,
): boolean {
  if (category === 'archived') return permissions.currentUserArchived;
  if (permissions.currentUserArchived) return false;
  switch (category) {
    case 'active':
      return true;
    case 'to_do':
      return permissions.currentUserCanReview || permissions.currentUserCanSign;
    case 'in_progress':
      return (
        IN_PROGRESS_STATES.includes(state) &&
        !permissions.currentUserCanReview &&
        !permissions.currentUserCanSign
      );
    case 'uploaded':
      return state === 'uploaded';
    case 'done':
      return state === 'signed';
    case 'failed':
      return FAILED_STATES.includes(state);
  }
}
