// Read-only connections list for [1/6]; the connections machine of [3/6] takes over requests and groups.
import { fromPromise } from 'xstate';
import { api, unwrap } from '../api/client';

export type ConnectionRow = { id: string; fullName: string; emailAddress: string; lastSeenAt: string | null };

export const fetchConnections = fromPromise<ConnectionRow[]>(async ({ signal }) => {
  const body = await unwrap(api.GET('/connections', { signal }));
  const profiles = new Map(body.included.map((profile) => [profile.id, profile.attributes]));
  return body.data.map((connection) => {
    const profile = profiles.get(connection.relationships.profile.data.id);
    return {
      id: connection.id,
      fullName: profile?.fullName ?? connection.attributes.fullName,
      emailAddress: profile?.emailAddress ?? connection.attributes.emailAddress,
      lastSeenAt: profile?.lastSeenAt ?? null,
    };
  });
});
