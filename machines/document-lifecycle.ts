// The lifecycle as pure functions over a stored record (the document's state, its flow and participants):
// the server's handlers apply events with these, and the permission flags ask `canApply`. The record is
// turned into the machine's snapshot, the machine decides, and the snapshot is read back into a record.
import { transition } from 'xstate';
import {
  documentLifecycleMachine,
  type LifecycleContext,
  type LifecycleDocumentState,
  type LifecycleEvent,
  type LifecycleFlow,
  type LifecycleParticipant,
} from './document-lifecycle.machine.ts';

export {
  ENDED_STATES,
  isFlowComplete,
  isValidFlow,
  isValidMinimum,
  signedCountOf,
} from './document-lifecycle.machine.ts';
export type {
  LifecycleDocumentState,
  LifecycleEvent,
  LifecycleFlow,
  LifecycleFlowMember,
  LifecycleParticipant,
  LifecycleParticipantState,
  LifecycleRole,
} from './document-lifecycle.machine.ts';

export type LifecycleRecord = {
  state: LifecycleDocumentState;
  flow: LifecycleFlow | null;
  participants: LifecycleParticipant[];
  /**
   * The signatory whose signature awaits confirmation while the state is `signing` ([5/6] stores it with
   * the pending signature). Left out or null: not known, and the pending signatory may complete or abort.
   */
  signingParticipantId?: string | null;
};

function snapshotOf(record: LifecycleRecord) {
  const context: LifecycleContext = {
    flow: record.flow,
    participants: record.participants,
    signingParticipantId: record.signingParticipantId ?? null,
  };
  return documentLifecycleMachine.resolveState({ value: record.state, context });
}

/** Applies one event; `accepted` false (and `next` === the input) when the machine does not take it. */
export function applyLifecycleEvent(
  record: LifecycleRecord,
  event: LifecycleEvent,
): { accepted: boolean; next: LifecycleRecord } {
  const snapshot = snapshotOf(record);
  if (!snapshot.can(event)) return { accepted: false, next: record };
  const [next] = transition(documentLifecycleMachine, snapshot, event);
  return {
    accepted: true,
    next: {
      state: next.value,
      flow: next.context.flow,
      participants: next.context.participants,
      signingParticipantId: next.context.signingParticipantId,
    },
  };
}

/** Which events the record accepts (for the flags). */
export function canApply(record: LifecycleRecord, event: LifecycleEvent): boolean {
  return snapshotOf(record).can(event);
}

/** Whether the flow has ended (signed, refused, rejected, cancelled, error). */
export function isEnded(record: LifecycleRecord): boolean {
  return snapshotOf(record).hasTag('ended');
}

/** The participants whose turn it is now (to notify): pending reviewers, or pending signatories. */
export function participantsToNotify(
  before: LifecycleRecord,
  after: LifecycleRecord,
): LifecycleParticipant[] {
  if (isEnded(after)) return [];
  // A restart makes everyone new, even someone who was pending in the flow that ended.
  const wasPending = new Set(
    isEnded(before)
      ? []
      : before.participants
          .filter((participant) => participant.state === 'pending')
          .map((participant) => participant.id),
  );
  return after.participants.filter(
    (participant) => participant.state === 'pending' && !wasPending.has(participant.id),
  );
}
