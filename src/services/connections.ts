// The connections machine's real actors. `GET /connections` sends each connection with its profile in
// `included`; the actor joins them so the machine sees one `{ id, profile }` per connection.
import { fromPromise } from 'xstate';
import type { Connection } from '../../machines/connections.machine';
import { api, unwrap } from '../api/client';

export const fetchConnections = fromPromise<Connection[]>(async ({ signal }) => {
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
});
