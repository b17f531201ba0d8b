// The participants of a document's sign flow for the details panel: `GET /documents/{id}/sign_flow`,
// its included reviewers and signatories put in the flow's order (the relationships list them in order;
// included resources carry no order of their own).
import { fromPromise } from 'xstate';
import type { components } from '../../openapi/schema';
import type { Participant, SignFlowParticipants } from '../../machines/document-details.machine';
import { api, unwrap } from '../api/client';

type Schemas = components['schemas'];
type Included = Schemas['SignFlowResponse']['included'][number];

function toParticipant(resource: Schemas['Signatory'] | Schemas['Reviewer']): Participant {
  if (resource.type === 'signatories') {
    const { attributes } = resource;
    return {
      id: resource.id,
      role: 'signatory',
      fullName: attributes.fullName,
      emailAddress: attributes.emailAddress,
      state: attributes.state,
      signedAt: attributes.signedAt,
      refusedAt: attributes.refusedAt,
    };
  }
  return {
    id: resource.id,
    role: 'reviewer',
    fullName: resource.attributes.fullName,
    emailAddress: resource.attributes.emailAddress,
    state: resource.attributes.state,
    signedAt: null,
    refusedAt: null,
  };
}

function inOrder<T extends Included['type']>(
  included: Included[],
  type: T,
  order: { id: string }[],
): Participant[] {
  const byId = new Map<string, Participant>();
  for (const resource of included) {
    if (resource.type === type && (resource.type === 'signatories' || resource.type === 'reviewers')) {
      byId.set(resource.id, toParticipant(resource));
    }
  }
  const ordered = order.flatMap((entry) => byId.get(entry.id) ?? []);
  // Anything included but not named by a relationship still belongs to the flow: listed after the rest.
  const named = new Set(order.map((entry) => entry.id));
  return [...ordered, ...[...byId.values()].filter((participant) => !named.has(participant.id))];
}

export function participantsOf(body: Schemas['SignFlowResponse']): SignFlowParticipants {
  const { relationships } = body.data;
  return {
    reviewers: inOrder(body.included, 'reviewers', relationships.reviewers.data),
    signatories: inOrder(body.included, 'signatories', relationships.signatories.data),
  };
}

export const fetchSignFlow = fromPromise<SignFlowParticipants, { documentId: string }>(
  async ({ input, signal }) => {
    const body = await unwrap(
      api.GET('/documents/{id}/sign_flow', { params: { path: { id: input.documentId } }, signal }),
    );
    return participantsOf(body);
  },
);
