import { randomUUID } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import { currentUser } from '../auth/current-user.ts';
import type { AppDeps, Handlers, OperationRequest } from '../context.ts';
import { toCount } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { RateLimitVerdict } from '../auth/rate-limit.ts';
import { ApiError, notFound, sendError } from '../http/errors.ts';

// Connections are stored once per pair (user_a_id < user_b_id); the other side is whichever id is not
// the caller's.
export function orderedPair(a: string, b: string): [string, string] {
  return a < b ? [a, b] : [b, a];
}

export function pairKey(a: string, b: string): string {
  return orderedPair(a, b).join(':');
}

export async function areConnected(db: Kysely<Database>, a: string, b: string): Promise<boolean> {
  const [first, second] = orderedPair(a, b);
  const row = await db
    .selectFrom('connections')
    .select('id')
    .where('user_a_id', '=', first)
    .where('user_b_id', '=', second)
    .executeTakeFirst();
  return row !== undefined;
}

// The ids among `ids` that are connections of `userId`.
export async function connectedIds(
  db: Kysely<Database>,
  userId: string,
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('connections')
    .select(['user_a_id', 'user_b_id'])
    .where((eb) =>
      eb.or([
        eb.and([eb('user_a_id', '=', userId), eb('user_b_id', 'in', ids)]),
        eb.and([eb('user_b_id', '=', userId), eb('user_a_id', 'in', ids)]),
      ]),
    )
    .execute();
  return new Set(rows.map((row) => (row.user_a_id === userId ? row.user_b_id : row.user_a_id)));
}

// A unique index refused the row (PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY).
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = (error as { code: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

// Per-user limits kept in the database (like the sign-in limits), so every instance shares them. The
// count and the insert are not one atomic step: concurrent calls may pass a few over the limit, which is
// harmless for a limit meant to stop bulk enumeration.
export type UserRateLimit = { action: string; max: number; windowMs: number };

export async function consumeUserRateLimit(
  deps: AppDeps,
  userId: string,
  limit: UserRateLimit,
): Promise<RateLimitVerdict> {
  const { db } = deps;
  const now = deps.clock();
  const since = new Date(now.getTime() - limit.windowMs).toISOString();
  await db
    .deleteFrom('rate_limit_events')
    .where('user_id', '=', userId)
    .where('action', '=', limit.action)
    .where('at', '<=', since)
    .execute();
  const row = await db
    .selectFrom('rate_limit_events')
    .select((eb) => [eb.fn.countAll<string | number>().as('calls'), eb.fn.min('at').as('oldest')])
    .where('user_id', '=', userId)
    .where('action', '=', limit.action)
    .where('at', '>', since)
    .executeTakeFirst();
  if (toCount(row?.calls) >= limit.max) {
    const oldest = typeof row?.oldest === 'string' ? Date.parse(row.oldest) : now.getTime();
    return {
      limited: true,
      retryAfterSeconds: Math.max(1, Math.ceil((oldest + limit.windowMs - now.getTime()) / 1000)),
    };
  }
  await db
    .insertInto('rate_limit_events')
    .values({ id: randomUUID(), user_id: userId, action: limit.action, at: now.toISOString() })
    .execute();
  return { limited: false };
}

export function sendTooManyRequests(reply: FastifyReply, retryAfterSeconds: number): FastifyReply {
  reply.header('retry-after', String(retryAfterSeconds));
  return sendError(
    reply,
    new ApiError(429, 'too_many_requests', `Too many requests; retry after ${retryAfterSeconds} seconds.`),
  );
}

export type ConnectedProfileResource = {
  id: string;
  type: 'profiles';
  attributes: { fullName: string; initials: string; emailAddress: string; lastSeenAt: string | null };
};

export type ConnectionResource = {
  id: string;
  type: 'connections';
  attributes: { emailAddress: string; fullName: string; createdAt: string };
  relationships: { profile: { data: { id: string; type: 'profiles' } } };
};

type ConnectionRow = {
  connection_id: string;
  created_at: string;
  user_id: string;
  email: string;
  full_name: string;
  initials: string;
  last_seen_at: string | null;
};

function connectionQuery(db: Kysely<Database>, viewerId: string) {
  return db
    .selectFrom('connections')
    .innerJoin('users', (join) =>
      join.on((eb) =>
        eb.or([
          eb.and([
            eb('connections.user_a_id', '=', viewerId),
            eb('users.id', '=', eb.ref('connections.user_b_id')),
          ]),
          eb.and([
            eb('connections.user_b_id', '=', viewerId),
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
    ]);
}

export function connectionResource(row: ConnectionRow): ConnectionResource {
  return {
    id: row.connection_id,
    type: 'connections',
    attributes: { emailAddress: row.email, fullName: row.full_name, createdAt: row.created_at },
    relationships: { profile: { data: { id: row.user_id, type: 'profiles' } } },
  };
}

export function connectedProfile(row: ConnectionRow): ConnectedProfileResource {
  return {
    id: row.user_id,
    type: 'profiles',
    attributes: {
      fullName: row.full_name,
      initials: row.initials,
      emailAddress: row.email,
      lastSeenAt: row.last_seen_at,
    },
  };
}

// One connection of the viewer, as acceptConnectionRequest answers it.
export async function loadConnection(
  db: Kysely<Database>,
  viewerId: string,
  connectionId: string,
): Promise<ConnectionRow | undefined> {
  return connectionQuery(db, viewerId).where('connections.id', '=', connectionId).executeTakeFirst();
}

async function listConnections(req: OperationRequest<'listConnections'>) {
  const viewer = currentUser(req);
  const rows = await connectionQuery(req.server.deps.db, viewer.id)
    .orderBy('users.full_name')
    .orderBy('users.email')
    .execute();
  return { data: rows.map(connectionResource), included: rows.map(connectedProfile) };
}

// One row per pair, so deleting it ends the connection for both people. Sign groups keep the former
// connection as a member; saving such a group is refused (not_a_connection) until they are removed.
async function deleteConnection(req: OperationRequest<'deleteConnection'>, reply: FastifyReply) {
  const viewer = currentUser(req);
  const { id } = req.params;
  const result = await req.server.deps.db
    .deleteFrom('connections')
    .where('id', '=', id)
    .where((eb) => eb.or([eb('user_a_id', '=', viewer.id), eb('user_b_id', '=', viewer.id)]))
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound('Connection not found.');
  return reply.status(204).send();
}

export const connectionHandlers: Handlers = { listConnections, deleteConnection };
