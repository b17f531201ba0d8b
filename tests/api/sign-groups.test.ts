import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, expectMatchesContract, type TestApp, type TestUser } from './helpers.ts';

type Group = {
  id: string;
  type: string;
  attributes: { description: string; createdAt: string; pseudonyms: string[] };
  relationships: { profiles: { data: { id: string; type: string }[] } };
};
type Profile = { id: string; attributes: { emailAddress: string; fullName: string; initials: string } };
type GroupBody = { data: Group; included: Profile[] };
type ErrorBody = { code: string; blockedIds?: string[]; field?: string };

async function connect(t: TestApp, a: TestUser, b: TestUser): Promise<void> {
  const [first, second] = a.id < b.id ? [a.id, b.id] : [b.id, a.id];
  await t.deps.db
    .insertInto('connections')
    .values({ id: randomUUID(), user_a_id: first, user_b_id: second, created_at: new Date().toISOString() })
    .execute();
}

describe('sign groups', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let dave: TestUser;
  let token: string;

  beforeEach(async () => {
    t = await buildTestApp();
    ada = await t.createUser({ email: 'ada@example.test', fullName: 'Ada Lovelace' });
    bob = await t.createUser({ email: 'bob@example.test', fullName: 'Bob Baker' });
    carol = await t.createUser({ email: 'carol@example.test', fullName: 'Carol Chen' });
    dave = await t.createUser({ email: 'dave@example.test', fullName: 'Dave Doe' });
    await connect(t, ada, bob);
    await connect(t, carol, ada);
    token = await t.signIn(ada.email);
  });
  afterEach(async () => {
    await t.close();
  });

  function save(method: 'POST' | 'PATCH', url: string, description: unknown, pseudonyms: unknown) {
    return t.app.inject({
      method,
      url,
      headers: bearer(token),
      payload: { sign_group: { description, pseudonyms } },
    });
  }

  it('creates, lists, reads, edits and deletes a group, members in order with their profiles', async () => {
    const created = await save('POST', '/api/sign_groups', '  Board  ', [carol.id, bob.id, carol.id]);
    expect(created.statusCode, created.body).toBe(201);
    expectMatchesContract('createSignGroup', 201, created.json());
    const group = created.json<GroupBody>();
    expect(group.data.type).toBe('signGroups');
    expect(group.data.attributes.description).toBe('Board');
    expect(group.data.attributes.pseudonyms).toEqual([carol.id, bob.id]);
    expect(group.data.relationships.profiles.data.map((entry) => entry.id)).toEqual([carol.id, bob.id]);
    expect(group.included.map((profile) => profile.attributes.emailAddress).sort()).toEqual([
      bob.email,
      carol.email,
    ]);

    const listed = await t.app.inject({ url: '/api/sign_groups', headers: bearer(token) });
    expectMatchesContract('listSignGroups', 200, listed.json());
    expect(listed.json<{ data: Group[] }>().data.map((entry) => entry.id)).toEqual([group.data.id]);

    const edited = await save('PATCH', `/api/sign_groups/${group.data.id}`, 'Board 2025', [bob.id]);
    expect(edited.statusCode, edited.body).toBe(200);
    expectMatchesContract('updateSignGroup', 200, edited.json());
    expect(edited.json<GroupBody>().data.attributes).toMatchObject({
      description: 'Board 2025',
      pseudonyms: [bob.id],
    });
    const read = await t.app.inject({ url: `/api/sign_groups/${group.data.id}`, headers: bearer(token) });
    expectMatchesContract('getSignGroup', 200, read.json());
    expect(read.json<GroupBody>().data.attributes.pseudonyms).toEqual([bob.id]);
    expect(read.json<GroupBody>().included.map((profile) => profile.id)).toEqual([bob.id]);

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/sign_groups/${group.data.id}`,
      headers: bearer(token),
    });
    expect(deleted.statusCode).toBe(204);
    expectMatchesContract('deleteSignGroup', 204, deleted.body);
    const empty = await t.app.inject({ url: '/api/sign_groups', headers: bearer(token) });
    expect(empty.json()).toEqual({ data: [], included: [] });
    const gone = await t.app.inject({ url: `/api/sign_groups/${group.data.id}`, headers: bearer(token) });
    expect(gone.statusCode).toBe(404);
    // The members stay connections.
    const connections = await t.app.inject({ url: '/api/connections', headers: bearer(token) });
    expect(connections.json<{ data: unknown[] }>().data).toHaveLength(2);
  });

  it('refuses a blank name, no members and members who are not connections, with their codes', async () => {
    const cases: [unknown, unknown, string, string[] | undefined][] = [
      ['   ', [bob.id], 'validation.name', undefined],
      ['', [bob.id], 'validation.name', undefined],
      ['Team', [], 'validation.members', undefined],
      ['Team', [bob.id, dave.id, ada.id], 'not_a_connection', [dave.id, ada.id]],
    ];
    for (const [description, pseudonyms, code, blocked] of cases) {
      const response = await save('POST', '/api/sign_groups', description, pseudonyms);
      expect(response.statusCode, response.body).toBe(422);
      expectMatchesContract('createSignGroup', 422, response.json());
      const body = response.json<ErrorBody>();
      expect(body.code).toBe(code);
      expect(body.blockedIds).toEqual(blocked);
    }
    const tooLong = await save('POST', '/api/sign_groups', 'x'.repeat(256), [bob.id]);
    expect(tooLong.statusCode).toBe(400);
    expectMatchesContract('createSignGroup', 400, tooLong.json());
    const listed = await t.app.inject({ url: '/api/sign_groups', headers: bearer(token) });
    expect(listed.json<{ data: unknown[] }>().data).toEqual([]);
  });

  it('keeps a member who stopped being a connection, but refuses to save the group with them', async () => {
    const group = (await save('POST', '/api/sign_groups', 'Team', [bob.id, carol.id])).json<GroupBody>();
    const connection = await t.deps.db
      .selectFrom('connections')
      .select('id')
      .where((eb) => eb.or([eb('user_a_id', '=', bob.id), eb('user_b_id', '=', bob.id)]))
      .executeTakeFirstOrThrow();
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/connections/${connection.id}`,
      headers: bearer(token),
    });
    expect(removed.statusCode).toBe(204);

    const read = await t.app.inject({ url: `/api/sign_groups/${group.data.id}`, headers: bearer(token) });
    expect(read.json<GroupBody>().data.attributes.pseudonyms).toEqual([bob.id, carol.id]);
    const refused = await save('PATCH', `/api/sign_groups/${group.data.id}`, 'Team', [bob.id, carol.id]);
    expect(refused.statusCode).toBe(422);
    expectMatchesContract('updateSignGroup', 422, refused.json());
    expect(refused.json<ErrorBody>()).toMatchObject({ code: 'not_a_connection', blockedIds: [bob.id] });
    const saved = await save('PATCH', `/api/sign_groups/${group.data.id}`, 'Team', [carol.id]);
    expect(saved.statusCode).toBe(200);
  });
});

