// The server's document lifecycle (spec 000 §3-§4, spec 001 §4-§5): every state change of a
// document and of its sign flow's participants is a transition of this machine, and every permission flag
// that depends on the flow is "would the machine take this event" (server/documents/permissions.ts).
// It runs purely (machines/document-lifecycle.ts resolves a stored record, applies one event and reads the
// result back); it has no actors, timers or eventless transitions. Rules that are choices, not the spec's
// words, are in docs/decisions.md ("The document lifecycle").
import { and, assign, setup } from 'xstate';

export type LifecycleDocumentState =
  | 'uploaded'
  | 'in_review'
  | 'awaiting_signs'
  | 'signing'
  | 'signed'
  | 'refused'
  | 'rejected'
  | 'cancelled'
  | 'error';
export type LifecycleParticipantState =
  'waiting' | 'pending' | 'approved' | 'rejected' | 'signed' | 'refused' | 'cancelled';
export type LifecycleRole = 'reviewer' | 'signatory';
export type LifecycleParticipant = {
  id: string;
  role: LifecycleRole;
  position: number;
  state: LifecycleParticipantState;
};
export type LifecycleFlow = { type: 'ordered' | 'standard'; minimumRequiredSigns: number /* 0 = all */ };
export type LifecycleFlowMember = { id: string; role: LifecycleRole; position: number };

export type LifecycleContext = {
  flow: LifecycleFlow | null;
  participants: LifecycleParticipant[];
  /** The signatory whose signature awaits confirmation (state `signing`); null when not known. */
  signingParticipantId: string | null;
};

export type LifecycleEvent =
  | { type: 'flow.start'; flow: LifecycleFlow; participants: LifecycleFlowMember[] }
  | { type: 'flow.edit'; flow: LifecycleFlow; participants: LifecycleFlowMember[] }
  | { type: 'review.approve'; participantId: string }
  | { type: 'review.reject'; participantId: string }
  | { type: 'sign.begin'; participantId: string }
  | { type: 'sign.abort'; participantId: string }
  | { type: 'sign.complete'; participantId: string }
  | { type: 'flow.refuse'; participantId: string }
  // The owner signing a document without a flow ("signing alone", [5/6]); who the owner is, is the
  // handler's check (permissions.ts), as for flow.start.
  | { type: 'solo.begin' }
  | { type: 'solo.complete' }
  | { type: 'solo.abort' }
  | { type: 'flow.cancel' }
  | { type: 'flow.fail' };

/** The states in which the flow has ended (docs/decisions.md): only a restart (`flow.start`) leaves them. */
export const ENDED_STATES: readonly LifecycleDocumentState[] = [
  'signed',
  'refused',
  'rejected',
  'cancelled',
  'error',
];

const byPosition = <T extends { position: number }>(items: readonly T[]): T[] =>
  items
    .map((item, index) => ({ item, index }))
    .sort((left, right) => left.item.position - right.item.position || left.index - right.index)
    .map(({ item }) => item);

export const signatoriesOf = (participants: readonly LifecycleParticipant[]) =>
  participants.filter((participant) => participant.role === 'signatory');
export const reviewersOf = (participants: readonly LifecycleParticipant[]) =>
  participants.filter((participant) => participant.role === 'reviewer');
export const signedCountOf = (participants: readonly LifecycleParticipant[]) =>
  signatoriesOf(participants).filter((participant) => participant.state === 'signed').length;

/** Spec 001 §5: a positive integer below the number of signatories in a standard flow, else 0 (all). */
export function isValidMinimum(flow: LifecycleFlow, signatoryCount: number): boolean {
  const minimum = flow.minimumRequiredSigns;
  if (!Number.isInteger(minimum) || minimum < 0) return false;
  return minimum === 0 || (flow.type === 'standard' && minimum < signatoryCount);
}

/** A flow that can run: distinct ids, at least one signatory, a valid minimum. */
export function isValidFlow(flow: LifecycleFlow, members: readonly LifecycleFlowMember[]): boolean {
  const ids = new Set(members.map((member) => member.id));
  const signatoryCount = members.filter((member) => member.role === 'signatory').length;
  return (
    (flow.type === 'ordered' || flow.type === 'standard') &&
    ids.size === members.length &&
    members.every((member) => member.id !== '' && Number.isFinite(member.position)) &&
    signatoryCount > 0 &&
    isValidMinimum(flow, signatoryCount)
  );
}

