// The sign-groups machine's real actors. Groups come with their members' profiles in `included`; the
// actors join them. A refused save rejects with the API's error, which carries the members the server
// would not take (`blockedIds`, e.g. someone who stopped being a connection), so the editor can say who.
import { fromPromise } from 'xstate';
import type { PersonProfile } from '../../machines/connections.machine';
import type { SaveSignGroupInput, SignGroup, SignGroupIdInput } from '../../machines/sign-groups.machine';
import type { components } from '../../openapi/schema';
import { api, unwrap } from '../api/client';
import { loadConnections } from './connections';

type Schemas = components['schemas'];

function toGroup(group: Schemas['SignGroup'], included: Schemas['ProfileSummary'][]): SignGroup {
  const profiles = new Map(included.map((profile) => [profile.id, profile]));
  const memberIds = group.relationships.profiles.data.map((profile) => profile.id);
  return {
    id: group.id,
    name: group.attributes.description,
    createdAt: group.attributes.createdAt,
    members: memberIds.map((id) => {
      const profile = profiles.get(id);
      return {
        id,
        fullName: profile?.attributes.fullName ?? '',
        emailAddress: profile?.attributes.emailAddress ?? '',
        initials: profile?.attributes.initials ?? '',
      };
    }),
  };
}

export const fetchSignGroups = fromPromise<SignGroup[]>(async ({ signal }) => {
  const body = await unwrap(api.GET('/sign_groups', { signal }));
  return body.data.map((group) => toGroup(group, body.included));
});

export const fetchSignGroup = fromPromise<SignGroup, SignGroupIdInput>(async ({ input, signal }) => {
  const body = await unwrap(
    api.GET('/sign_groups/{id}', { params: { path: { id: input.groupId } }, signal }),
  );
  return toGroup(body.data, body.included);
});

export const fetchMemberCandidates = fromPromise<PersonProfile[]>(async ({ signal }) => {
  const connections = await loadConnections(signal);
  return connections.map(({ profile }) => ({
    id: profile.id,
    fullName: profile.fullName,
    emailAddress: profile.emailAddress,
    initials: profile.initials,
  }));
});

export const saveSignGroup = fromPromise<void, SaveSignGroupInput>(async ({ input, signal }) => {
  const body = { sign_group: { description: input.name, pseudonyms: input.memberIds } };
  await unwrap(
    input.groupId
      ? api.PATCH('/sign_groups/{id}', { params: { path: { id: input.groupId } }, body, signal })
      : api.POST('/sign_groups', { body, signal }),
  );
});

export const deleteSignGroup = fromPromise<void, SignGroupIdInput>(async ({ input, signal }) => {
  await unwrap(api.DELETE('/sign_groups/{id}', { params: { path: { id: input.groupId } }, signal }));
});
