// Sign groups: a named, ordered set of the owner's connections (docs/decisions.md, "Connections and sign
// groups"). Someone else's group answers 404 like an unknown id.
import { randomUUID } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import { currentUser } from '../auth/current-user.ts';
import type { Handlers, OperationRequest } from '../context.ts';
import type { components } from '../../openapi/schema';
import type { RequestBody } from '../http/typed-handler.ts';
import type { Database } from '../db/schema.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { connectedIds } from './connections.ts';

export const SIGN_GROUP_NAME_MAX = 255;

type GroupRow = { id: string; owner_id: string; description: string; created_at: string };

type MemberRow = {
  group_id: string;
  user_id: string;
  full_name: string;
  initials: string;
  email: string;
};

async function membersOf(db: Kysely<Database>, groupIds: string[]): Promise<MemberRow[]> {
  if (groupIds.length === 0) return [];
  return db
    .selectFrom('sign_group_members')
    .innerJoin('users', 'users.id', 'sign_group_members.user_id')
    .select([
      'sign_group_members.group_id',
      'sign_group_members.user_id',
      'users.full_name',
      'users.initials',
      'users.email',
    ])
    .where('sign_group_members.group_id', 'in', groupIds)
    .orderBy('sign_group_members.group_id')
    .orderBy('sign_group_members.position')
    .execute();
}

type ProfileResource = components['schemas']['ProfileSummary'];

function serialize(groups: GroupRow[], members: MemberRow[]) {
  const data = groups.map((group) => {
    const ids = members.filter((member) => member.group_id === group.id).map((member) => member.user_id);
    return {
      id: group.id,
      type: 'signGroups' as const,
      attributes: { description: group.description, createdAt: group.created_at, pseudonyms: ids },
      relationships: { profiles: { data: ids.map((id) => ({ id, type: 'profiles' as const })) } },
    };
  });
  const included = new Map<string, ProfileResource>();
  for (const member of members) {
    included.set(member.user_id, {
      id: member.user_id,
      type: 'profiles' as const,
      attributes: { fullName: member.full_name, initials: member.initials, emailAddress: member.email },
    });
  }
  return { data, included: [...included.values()] };
}

async function ownGroup(db: Kysely<Database>, ownerId: string, id: string): Promise<GroupRow> {
  const group = await db
    .selectFrom('sign_groups')
    .selectAll()
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  if (group === undefined) throw notFound('Sign group not found.');
  return group;
}

async function answerOne(db: Kysely<Database>, group: GroupRow) {
  const { data, included } = serialize([group], await membersOf(db, [group.id]));
  const [one] = data;
  if (one === undefined) throw new Error('A sign group serialised to nothing');
  return { data: one, included };
}

// The app turns `validation.name` and `validation.members` into the spec's
// connections.group.edit.validation.* texts, and names the members listed in `blockedIds`.
async function validGroup(
  db: Kysely<Database>,
  ownerId: string,
  body: RequestBody<'createSignGroup'>,
): Promise<{ description: string; members: string[] }> {
  const input = body.sign_group;
  const description = input.description.trim();
  if (description === '') {
    throw new ApiError(422, 'validation.name', 'You must provide a group name.', {
      field: 'description',
      validations: { description: ['You must provide a group name.'] },
    });
  }
  if (description.length > SIGN_GROUP_NAME_MAX) {
    throw new ApiError(
      422,
      'validation.name',
      `The group name must be at most ${SIGN_GROUP_NAME_MAX} characters.`,
      {
        field: 'description',
        validations: { description: [`must be at most ${SIGN_GROUP_NAME_MAX} characters`] },
      },
    );
  }
  const members = [...new Set(input.pseudonyms)];
  if (members.length === 0) {
    throw new ApiError(422, 'validation.members', 'You must add at least one user to the group.', {
      field: 'pseudonyms',
      validations: { pseudonyms: ['You must add at least one user to the group.'] },
    });
  }
  const connected = await connectedIds(db, ownerId, members);
  const strangers = members.filter((id) => !connected.has(id));
  if (strangers.length > 0) {
    throw new ApiError(422, 'not_a_connection', 'Every member must be one of your connections.', {
      field: 'pseudonyms',
      validations: { pseudonyms: ['Every member must be one of your connections.'] },
      blockedIds: strangers,
    });
  }
  return { description, members };
}

async function listSignGroups(req: OperationRequest<'listSignGroups'>) {
  const viewer = currentUser(req);
  const { db } = req.server.deps;
  const groups = await db
    .selectFrom('sign_groups')
    .selectAll()
    .where('owner_id', '=', viewer.id)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return serialize(
    groups,
    await membersOf(
      db,
      groups.map((group) => group.id),
    ),
  );
}

async function getSignGroup(req: OperationRequest<'getSignGroup'>) {
  const viewer = currentUser(req);
  const { db } = req.server.deps;
  const { id } = req.params;
  return answerOne(db, await ownGroup(db, viewer.id, id));
}

async function writeMembers(db: Kysely<Database>, groupId: string, members: string[]): Promise<void> {
  await db.deleteFrom('sign_group_members').where('group_id', '=', groupId).execute();
  await db
    .insertInto('sign_group_members')
    .values(members.map((userId, index) => ({ group_id: groupId, user_id: userId, position: index + 1 })))
    .execute();
}

async function createSignGroup(req: OperationRequest<'createSignGroup'>, reply: FastifyReply) {
  const viewer = currentUser(req);
  const deps = req.server.deps;
  const { description, members } = await validGroup(deps.db, viewer.id, req.body);
  const group: GroupRow = {
    id: randomUUID(),
    owner_id: viewer.id,
    description,
    created_at: deps.clock().toISOString(),
  };
  await deps.db.transaction().execute(async (trx) => {
    await trx.insertInto('sign_groups').values(group).execute();
    await writeMembers(trx, group.id, members);
  });
  reply.status(201);
  return answerOne(deps.db, group);
}

async function updateSignGroup(req: OperationRequest<'updateSignGroup'>) {
  const viewer = currentUser(req);
  const { db } = req.server.deps;
  const { id } = req.params;
  const existing = await ownGroup(db, viewer.id, id);
  const { description, members } = await validGroup(db, viewer.id, req.body);
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('sign_groups').set({ description }).where('id', '=', existing.id).execute();
    await writeMembers(trx, existing.id, members);
  });
  return answerOne(db, { ...existing, description });
}

async function deleteSignGroup(req: OperationRequest<'deleteSignGroup'>, reply: FastifyReply) {
  const viewer = currentUser(req);
  const { id } = req.params;
  const result = await req.server.deps.db
    .deleteFrom('sign_groups')
    .where('id', '=', id)
    .where('owner_id', '=', viewer.id)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound('Sign group not found.');
  return reply.status(204).send();
}

export const signGroupHandlers: Handlers = {
  listSignGroups,
  getSignGroup,
  createSignGroup,
  updateSignGroup,
  deleteSignGroup,
};