describe("access: someone else's sign group", () => {
  let t: TestApp;
  let groupId: string;
  let ownerToken: string;
  let otherToken: string;
  let bobId: string;

  beforeEach(async () => {
    t = await buildTestApp();
    const owner = await t.createUser({ email: 'owner@example.test' });
    const bob = await t.createUser({ email: 'bob@example.test' });
    const other = await t.createUser({ email: 'other@example.test' });
    bobId = bob.id;
    await connect(t, owner, bob);
    // The other person knows bob too, so only the ownership of the group stops them.
    await connect(t, other, bob);
    ownerToken = await t.signIn(owner.email);
    otherToken = await t.signIn(other.email);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/sign_groups',
      headers: bearer(ownerToken),
      payload: { sign_group: { description: 'Mine', pseudonyms: [bob.id] } },
    });
    groupId = created.json<GroupBody>().data.id;
  });
  afterEach(async () => {
    await t.close();
  });

  type Case = { operationId: string; method: 'GET' | 'PATCH' | 'DELETE'; payload?: () => unknown };
  const cases: Case[] = [
    { operationId: 'getSignGroup', method: 'GET' },
    {
      operationId: 'updateSignGroup',
      method: 'PATCH',
      payload: () => ({ sign_group: { description: 'Taken', pseudonyms: [bobId] } }),
    },
    { operationId: 'deleteSignGroup', method: 'DELETE' },
  ];

  async function snapshot(): Promise<unknown> {
    return {
      groups: await t.deps.db.selectFrom('sign_groups').selectAll().orderBy('id').execute(),
      members: await t.deps.db.selectFrom('sign_group_members').selectAll().orderBy('user_id').execute(),
    };
  }

  it.each(cases.map((entry) => [`${entry.method} /sign_groups/:id`, entry] as const))(
    '%s answers 404 and changes nothing',
    async (_label, entry) => {
      const before = await snapshot();
      for (const id of [groupId, randomUUID(), 'nope']) {
        const response = await t.app.inject({
          method: entry.method,
          url: `/api/sign_groups/${id}`,
          headers: bearer(otherToken),
          ...(entry.payload === undefined ? {} : { payload: entry.payload() as Record<string, unknown> }),
        });
        expect(response.statusCode, response.body).toBe(404);
        expectMatchesContract(entry.operationId, 404, response.json());
      }
      expect(await snapshot()).toEqual(before);
      const list = await t.app.inject({ url: '/api/sign_groups', headers: bearer(otherToken) });
      expect(list.json()).toEqual({ data: [], included: [] });
      const own = await t.app.inject({ url: `/api/sign_groups/${groupId}`, headers: bearer(ownerToken) });
      expect(own.statusCode).toBe(200);
    },
  );
});
