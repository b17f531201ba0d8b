import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, expectMatchesContract, type TestApp, type TestUser } from './helpers.ts';

type ConnectionsBody = {
  data: {
    id: string;
    type: string;
    attributes: { emailAddress: string; fullName: string };
    relationships: { profile: { data: { id: string } } };
  }[];
  included: {
    id: string;
    type: string;
    attributes: { emailAddress: string; fullName: string; initials: string; lastSeenAt: string | null };
  }[];
};

describe('GET /api/connections', () => {
  let t: TestApp;
  let ada: TestUser;

  async function connect(a: TestUser, b: TestUser): Promise<void> {
    const [first, second] = a.id < b.id ? [a.id, b.id] : [b.id, a.id];
    await t.deps.db
      .insertInto('connections')
      .values({ id: randomUUID(), user_a_id: first, user_b_id: second, created_at: new Date().toISOString() })
      .execute();
  }

  beforeEach(async () => {
    t = await buildTestApp();
    ada = await t.createUser({ email: 'ada@example.test', fullName: 'Ada Lovelace' });
  });
  afterEach(async () => {
    await t.close();
  });

  it("lists the caller's connections, whichever side of the pair they are on, with included profiles", async () => {
    const bob = await t.createUser({ email: 'bob@example.test', fullName: 'Bob Baker' });
    const carol = await t.createUser({ email: 'carol@example.test', fullName: 'Carol Chen' });
    const dave = await t.createUser({ email: 'dave@example.test', fullName: 'Dave Doe' });
    await connect(ada, bob);
    await connect(carol, ada);
    await connect(bob, dave);
    const bobToken = await t.signIn(bob.email);
    await t.app.inject({ url: '/api/profiles', headers: bearer(bobToken) });

    const token = await t.signIn(ada.email);
    const response = await t.app.inject({ url: '/api/connections', headers: bearer(token) });
    expect(response.statusCode).toBe(200);
    const body = response.json<ConnectionsBody>();
    expectMatchesContract('listConnections', 200, body);
    expect(body.data.map((connection) => connection.attributes.emailAddress)).toEqual([
      'bob@example.test',
      'carol@example.test',
    ]);
    expect(body.data.every((connection) => connection.type === 'connections')).toBe(true);
    expect(body.data.map((connection) => connection.relationships.profile.data.id)).toEqual([
      bob.id,
      carol.id,
    ]);
    const bobProfile = body.included.find((profile) => profile.id === bob.id);
    expect(bobProfile?.attributes).toMatchObject({
      fullName: 'Bob Baker',
      initials: 'BB',
      emailAddress: 'bob@example.test',
    });
    expect(bobProfile?.attributes.lastSeenAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(body.included.find((profile) => profile.id === carol.id)?.attributes.lastSeenAt).toBeNull();
    expect(body.included.some((profile) => profile.id === dave.id)).toBe(false);
  });

  it('answers an empty list for someone without connections, and 401 without a token', async () => {
    const token = await t.signIn(ada.email);
    const response = await t.app.inject({ url: '/api/connections', headers: bearer(token) });
    expect(response.json()).toEqual({ data: [], included: [] });
    expectMatchesContract('listConnections', 200, response.json());
    const anonymous = await t.app.inject({ url: '/api/connections' });
    expect(anonymous.statusCode).toBe(401);
    expectMatchesContract('listConnections', 401, anonymous.json());
  });
});

describe('DELETE /api/connections/{id}', () => {
  let t: TestApp;

  beforeEach(async () => {
    t = await buildTestApp();
  });
  afterEach(async () => {
    await t.close();
  });

  it('removes the connection for both people; anyone else, or an unknown id, gets 404', async () => {
    const ada = await t.createUser({ email: 'ada@example.test' });
    const bob = await t.createUser({ email: 'bob@example.test' });
    const carol = await t.createUser({ email: 'carol@example.test' });
    const [first, second] = ada.id < bob.id ? [ada.id, bob.id] : [bob.id, ada.id];
    const id = randomUUID();
    await t.deps.db
      .insertInto('connections')
      .values({ id, user_a_id: first, user_b_id: second, created_at: new Date().toISOString() })
      .execute();
    const [adaToken, bobToken, carolToken] = await Promise.all(
      [ada, bob, carol].map((user) => t.signIn(user.email)),
    );

    for (const [token, target] of [
      [carolToken ?? '', id],
      [adaToken ?? '', randomUUID()],
      [adaToken ?? '', 'not-an-id'],
    ] as const) {
      const response = await t.app.inject({
        method: 'DELETE',
        url: `/api/connections/${target}`,
        headers: bearer(token),
      });
      expect(response.statusCode).toBe(404);
      expectMatchesContract('deleteConnection', 404, response.json());
    }
    const stillThere = await t.app.inject({ url: '/api/connections', headers: bearer(bobToken ?? '') });
    expect(stillThere.json<ConnectionsBody>().data.map((entry) => entry.id)).toEqual([id]);

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/connections/${id}`,
      headers: bearer(bobToken ?? ''),
    });
    expect(removed.statusCode).toBe(204);
    expectMatchesContract('deleteConnection', 204, removed.body);
    for (const token of [adaToken, bobToken]) {
      const list = await t.app.inject({ url: '/api/connections', headers: bearer(token ?? '') });
      expect(list.json()).toEqual({ data: [], included: [] });
    }
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/connections/${id}`,
      headers: bearer(adaToken ?? ''),
    });
    expect(again.statusCode).toBe(404);
  });
});
