// Pending connection requests (docs/decisions.md, "Connections and sign groups"). A row exists only while
// the request is pending: accept, refuse and cancel delete it. An invitation to an address without an
// account waits with `to_user_id` null until an account with that address makes its first call.
import { randomUUID } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { Kysely, Selectable } from 'kysely';
import { currentUser } from '../auth/current-user.ts';
import type { AppDeps, AuthUser, Handlers, OperationRequest } from '../context.ts';
import { toCount } from '../db/database.ts';
import type { ConnectionRequestsTable, Database, UserRow } from '../db/schema.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { enqueueMail, recipientLocale } from '../mail/queue.ts';
import {
  areConnected,
  connectedProfile,
  connectionResource,
  consumeUserRateLimit,
  isUniqueViolation,
  loadConnection,
  orderedPair,
  pairKey,
  sendTooManyRequests,
  type UserRateLimit,
} from './connections.ts';

type RequestRow = Selectable<ConnectionRequestsTable>;

// Each request may e-mail someone; the limit keeps one account from mailing (or probing) in bulk.
export const CONNECTION_REQUEST_LIMIT: UserRateLimit = {
  action: 'connection_request',
  max: 30,
  windowMs: 60 * 60 * 1000,
};

type ProfileSummary = {
  id: string;
  type: 'profiles';
  attributes: { fullName: string; initials: string; emailAddress: string };
};

type ConnectionRequestResource = {
  id: string;
  type: 'connectionRequests';
  attributes: {
    direction: 'inbound' | 'outbound';
    createdAt: string;
    invitationEmailAddress: string | null;
  };
  relationships: { profile: { data: { id: string; type: 'profiles' } | null } };
};

function profileSummary(user: Pick<UserRow, 'id' | 'full_name' | 'initials' | 'email'>): ProfileSummary {
  return {
    id: user.id,
    type: 'profiles',
    attributes: { fullName: user.full_name, initials: user.initials, emailAddress: user.email },
  };
}

function requestResource(row: RequestRow, viewerId: string): ConnectionRequestResource {
  const outbound = row.from_user_id === viewerId;
  const otherId = outbound ? row.to_user_id : row.from_user_id;
  return {
    id: row.id,
    type: 'connectionRequests',
    attributes: {
      direction: outbound ? 'outbound' : 'inbound',
      createdAt: row.created_at,
      invitationEmailAddress: row.invitation_email,
    },
    relationships: { profile: { data: otherId === null ? null : { id: otherId, type: 'profiles' } } },
  };
}

async function profilesByIds(db: Kysely<Database>, ids: string[]): Promise<ProfileSummary[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const users = await db
    .selectFrom('users')
    .select(['id', 'full_name', 'initials', 'email'])
    .where('id', 'in', unique)
    .orderBy('id')
    .execute();
  return users.map(profileSummary);
}

// Invitations sent to the viewer's address before their account existed become ordinary inbound
// requests. There is no sign-up in Paraph yet, so this runs on the calls a fresh session makes first (the
// profile load and poll, and the request list): one indexed SELECT that usually finds nothing.
export async function claimInvitations(db: Kysely<Database>, viewer: AuthUser): Promise<void> {
  const waiting = await db
    .selectFrom('connection_requests')
    .selectAll()
    .where('to_user_id', 'is', null)
    .where('invitation_email', '=', viewer.email.toLowerCase())
    .execute();
  for (const row of waiting) {
    const key = pairKey(row.from_user_id, viewer.id);
    const redundant =
      row.from_user_id === viewer.id ||
      (await areConnected(db, row.from_user_id, viewer.id)) ||
      (await db
        .selectFrom('connection_requests')
        .select('id')
        .where('pair_key', '=', key)
        .executeTakeFirst()) !== undefined;
    if (redundant) {
      await db.deleteFrom('connection_requests').where('id', '=', row.id).execute();
      continue;
    }
    try {
      await db
        .updateTable('connection_requests')
        .set({ to_user_id: viewer.id, pair_key: key })
        .where('id', '=', row.id)
        .where('to_user_id', 'is', null)
        .execute();
    } catch (error) {
      // A request between the two appeared meanwhile: that one stands, the invitation goes.
      if (!isUniqueViolation(error)) throw error;
      await db.deleteFrom('connection_requests').where('id', '=', row.id).execute();
    }
  }
}

