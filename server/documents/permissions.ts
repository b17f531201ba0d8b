// The one place that decides what a viewer may do with a document. Every flag the API sends and every
// category a list filters by comes from here, so the list, the details and the actions never disagree.
// The flags that depend on the flow are the document-lifecycle machine's answer to "would you take this
// event from this viewer now" (machines/document-lifecycle.ts); ownership, archives and deletion are not
// the flow's business and stay here.
import {
  canApply,
  type LifecycleEvent,
  type LifecycleFlow,
  type LifecycleRecord,
} from '../../machines/document-lifecycle.ts';
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
/** `minimumRequiredSigns` left out reads as 0 (every signatory): no flag depends on it. */
export type PermissionSignFlow = { type: SignFlowType; state: SignFlowState; minimumRequiredSigns?: number };
/** `id` and `position` left out: the row's index stands in for both (rows come in flow order). */
export type PermissionParticipant = {
  id?: string;
  position?: number;
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

export function isViewerParticipant(participant: PermissionParticipant, viewer: PermissionViewer): boolean {
  if (participant.userId !== null) return participant.userId === viewer.id;
  return participant.email.toLowerCase() === viewer.email.toLowerCase();
}

const participantIdOf = (participant: PermissionParticipant, index: number) =>
  participant.id ?? `participant-${index}`;

/** The lifecycle record of a document's rows (the document's state is the lifecycle's state). */
export function lifecycleRecordOf(
  document: Pick<PermissionDocument, 'state'>,
  signFlow: PermissionSignFlow | null,
  participants: readonly PermissionParticipant[],
  signingParticipantId: string | null = null,
): LifecycleRecord {
  return {
    state: document.state,
    flow:
      signFlow === null
        ? null
        : { type: signFlow.type, minimumRequiredSigns: signFlow.minimumRequiredSigns ?? 0 },
    participants:
      signFlow === null
        ? []
        : participants.map((participant, index) => ({
            id: participantIdOf(participant, index),
            role: participant.role,
            position: participant.position ?? index,
            state: participant.state,
          })),
    signingParticipantId,
  };
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

// Any valid flow will do: "may a flow be started" does not depend on which one.
const SAMPLE_START: LifecycleEvent = {
  type: 'flow.start',
  flow: { type: 'standard', minimumRequiredSigns: 0 },
  participants: [{ id: 'sample-signatory', role: 'signatory', position: 1 }],
};

// The flow as it stands plus one signatory at the end: accepted exactly while the flow may still be
// edited (a flow stored without a signatory yet is no exception), whatever the owner then changes.
function sampleEdit(record: LifecycleRecord, flow: LifecycleFlow): LifecycleEvent {
  const members = record.participants.map(({ id, role, position }) => ({ id, role, position }));
  const last = Math.max(0, ...members.map((member) => member.position));
  const ids = new Set(members.map((member) => member.id));
  let id = 'sample-signatory';
  while (ids.has(id)) id = `${id}-next`;
  return {
    type: 'flow.edit',
    flow,
    participants: [...members, { id, role: 'signatory', position: last + 1 }],
  };
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
  const record = lifecycleRecordOf(document, signFlow, participants);
  const mine = participants.filter((participant) => isViewerParticipant(participant, viewer));
  const myIds = participants
    .map((participant, index) => ({ participant, id: participantIdOf(participant, index) }))
    .filter(({ participant }) => isViewerParticipant(participant, viewer))
    .map(({ id }) => id);
  const canAny = (type: 'sign.begin' | 'review.approve' | 'flow.refuse') =>
    myIds.some((participantId) => canApply(record, { type, participantId }));

  return {
    isOwner,
    // A signatory whose turn it is, or the owner signing a document without a flow.
    currentUserCanSign: canAny('sign.begin') || (isOwner && canApply(record, { type: 'solo.begin' })),
    currentUserSigned: mine.some(
      (participant) => participant.role === 'signatory' && participant.state === 'signed',
    ),
    currentUserCanReview: canAny('review.approve'),
    currentUserCanRefuse: canAny('flow.refuse'),
    currentUserCanCreateSignFlow: isOwner && canApply(record, SAMPLE_START),
    currentUserCanEditSignFlow:
      isOwner && record.flow !== null && canApply(record, sampleEdit(record, record.flow)),
    currentUserCanCancel: isOwner && canApply(record, { type: 'flow.cancel' }),
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
    // The owner may sign a document without a flow, but that is not a flow waiting for them: it stays
    // in `uploaded` (the SQL's to_do reads participant rows only).
    case 'to_do':
      return (
        IN_PROGRESS_STATES.includes(state) &&
        (permissions.currentUserCanReview || permissions.currentUserCanSign)
      );
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
