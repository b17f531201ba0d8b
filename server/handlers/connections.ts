import type { FastifyRequest } from 'fastify';
import { currentUser } from '../auth/current-user.ts';
import type { Handlers } from '../context.ts';

// Connections are stored once per pair (user_a_id < user_b_id); the other side is whichever id is not
// the caller's.
async function listConnections(req: FastifyRequest) {
  const viewer = currentUser(req);
  const { db } = req.server.deps;
  const rows = await db
    .selectFrom('connections')
    .innerJoin('users', (join) =>
      join.on((eb) =>
        eb.or([
          eb.and([
            eb('connections.user_a_id', '=', viewer.id),
            eb('users.id', '=', eb.ref('connections.user_b_id')),
          ]),
          eb.and([
            eb('connections.user_b_id', '=', viewer.id),
            eb('users.id', '=', eb.ref('connections.user_a_id')),
          ]),
        ]),
      ),
    )
    .select([
      'connections.id as connection_id',
      'connections.created_at',
      'users.id as user_id',
      'users.email',
      'users.full_name',
      'users.initials',
      'users.last_seen_at',
    ])
    .orderBy('users.full_name')
    .orderBy('users.email')
    .execute();
  return {
    data: rows.map((row) => ({
      id: row.connection_id,
      type: 'connections',
      attributes: { emailAddress: row.email, fullName: row.full_name, createdAt: row.created_at },
      relationships: { profile: { data: { id: row.user_id, type: 'profiles' } } },
    })),
    included: rows.map((row) => ({
      id: row.user_id,
      type: 'profiles',
      attributes: {
        fullName: row.full_name,
        initials: row.initials,
        emailAddress: row.email,
        lastSeenAt: row.last_seen_at,
      },
    })),
  };
}

export const connectionHandlers: Handlers = { listConnections };