export async function countIncomingRequests(deps: AppDeps, viewer: AuthUser): Promise<number> {
  await claimInvitations(deps.db, viewer);
  const row = await deps.db
    .selectFrom('connection_requests')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('to_user_id', '=', viewer.id)
    .executeTakeFirst();
  return toCount(row?.n);
}

async function listConnectionRequests(req: OperationRequest<'listConnectionRequests'>) {
  const viewer = currentUser(req);
  const { db } = req.server.deps;
  await claimInvitations(db, viewer);
  const rows = await db
    .selectFrom('connection_requests')
    .selectAll()
    .where((eb) => eb.or([eb('from_user_id', '=', viewer.id), eb('to_user_id', '=', viewer.id)]))
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  const others = rows
    .map((row) => (row.from_user_id === viewer.id ? row.to_user_id : row.from_user_id))
    .filter((id): id is string => id !== null);
  return {
    data: rows.map((row) => requestResource(row, viewer.id)),
    included: await profilesByIds(db, others),
  };
}

function conflict(code: string, message: string): ApiError {
  return new ApiError(409, code, message);
}

function mismatch(): ApiError {
  return new ApiError(
    422,
    'connection_request_mismatch',
    'The profile and the e-mail address belong to different people.',
    { validations: { 'connection_request.invitation_email_address': ["is not the profile's address"] } },
  );
}

// Why a request between the two cannot be made (null: it can).
async function refusalBetween(
  db: Kysely<Database>,
  viewer: AuthUser,
  target: { id: string; email: string },
): Promise<ApiError | null> {
  if (target.id === viewer.id)
    return new ApiError(422, 'connection_request_to_self', 'You cannot connect with yourself.');
  if (await areConnected(db, viewer.id, target.id))
    return conflict('already_connected', 'You are already connected.');
  const pending = await db
    .selectFrom('connection_requests')
    .select(['from_user_id'])
    .where((eb) =>
      eb.or([
        eb('pair_key', '=', pairKey(viewer.id, target.id)),
        eb.and([
          eb('from_user_id', '=', viewer.id),
          eb('to_user_id', 'is', null),
          eb('invitation_email', '=', target.email),
        ]),
      ]),
    )
    .executeTakeFirst();
  if (pending === undefined) return null;
  return pending.from_user_id === viewer.id
    ? conflict('connection_request_pending', 'You have already asked this person to connect.')
    : conflict('connection_request_received', 'This person has already asked you to connect.');
}

async function createConnectionRequest(
  req: OperationRequest<'createConnectionRequest'>,
  reply: FastifyReply,
) {
  const viewer = currentUser(req);
  const deps = req.server.deps;
  const { db } = deps;
  const input = req.body.connection_request;
  const verdict = await consumeUserRateLimit(deps, viewer.id, CONNECTION_REQUEST_LIMIT);
  if (verdict.limited) return sendTooManyRequests(reply, verdict.retryAfterSeconds);
  await claimInvitations(db, viewer);

  const users = db.selectFrom('users').select(['id', 'full_name', 'initials', 'email']);
  let target: Pick<UserRow, 'id' | 'full_name' | 'initials' | 'email'> | undefined;
  let invitationEmail: string | null = null;
  if (input.to !== undefined) {
    target = await users.where('id', '=', input.to).executeTakeFirst();
    if (target === undefined) throw notFound('Profile not found.');
    // Spec 000 §3: a request carries both, naming one person. Checked after the rate limit, since the
    // answer tells whether an address belongs to a profile.
    const address = input.invitation_email_address?.trim().toLowerCase();
    if (address !== undefined && address !== target.email) throw mismatch();
  } else {
    const email = (input.invitation_email_address ?? '').trim().toLowerCase();
    target = await users.where('email', '=', email).executeTakeFirst();
    if (target === undefined) invitationEmail = email;
  }
  if (target !== undefined) {
    const refusal = await refusalBetween(db, viewer, target);
    if (refusal !== null) throw refusal;
  }

  const now = deps.clock().toISOString();
  const row: RequestRow = {
    id: randomUUID(),
    from_user_id: viewer.id,
    to_user_id: target?.id ?? null,
    invitation_email: invitationEmail,
    pair_key: target === undefined ? `${viewer.id}:${invitationEmail ?? ''}` : pairKey(viewer.id, target.id),
    created_at: now,
  };
  try {
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('connection_requests').values(row).execute();
      // The person asked hears of it: by their account's address, or at the address given for someone
      // without an account yet, who is asked to create one.
      const sender = { fullName: viewer.fullName, email: viewer.email };
      if (target !== undefined) {
        await enqueueMail(
          trx,
          { email: target.email, fallbackLocale: 'en' },
          { kind: 'connection.request', sender },
          new Date(now),
        );
      } else if (invitationEmail !== null) {
        await enqueueMail(
          trx,
          { email: invitationEmail, fallbackLocale: await recipientLocale(trx, viewer.email, 'en') },
          { kind: 'connection.invitation', sender, email: invitationEmail },
          new Date(now),
        );
      }
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // The same pair was asked concurrently: answer as if that request had come first.
    const refusal = target === undefined ? null : await refusalBetween(db, viewer, target);
    throw refusal ?? conflict('connection_request_pending', 'You have already asked this person to connect.');
  }
  reply.status(201);
  return {
    data: requestResource(row, viewer.id),
    included: target === undefined ? [] : [profileSummary(target)],
  };
}