/** Whether the signatures done are enough: the minimum of a standard flow, else every signatory. */
export function isFlowComplete(flow: LifecycleFlow | null, participants: readonly LifecycleParticipant[]) {
  const signatories = signatoriesOf(participants);
  const signed = signedCountOf(participants);
  if (signatories.length === 0) return false;
  return flow !== null && flow.minimumRequiredSigns > 0
    ? signed >= flow.minimumRequiredSigns
    : signed === signatories.length;
}

// Whose turn it is, from who has already approved or signed: reviewers first (all at once), then the
// signatories (an ordered flow: the first unsigned one only).
export function arrangeTurns(
  flow: LifecycleFlow,
  participants: readonly LifecycleParticipant[],
): LifecycleParticipant[] {
  const sorted = byPosition(participants);
  const isReviewDone = sorted.every((p) => p.role !== 'reviewer' || p.state === 'approved');
  let isTurnGiven = false;
  return sorted.map((participant) => {
    if (participant.role === 'reviewer') {
      return { ...participant, state: participant.state === 'approved' ? 'approved' : 'pending' };
    }
    if (participant.state === 'signed') return participant;
    if (!isReviewDone || (flow.type === 'ordered' && isTurnGiven))
      return { ...participant, state: 'waiting' };
    isTurnGiven = true;
    return { ...participant, state: 'pending' };
  });
}

/** The flow ended without them: whoever was still waiting or pending is cancelled. */
const endTurns = (participants: readonly LifecycleParticipant[]): LifecycleParticipant[] =>
  participants.map((participant) =>
    participant.state === 'waiting' || participant.state === 'pending'
      ? { ...participant, state: 'cancelled' }
      : participant,
  );

const withState = (
  participants: readonly LifecycleParticipant[],
  id: string,
  state: LifecycleParticipantState,
): LifecycleParticipant[] =>
  participants.map((participant) => (participant.id === id ? { ...participant, state } : participant));

const find = (context: LifecycleContext, id: string) =>
  context.participants.find((participant) => participant.id === id);

/** The participants an edit leads to: approvals and signatures of the people kept stay. */
function editedParticipants(context: LifecycleContext, flow: LifecycleFlow, members: LifecycleFlowMember[]) {
  const kept = members.map((member): LifecycleParticipant => {
    const before = find(context, member.id);
    const isKept =
      before !== undefined &&
      before.role === member.role &&
      (before.state === 'approved' || before.state === 'signed');
    return { ...member, state: isKept ? before.state : 'waiting' };
  });
  return arrangeTurns(flow, kept);
}

// Spec 001 §4's edit rules that the lifecycle depends on (the request's own checks are the handler's):
// the type stays; approved reviewers and signed signatories stay, in their role; reviewers change only
// during the review; in an ordered flow the signed signatories stay first; and something is left to sign.
function isAcceptableEdit(
  context: LifecycleContext,
  isInReview: boolean,
  flow: LifecycleFlow,
  members: LifecycleFlowMember[],
): boolean {
  if (context.flow === null || !isValidFlow(flow, members) || flow.type !== context.flow.type) return false;
  const memberById = new Map(members.map((member) => [member.id, member]));
  const isKeptWhereNeeded = context.participants.every((participant) => {
    if (participant.state !== 'approved' && participant.state !== 'signed') return true;
    return memberById.get(participant.id)?.role === participant.role;
  });
  if (!isKeptWhereNeeded) return false;
  if (!isInReview) {
    const reviewerIds = (list: readonly { id: string; role: LifecycleRole }[]) =>
      list
        .filter((item) => item.role === 'reviewer')
        .map((item) => item.id)
        .sort()
        .join('\n');
    if (reviewerIds(members) !== reviewerIds(context.participants)) return false;
  }
  const next = editedParticipants(context, flow, members);
  if (flow.type === 'ordered') {
    const states = signatoriesOf(next).map((participant) => participant.state === 'signed');
    if (states.some((isSigned, index) => isSigned && states.slice(0, index).includes(false))) return false;
  }
  return !isFlowComplete(flow, next);
}

/** A pending signatory whose turn it is (an ordered flow: every signatory before them has signed). */
export function isSignatoryDue(context: LifecycleContext, id: string): boolean {
  const signatories = byPosition(signatoriesOf(context.participants));
  const index = signatories.findIndex((participant) => participant.id === id);
  const participant = signatories[index];
  if (participant?.state !== 'pending') return false;
  return (
    context.flow?.type !== 'ordered' ||
    signatories.slice(0, index).every((before) => before.state === 'signed')
  );
}

