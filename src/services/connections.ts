// The connections machine's real actors. `GET /connections` and `GET /connection_requests` send the other
// person's profile in `included`; the actors join them so the machine sees one plain item per row.
import { fromPromise } from 'xstate';
import type {
  AddConnectionInput,
  Connection,
  ConnectionRequestItem,
  ConnectionsData,
  PersonProfile,
  RowActionInput,
  SearchInput,
} from '../../machines/connections.machine';
import type { components } from '../../openapi/schema';
import { api, unwrap } from '../api/client';

type Schemas = components['schemas'];

function toPerson(profile: Schemas['ProfileSummary'] | Schemas['ConnectedProfile']): PersonProfile {
  const { fullName, emailAddress, initials } = profile.attributes;
  return { id: profile.id, fullName, emailAddress, initials };
}

export async function loadConnections(signal: AbortSignal): Promise<Connection[]> {
  const body = await unwrap(api.GET('/connections', { signal }));
  const profiles = new Map(body.included.map((profile) => [profile.id, profile.attributes]));
  return body.data.map((connection) => {
    const profileId = connection.relationships.profile.data.id;
    const profile = profiles.get(profileId);
    return {
      id: connection.id,
      profile: {
        id: profileId,
        // The connection carries the name and e-mail too, for a profile the server left out.
        fullName: profile?.fullName ?? connection.attributes.fullName,
        emailAddress: profile?.emailAddress ?? connection.attributes.emailAddress,
        initials: profile?.initials ?? '',
        lastSeenAt: profile?.lastSeenAt ?? null,
      },
    };
  });
}

async function loadRequests(signal: AbortSignal): Promise<ConnectionRequestItem[]> {
  const body = await unwrap(api.GET('/connection_requests', { signal }));
  const profiles = new Map(body.included.map((profile) => [profile.id, toPerson(profile)]));
  return body.data.map((request) => {
    const profileId = request.relationships.profile.data?.id;
    return {
      id: request.id,
      direction: request.attributes.direction,
      profile: (profileId && profiles.get(profileId)) || null,
      invitationEmailAddress: request.attributes.invitationEmailAddress ?? null,
      createdAt: request.attributes.createdAt,
    };
  });
}

export const fetchConnections = fromPromise<ConnectionsData>(async ({ signal }) => {
  const [connections, requests] = await Promise.all([loadConnections(signal), loadRequests(signal)]);
  return { connections, requests };
});

const idPath = (input: RowActionInput) => ({ path: { id: input.id } });

export const acceptRequest = fromPromise<void, RowActionInput>(async ({ input, signal }) => {
  await unwrap(api.PATCH('/connection_requests/{id}/accept', { params: idPath(input), signal }));
});

export const refuseRequest = fromPromise<void, RowActionInput>(async ({ input, signal }) => {
  await unwrap(api.PATCH('/connection_requests/{id}/refuse', { params: idPath(input), signal }));
});

export const cancelRequest = fromPromise<void, RowActionInput>(async ({ input, signal }) => {
  await unwrap(api.DELETE('/connection_requests/{id}', { params: idPath(input), signal }));
});

export const removeConnection = fromPromise<void, RowActionInput>(async ({ input, signal }) => {
  await unwrap(api.DELETE('/connections/{id}', { params: idPath(input), signal }));
});

export const searchProfiles = fromPromise<PersonProfile[], SearchInput>(async ({ input, signal }) => {
  const body = await unwrap(
    api.GET('/profiles/search', { params: { query: { query: input.query } }, signal }),
  );
  return body.data.map(toPerson);
});

export const addConnection = fromPromise<void, AddConnectionInput>(async ({ input, signal }) => {
  const connectionRequest = {
    ...(input.to === null ? {} : { to: input.to }),
    invitation_email_address: input.invitationEmailAddress,
  };
  await unwrap(api.POST('/connection_requests', { body: { connection_request: connectionRequest }, signal }));
});
