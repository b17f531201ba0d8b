// The bridge between the database rows and the document-lifecycle machine: every state change of a
// document, its flow and its participants is an event the machine accepts (machines/document-lifecycle.ts);
// this module only reads the rows into the machine's record and writes the machine's answer back.
import {
  applyLifecycleEvent,
  participantsToNotify,
  type LifecycleEvent,
  type LifecycleParticipant,
  type LifecycleRecord,
} from '../../machines/document-lifecycle.ts';
import type {
  DocumentRow,
  ParticipantRow,
  ParticipantState,
  SignFlowRow,
  SignFlowState,
  SignFlowParticipantsTable,
} from '../db/schema.ts';
import { actionNotAllowed, type ActionDb } from './access.ts';
import type { ActionMeta } from './actions.ts';
import { notifyTransition, type TransitionNotice } from './sign-flow-notify.ts';

export type { LifecycleEvent, LifecycleParticipant, LifecycleRecord };

export function recordOf(
  row: Pick<DocumentRow, 'state'>,
  flow: Pick<SignFlowRow, 'type' | 'minimum_required_signs'> | null,
  participants: readonly Pick<ParticipantRow, 'id' | 'role' | 'position' | 'state'>[],
): LifecycleRecord {
  return {
    state: row.state,
    flow: flow === null ? null : { type: flow.type, minimumRequiredSigns: flow.minimum_required_signs },
    participants: participants.map((participant) => ({
      id: participant.id,
      role: participant.role,
      position: participant.position,
      state: participant.state,
    })),
  };
}

export type Transition = { before: LifecycleRecord; after: LifecycleRecord };

/** Asks the machine; a refusal is 409 `action_not_allowed` unless `refusal` names another error. */
export function transition(
  before: LifecycleRecord,
  event: LifecycleEvent,
  refusal: () => Error = actionNotAllowed,
): Transition {
  const { accepted, next } = applyLifecycleEvent(before, event);
  if (!accepted) throw refusal();
  return { before, after: next };
}

const FLOW_STATES: readonly string[] = [
  'in_review',
  'awaiting_signs',
  'signing',
  'signed',
  'refused',
  'rejected',
  'cancelled',
] satisfies SignFlowState[];

function isFlowState(state: string): state is SignFlowState {
  return FLOW_STATES.includes(state);
}

// When each participant state was reached, for the timestamps the API shows.
const STAMPS: Partial<Record<ParticipantState, keyof SignFlowParticipantsTable>> = {
  approved: 'approved_at',
  rejected: 'rejected_at',
  signed: 'signed_at',
  refused: 'refused_at',
};

/**
 * Writes the machine's answer: the document's state, the flow's (a flow has no `uploaded` or `error`
 * state: an error leaves the flow as it was) and each existing participant whose state changed, with the
 * time it changed; then queues what the change says to the people concerned (notifyTransition).
 * Participants the caller inserts or deletes (flow.start / flow.edit) are its own work, their messages too.
 */
export async function persistTransition(
  db: ActionDb,
  ids: { documentId: string; flowId: string | null },
  { before, after }: Transition,
  meta: ActionMeta,
  extra: TransitionNotice = {},
): Promise<void> {
  const now = meta.now.toISOString();
  if (before.state !== after.state) {
    await db
      .updateTable('documents')
      .set({ state: after.state, updated_at: now })
      .where('id', '=', ids.documentId)
      .execute();
  }
  if (ids.flowId !== null && isFlowState(after.state)) {
    await db
      .updateTable('sign_flows')
      .set({ state: after.state, updated_at: now })
      .where('id', '=', ids.flowId)
      .execute();
  }
  const previous = new Map(before.participants.map((participant) => [participant.id, participant]));
  for (const participant of after.participants) {
    const old = previous.get(participant.id);
    if (old === undefined || old.state === participant.state) continue;
    const stamp = STAMPS[participant.state];
    await db
      .updateTable('sign_flow_participants')
      .set({
        state: participant.state,
        ...(stamp === undefined ? {} : { [stamp]: now }),
        ...(participant.state === 'refused' ? { refuse_reason: extra.refuseReason ?? null } : {}),
        // The reminders count from here.
        ...(participant.state === 'pending' ? { due_at: now, reminded_at: null } : {}),
      })
      .where('id', '=', participant.id)
      .execute();
  }
  await notifyTransition(db, ids, { before, after }, meta, extra);
}

/** The participants whose turn has just come (reviewers to review, signatories to sign). */
export function newlyDue({ before, after }: Transition): LifecycleParticipant[] {
  return participantsToNotify(before, after);
}
