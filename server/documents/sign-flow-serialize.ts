// The sign flow resource (getSignFlow): the flow, its signatories and reviewers with their states as the
// contract names them, and its signature coordinates (the fractions as they were sent: see
// contractFraction).
import type { components } from '../../openapi/schema';
import type { ParticipantRow, SignFlowRow } from '../db/schema.ts';
import type { ActionDb } from './access.ts';
import { IN_PROGRESS_STATES } from './permissions.ts';

type SignFlowResponse = components['schemas']['SignFlowResponse'];
type SignatoryState = components['schemas']['SignatoryState'];
type ReviewerState = components['schemas']['ReviewerState'];

// Stored states -> the specification's (docs/decisions.md, "Participant states in the API"). Someone who
// had not acted when another person (or the owner) ended the flow is `otherrefused` / `otherrejected`.
export function signatoryState(participant: ParticipantRow, flowState: SignFlowRow['state']): SignatoryState {
  const ended = !IN_PROGRESS_STATES.includes(flowState);
  switch (participant.state) {
    case 'signed':
      return 'signed';
    case 'refused':
      return 'refused';
    case 'pending':
      if (ended) return 'otherrefused';
      return participant.user_id === null ? 'invited' : 'pending';
    case 'waiting':
      return ended ? 'otherrefused' : 'new';
    default:
      return 'otherrefused';
  }
}

export function reviewerState(participant: ParticipantRow, flowState: SignFlowRow['state']): ReviewerState {
  const ended = !IN_PROGRESS_STATES.includes(flowState);
  switch (participant.state) {
    case 'approved':
      return 'approved';
    case 'rejected':
      return 'rejected';
    case 'pending':
      if (ended) return 'otherrejected';
      return participant.user_id === null ? 'invited' : 'pending';
    case 'waiting':
      return ended ? 'otherrejected' : 'new';
    default:
      return 'otherrejected';
  }
}

/**
 * A stored fraction as the contract answers it: 4 decimals. Everything stored since the contract asked for
 * exactly 4 is given back byte for byte; a flow saved earlier may hold "0.5" or "1", which is padded as
 * text (never through a number), so its value is still exactly the one stored.
 */
export function contractFraction(stored: string): string {
  const [whole = '0', decimals = ''] = stored.split('.');
  return decimals.length >= 4 ? stored : `${whole}.${decimals.padEnd(4, '0')}`;
}

export async function serializeSignFlow(
  db: ActionDb,
  flow: SignFlowRow,
  participants: readonly ParticipantRow[],
): Promise<SignFlowResponse> {
  const userIds = participants.flatMap((participant) =>
    participant.user_id === null ? [] : [participant.user_id],
  );
  const emails = participants.map((participant) => participant.email.toLowerCase());
  const users = await db
    .selectFrom('users')
    .select(['id', 'email', 'full_name'])
    .where((eb) => eb.or([eb('id', 'in', ['', ...userIds]), eb('email', 'in', ['', ...emails])]))
    .execute();
  const nameOf = (participant: ParticipantRow): string | null =>
    users.find((user) =>
      participant.user_id === null
        ? user.email.toLowerCase() === participant.email.toLowerCase()
        : user.id === participant.user_id,
    )?.full_name ?? null;

  const placements = await db
    .selectFrom('signature_placements')
    .selectAll()
    .where('sign_flow_id', '=', flow.id)
    .execute();
  const signatories = participants.filter((participant) => participant.role === 'signatory');
  // In the signatories' order, so the editor numbers the boxes as it lists the people.
  const coordinates = signatories.flatMap((participant) => {
    const placement = placements.find((entry) => entry.participant_id === participant.id);
    return placement === undefined ? [] : [{ placement, email: participant.email }];
  });
  const reviewers = participants.filter((participant) => participant.role === 'reviewer');
  return {
    data: {
      id: flow.id,
      type: flow.type === 'ordered' ? 'orderedSignFlows' : 'signFlows',
      attributes: {
        comment: flow.comment,
        state: flow.state,
        signedCount: signatories.filter((participant) => participant.state === 'signed').length,
        minimumRequiredSigns: flow.minimum_required_signs,
        signPageNumber: flow.sign_page_number,
        createdAt: flow.created_at,
      },
      relationships: {
        signatories: {
          data: signatories.map((participant) => ({ id: participant.id, type: 'signatories' })),
        },
        reviewers: { data: reviewers.map((participant) => ({ id: participant.id, type: 'reviewers' })) },
        signatureCoordinates: {
          data: coordinates.map(({ placement }) => ({ id: placement.id, type: 'signatureCoordinates' })),
        },
      },
    },
    included: [
      ...signatories.map((participant) => ({
        id: participant.id,
        type: 'signatories' as const,
        attributes: {
          comment: participant.refuse_reason,
          emailAddress: participant.email,
          fullName: nameOf(participant),
          refusedAt: participant.refused_at,
          signedAt: participant.signed_at,
          smartCardType: null,
          state: signatoryState(participant, flow.state),
        },
      })),
      ...reviewers.map((participant) => ({
        id: participant.id,
        type: 'reviewers' as const,
        attributes: {
          emailAddress: participant.email,
          fullName: nameOf(participant),
          state: reviewerState(participant, flow.state),
        },
      })),
      ...coordinates.map(({ placement, email }) => ({
        id: placement.id,
        type: 'signatureCoordinates' as const,
        attributes: {
          emailAddress: email,
          top: contractFraction(placement.top_fraction),
          left: contractFraction(placement.left_fraction),
          signPageNumber: placement.page_number,
        },
      })),
    ],
  };
}