// Only the recipient may accept. The request row is deleted in the same transaction that creates the
// connection, and only the call that actually deleted it goes on: a second (or concurrent) accept of the
// same request finds nothing to delete and answers 404, so there is never a second connection.
async function acceptConnectionRequest(req: OperationRequest<'acceptConnectionRequest'>) {
  const viewer = currentUser(req);
  const deps = req.server.deps;
  const { id } = req.params;
  const connectionId = await deps.db.transaction().execute(async (trx) => {
    const request = await trx
      .selectFrom('connection_requests')
      .selectAll()
      .where('id', '=', id)
      .where('to_user_id', '=', viewer.id)
      .executeTakeFirst();
    if (request === undefined) return null;
    const deleted = await trx
      .deleteFrom('connection_requests')
      .where('id', '=', id)
      .where('to_user_id', '=', viewer.id)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) return null;
    const [first, second] = orderedPair(request.from_user_id, viewer.id);
    await trx
      .insertInto('connections')
      .values({
        id: randomUUID(),
        user_a_id: first,
        user_b_id: second,
        created_at: deps.clock().toISOString(),
      })
      .onConflict((oc) => oc.columns(['user_a_id', 'user_b_id']).doNothing())
      .execute();
    const connection = await trx
      .selectFrom('connections')
      .select('id')
      .where('user_a_id', '=', first)
      .where('user_b_id', '=', second)
      .executeTakeFirstOrThrow();
    return connection.id;
  });
  if (connectionId === null) throw notFound('Connection request not found.');
  const row = await loadConnection(deps.db, viewer.id, connectionId);
  if (row === undefined) throw notFound('Connection request not found.');
  return { data: connectionResource(row), included: [connectedProfile(row)] };
}

async function refuseConnectionRequest(
  req: OperationRequest<'refuseConnectionRequest'>,
  reply: FastifyReply,
) {
  const viewer = currentUser(req);
  const { id } = req.params;
  const result = await req.server.deps.db
    .deleteFrom('connection_requests')
    .where('id', '=', id)
    .where('to_user_id', '=', viewer.id)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound('Connection request not found.');
  return reply.status(204).send();
}

async function deleteConnectionRequest(
  req: OperationRequest<'deleteConnectionRequest'>,
  reply: FastifyReply,
) {
  const viewer = currentUser(req);
  const { id } = req.params;
  const result = await req.server.deps.db
    .deleteFrom('connection_requests')
    .where('id', '=', id)
    .where('from_user_id', '=', viewer.id)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound('Connection request not found.');
  return reply.status(204).send();
}

export const connectionRequestHandlers: Handlers = {
  listConnectionRequests,
  createConnectionRequest,
  acceptConnectionRequest,
  refuseConnectionRequest,
  deleteConnectionRequest,
};