const participantIdOf = (event: LifecycleEvent): string =>
  'participantId' in event ? event.participantId : '';

const membersOf = (event: LifecycleEvent) =>
  event.type === 'flow.start' || event.type === 'flow.edit'
    ? { flow: event.flow, members: event.participants }
    : null;

function isSigner({ context, event }: { context: LifecycleContext; event: LifecycleEvent }): boolean {
  const id = participantIdOf(event);
  const participant = find(context, id);
  if (participant?.role !== 'signatory' || participant.state !== 'pending') return false;
  // A record read back without the signer's id lets the pending signatory finish, so no document stays
  // stuck in `signing`.
  return context.signingParticipantId === null || context.signingParticipantId === id;
}

export const documentLifecycleMachine = setup({
  types: {
    context: {} as LifecycleContext,
    events: {} as LifecycleEvent,
    tags: {} as 'ended',
  },
  actions: {
    startFlow: assign(({ event }) => {
      const start = membersOf(event);
      if (start === null) return {};
      const participants = start.members.map((member): LifecycleParticipant => ({
        ...member,
        state: 'waiting',
      }));
      return {
        flow: start.flow,
        participants: arrangeTurns(start.flow, participants),
        signingParticipantId: null,
      };
    }),
    editFlow: assign(({ context, event }) => {
      const edit = membersOf(event);
      if (edit === null) return {};
      return { flow: edit.flow, participants: editedParticipants(context, edit.flow, edit.members) };
    }),
    approve: assign(({ context, event }) => {
      const id = participantIdOf(event);
      const participants = withState(context.participants, id, 'approved');
      return {
        participants: context.flow === null ? participants : arrangeTurns(context.flow, participants),
      };
    }),
    reject: assign(({ context, event }) => ({
      participants: endTurns(withState(context.participants, participantIdOf(event), 'rejected')),
    })),
    refuse: assign(({ context, event }) => ({
      participants: endTurns(withState(context.participants, participantIdOf(event), 'refused')),
    })),
    beginSigning: assign(({ event }) => ({
      signingParticipantId: participantIdOf(event),
    })),
    abortSigning: assign({ signingParticipantId: null }),
    completeSignature: assign(({ context, event }) => {
      const participants = withState(context.participants, participantIdOf(event), 'signed');
      return {
        signingParticipantId: null,
        participants: context.flow === null ? participants : arrangeTurns(context.flow, participants),
      };
    }),
    completeFlow: assign(({ context, event }) => ({
      signingParticipantId: null,
      participants: endTurns(withState(context.participants, participantIdOf(event), 'signed')),
    })),
    endFlow: assign(({ context }) => ({
      signingParticipantId: null,
      participants: endTurns(context.participants),
    })),
  },
  guards: {
    isValidStart: ({ event }) => {
      const start = membersOf(event);
      return start !== null && isValidFlow(start.flow, start.members);
    },
    hasReviewers: ({ event }) =>
      (membersOf(event)?.members ?? []).some((member) => member.role === 'reviewer'),
    isValidReviewEdit: ({ context, event }) => {
      const edit = membersOf(event);
      return edit !== null && isAcceptableEdit(context, true, edit.flow, edit.members);
    },
    isValidSigningEdit: ({ context, event }) => {
      const edit = membersOf(event);
      return edit !== null && isAcceptableEdit(context, false, edit.flow, edit.members);
    },
    keepsReview: ({ context, event }) => {
      const edit = membersOf(event);
      return (
        edit !== null &&
        reviewersOf(editedParticipants(context, edit.flow, edit.members)).some(
          (participant) => participant.state !== 'approved',
        )
      );
    },
    isPendingReviewer: ({ context, event }) => {
      const participant = find(context, participantIdOf(event));
      return participant?.role === 'reviewer' && participant.state === 'pending';
    },
    isLastReview: ({ context, event }) =>
      reviewersOf(context.participants).every(
        (participant) => participant.state === 'approved' || participant.id === participantIdOf(event),
      ),
    isDueSignatory: ({ context, event }) => isSignatoryDue(context, participantIdOf(event)),
    isSigner,
    // A signature with no flow at all: the owner's own, begun from `uploaded`.
    isSolo: ({ context }) => context.flow === null && context.participants.length === 0,
    completesFlow: ({ context, event }) =>
      isFlowComplete(context.flow, withState(context.participants, participantIdOf(event), 'signed')),
    // An ordered flow's later signatories may refuse before their turn: waiting to be asked would only
    // collect signatures on a document that will not be completed.
    isUnsignedSignatory: ({ context, event }) => {
      const participant = find(context, participantIdOf(event));
      return (
        participant?.role === 'signatory' &&
        (participant.state === 'pending' || participant.state === 'waiting')
      );
    },
  },
}).createMachine({
  id: 'documentLifecycle',
  context: { flow: null, participants: [], signingParticipantId: null },
  initial: 'uploaded',
  states: {
    uploaded: {
      on: {
        'flow.start': [
          { guard: and(['isValidStart', 'hasReviewers']), target: 'in_review', actions: 'startFlow' },
          { guard: 'isValidStart', target: 'awaiting_signs', actions: 'startFlow' },
        ],
        'solo.begin': { guard: 'isSolo', target: 'signing' },
        'flow.fail': { target: 'error', actions: 'endFlow' },
      },
    },
    in_review: {
      on: {
        'review.approve': [
          { guard: and(['isPendingReviewer', 'isLastReview']), target: 'awaiting_signs', actions: 'approve' },
          { guard: 'isPendingReviewer', actions: 'approve' },
        ],
        'review.reject': { guard: 'isPendingReviewer', target: 'rejected', actions: 'reject' },
        'flow.edit': [
          { guard: and(['isValidReviewEdit', 'keepsReview']), actions: 'editFlow' },
          { guard: 'isValidReviewEdit', target: 'awaiting_signs', actions: 'editFlow' },
        ],
        'flow.cancel': { target: 'cancelled', actions: 'endFlow' },
        'flow.fail': { target: 'error', actions: 'endFlow' },
      },
    },
    awaiting_signs: {
      on: {
        'sign.begin': { guard: 'isDueSignatory', target: 'signing', actions: 'beginSigning' },
        'flow.refuse': { guard: 'isUnsignedSignatory', target: 'refused', actions: 'refuse' },
        'flow.edit': { guard: 'isValidSigningEdit', actions: 'editFlow' },
        'flow.cancel': { target: 'cancelled', actions: 'endFlow' },
        'flow.fail': { target: 'error', actions: 'endFlow' },
      },
    },
    // One signature at a time is being applied (the signer confirmed it in the identity app), and the next
    // one is computed over the PDF that this one produces. Without a flow it is the owner's own signature.
    signing: {
      on: {
        'solo.complete': { guard: 'isSolo', target: 'signed' },
        'solo.abort': { guard: 'isSolo', target: 'uploaded' },
        'sign.complete': [
          { guard: and(['isSigner', 'completesFlow']), target: 'signed', actions: 'completeFlow' },
          { guard: 'isSigner', target: 'awaiting_signs', actions: 'completeSignature' },
        ],
        'sign.abort': { guard: 'isSigner', target: 'awaiting_signs', actions: 'abortSigning' },
        'flow.fail': { target: 'error', actions: 'endFlow' },
      },
    },
    signed: { tags: ['ended'] },
    error: { tags: ['ended'] },
    // A new flow may follow a refusal, a rejection or a cancel: the owner fixes the document or the people
    // and sends it again.
    refused: {
      tags: ['ended'],
      on: {
        'flow.start': [
          { guard: and(['isValidStart', 'hasReviewers']), target: 'in_review', actions: 'startFlow' },
          { guard: 'isValidStart', target: 'awaiting_signs', actions: 'startFlow' },
        ],
      },
    },
    rejected: {
      tags: ['ended'],
      on: {
        'flow.start': [
          { guard: and(['isValidStart', 'hasReviewers']), target: 'in_review', actions: 'startFlow' },
          { guard: 'isValidStart', target: 'awaiting_signs', actions: 'startFlow' },
        ],
      },
    },
    cancelled: {
      tags: ['ended'],
      on: {
        'flow.start': [
          { guard: and(['isValidStart', 'hasReviewers']), target: 'in_review', actions: 'startFlow' },
          { guard: 'isValidStart', target: 'awaiting_signs', actions: 'startFlow' },
        ],
      },
    },
  },
});
