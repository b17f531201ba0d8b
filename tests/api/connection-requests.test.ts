import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toCount } from '../../server/db/database.ts';
import { DEMO_PASSWORD, seedDemo } from '../../server/seed.ts';
import { bearer, buildTestApp, expectMatchesContract, type TestApp, type TestUser } from './helpers.ts';
import { queuedMessages } from './mail-support.ts';

type RequestResource = {
  id: string;
  type: string;
  attributes: { direction: 'inbound' | 'outbound'; createdAt: string; invitationEmailAddress: string | null };
  relationships: { profile: { data: { id: string; type: string } | null } };
};
type Profile = { id: string; attributes: { fullName: string; emailAddress: string } };
type RequestList = { data: RequestResource[]; included: Profile[] };
type ErrorBody = { code: string; message: string };

async function connect(t: TestApp, a: TestUser, b: TestUser): Promise<void> {
  const [first, second] = a.id < b.id ? [a.id, b.id] : [b.id, a.id];
  await t.deps.db
    .insertInto('connections')
    .values({ id: randomUUID(), user_a_id: first, user_b_id: second, created_at: new Date().toISOString() })
    .execute();
}

async function countRows(
  t: TestApp,
  table: 'connections' | 'connection_requests' | 'mail_queue',
): Promise<number> {
  const row = await t.deps.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  return toCount(row.n);
}

describe('connection requests', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let adaToken: string;
  let bobToken: string;

  beforeEach(async () => {
    t = await buildTestApp();
    ada = await t.createUser({ email: 'ada@example.test', fullName: 'Ada Lovelace' });
    bob = await t.createUser({ email: 'bob@example.test', fullName: 'Bob Baker' });
    adaToken = await t.signIn(ada.email);
    bobToken = await t.signIn(bob.email);
  });
  afterEach(async () => {
    await t.close();
  });

  async function ask(token: string, body: Record<string, unknown>) {
    return t.app.inject({
      method: 'POST',
      url: '/api/connection_requests',
      headers: bearer(token),
      payload: { connection_request: body },
    });
  }

  async function list(token: string): Promise<RequestList> {
    const response = await t.app.inject({ url: '/api/connection_requests', headers: bearer(token) });
    expect(response.statusCode).toBe(200);
    expectMatchesContract('listConnectionRequests', 200, response.json());
    return response.json<RequestList>();
  }

  async function incoming(token: string): Promise<number> {
    const response = await t.app.inject({ url: '/api/profiles', headers: bearer(token) });
    expectMatchesContract('getProfile', 200, response.json());
    return response.json<{ data: { attributes: { incomingConnectionRequests: number } } }>().data.attributes
      .incomingConnectionRequests;
  }

  it('asks by profile id: outbound for the sender, inbound for the recipient, counted in the profile', async () => {
    const created = await ask(adaToken, { to: bob.id });
    expect(created.statusCode, created.body).toBe(201);
    expectMatchesContract('createConnectionRequest', 201, created.json());
    const request = created.json<{ data: RequestResource; included: Profile[] }>();
    expect(request.data.attributes.direction).toBe('outbound');
    expect(request.data.relationships.profile.data?.id).toBe(bob.id);
    expect(request.included.map((profile) => profile.attributes.emailAddress)).toEqual([bob.email]);

    const adaList = await list(adaToken);
    expect(adaList.data.map((entry) => [entry.id, entry.attributes.direction])).toEqual([
      [request.data.id, 'outbound'],
    ]);
    const bobList = await list(bobToken);
    expect(bobList.data.map((entry) => [entry.id, entry.attributes.direction])).toEqual([
      [request.data.id, 'inbound'],
    ]);
    expect(bobList.data[0]?.relationships.profile.data?.id).toBe(ada.id);
    expect(bobList.included.map((profile) => profile.attributes.fullName)).toEqual(['Ada Lovelace']);
    expect(await incoming(bobToken)).toBe(1);
    expect(await incoming(adaToken)).toBe(0);
  });

  it('accept makes one connection for both and removes the request; a second accept is a 404', async () => {
    const id = (await ask(adaToken, { to: bob.id })).json<{ data: { id: string } }>().data.id;
    const accepted = await t.app.inject({
      method: 'PATCH',
      url: `/api/connection_requests/${id}/accept`,
      headers: bearer(bobToken),
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expectMatchesContract('acceptConnectionRequest', 200, accepted.json());
    const body = accepted.json<{ data: { relationships: { profile: { data: { id: string } } } } }>();
    expect(body.data.relationships.profile.data.id).toBe(ada.id);

    for (const [token, other] of [
      [adaToken, bob.email],
      [bobToken, ada.email],
    ] as const) {
      const connections = await t.app.inject({ url: '/api/connections', headers: bearer(token) });
      expect(
        connections
          .json<{ data: { attributes: { emailAddress: string } }[] }>()
          .data.map((entry) => entry.attributes.emailAddress),
      ).toEqual([other]);
      expect((await list(token)).data).toEqual([]);
    }
    expect(await incoming(bobToken)).toBe(0);

    const again = await t.app.inject({
      method: 'PATCH',
      url: `/api/connection_requests/${id}/accept`,
      headers: bearer(bobToken),
    });
    expect(again.statusCode).toBe(404);
    expectMatchesContract('acceptConnectionRequest', 404, again.json());
    expect(await countRows(t, 'connections')).toBe(1);
  });

  it('two concurrent accepts of one request make exactly one connection', async () => {
    const id = (await ask(adaToken, { to: bob.id })).json<{ data: { id: string } }>().data.id;
    const responses = await Promise.all(
      [1, 2].map(() =>
        t.app.inject({
          method: 'PATCH',
          url: `/api/connection_requests/${id}/accept`,
          headers: bearer(bobToken),
        }),
      ),
    );
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 404]);
    expect(await countRows(t, 'connections')).toBe(1);
    expect(await countRows(t, 'connection_requests')).toBe(0);
  });

  it('refuse (recipient) and cancel (sender) remove the request without connecting', async () => {
    const first = (await ask(adaToken, { to: bob.id })).json<{ data: { id: string } }>().data.id;
    const refused = await t.app.inject({
      method: 'PATCH',
      url: `/api/connection_requests/${first}/refuse`,
      headers: bearer(bobToken),
    });
    expect(refused.statusCode).toBe(204);
    expectMatchesContract('refuseConnectionRequest', 204, refused.body);
    expect((await list(adaToken)).data).toEqual([]);

    const second = (await ask(adaToken, { to: bob.id })).json<{ data: { id: string } }>().data.id;
    const cancelled = await t.app.inject({
      method: 'DELETE',
      url: `/api/connection_requests/${second}`,
      headers: bearer(adaToken),
    });
    expect(cancelled.statusCode).toBe(204);
    expectMatchesContract('deleteConnectionRequest', 204, cancelled.body);
    expect((await list(bobToken)).data).toEqual([]);
    expect(await countRows(t, 'connections')).toBe(0);
  });

  it('refuses a request to oneself, to a connection, a duplicate, a crossed one and an unknown profile', async () => {
    const carol = await t.createUser({ email: 'carol@example.test', fullName: 'Carol Chen' });
    await connect(t, ada, carol);
    expect((await ask(adaToken, { to: bob.id })).statusCode).toBe(201);

    const cases: [Record<string, unknown>, string, number, string][] = [
      [{ to: ada.id }, adaToken, 422, 'connection_request_to_self'],
      [{ invitation_email_address: 'ADA@example.test' }, adaToken, 422, 'connection_request_to_self'],
      [{ to: carol.id }, adaToken, 409, 'already_connected'],
      [{ invitation_email_address: carol.email }, adaToken, 409, 'already_connected'],
      [{ to: bob.id }, adaToken, 409, 'connection_request_pending'],
      [{ invitation_email_address: bob.email }, adaToken, 409, 'connection_request_pending'],
      [{ to: ada.id }, bobToken, 409, 'connection_request_received'],
      [{ to: randomUUID() }, adaToken, 404, 'not_found'],
      [{ to: ada.id, invitation_email_address: ada.email }, adaToken, 422, 'connection_request_to_self'],
      [{ to: carol.id, invitation_email_address: carol.email }, adaToken, 409, 'already_connected'],
      [{ to: bob.id, invitation_email_address: bob.email }, adaToken, 409, 'connection_request_pending'],
    ];
    for (const [body, token, status, code] of cases) {
      const response = await ask(token, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expectMatchesContract('createConnectionRequest', status, response.json());
      expect(response.json<ErrorBody>().code, JSON.stringify(body)).toBe(code);
    }
    expect(await countRows(t, 'connection_requests')).toBe(1);
    // The one request made before the refusals told Bob; the refusals told nobody.
    expect((await queuedMessages(t.deps.db)).map((mail) => [mail.to_email, mail.kind])).toEqual([
      [bob.email, 'connection.request'],
    ]);
  });

  it('takes `to` with that profile’s own address (spec 000 §3), whatever its case', async () => {
    const response = await ask(adaToken, { to: bob.id, invitation_email_address: 'Bob@Example.TEST' });
    expect(response.statusCode, response.body).toBe(201);
    expectMatchesContract('createConnectionRequest', 201, response.json());
    const body = response.json<{ data: RequestResource; included: Profile[] }>();
    expect(body.data.relationships.profile.data?.id).toBe(bob.id);
    expect(body.data.attributes.invitationEmailAddress).toBeNull();
    expect(body.included.map((profile) => profile.id)).toEqual([bob.id]);
    expect((await list(bobToken)).data.map((entry) => entry.attributes.direction)).toEqual(['inbound']);
    // Bob hears of it at his account's address, with a link to where he answers it.
    const mail = await queuedMessages(t.deps.db);
    expect(mail.map((entry) => [entry.to_email, entry.kind])).toEqual([[bob.email, 'connection.request']]);
    expect(mail[0]?.subject).toBe('Ada Lovelace would like to connect with you on Paraph');
    expect(mail[0]?.body).toContain('http://localhost:8080/app/connections');
  });

  it('refuses `to` and an address that name different people, and stores nothing', async () => {
    const carol = await t.createUser({ email: 'carol@example.test', fullName: 'Carol Chen' });
    const cases: [Record<string, unknown>, number, string][] = [
      // The address is someone else's account.
      [{ to: bob.id, invitation_email_address: carol.email }, 422, 'connection_request_mismatch'],
      // The address has no account: no invitation may go out in bob's name.
      [{ to: bob.id, invitation_email_address: 'dave@example.test' }, 422, 'connection_request_mismatch'],
      // The caller's own address with someone else's id.
      [{ to: bob.id, invitation_email_address: ada.email }, 422, 'connection_request_mismatch'],
      [{ to: randomUUID(), invitation_email_address: bob.email }, 404, 'not_found'],
    ];
    for (const [body, status, code] of cases) {
      const response = await ask(adaToken, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expectMatchesContract('createConnectionRequest', status, response.json());
      const error = response.json<ErrorBody>();
      expect(error.code, JSON.stringify(body)).toBe(code);
      if (status === 422)
        expect(error.message).toBe('The profile and the e-mail address belong to different people.');
    }
    expect(await countRows(t, 'connection_requests')).toBe(0);
    expect(await countRows(t, 'mail_queue')).toBe(0);
    expect(await incoming(bobToken)).toBe(0);
    expect(await incoming(await t.signIn(carol.email))).toBe(0);
  });

  it("an address with an account is a request to that account, whatever the address's case", async () => {
    const response = await ask(adaToken, { invitation_email_address: 'Bob@Example.test' });
    expect(response.statusCode).toBe(201);
    const body = response.json<{ data: RequestResource }>();
    expect(body.data.relationships.profile.data?.id).toBe(bob.id);
    expect(body.data.attributes.invitationEmailAddress).toBeNull();
    expect(await incoming(bobToken)).toBe(1);
    expect((await queuedMessages(t.deps.db)).map((mail) => [mail.to_email, mail.kind])).toEqual([
      [bob.email, 'connection.request'],
    ]);
  });

  it('invites an address without an account by e-mail; the request waits for that account', async () => {
    const response = await ask(adaToken, { invitation_email_address: 'Dave@Example.test' });
    expect(response.statusCode, response.body).toBe(201);
    expectMatchesContract('createConnectionRequest', 201, response.json());
    const body = response.json<{ data: RequestResource; included: unknown[] }>();
    expect(body.data.relationships.profile.data).toBeNull();
    expect(body.data.attributes.invitationEmailAddress).toBe('dave@example.test');
    expect(body.included).toEqual([]);
    const mail = await queuedMessages(t.deps.db);
    expect(mail.map((entry) => entry.to_email)).toEqual(['dave@example.test']);
    expect(mail[0]?.body).toContain('Ada Lovelace');

    const duplicate = await ask(adaToken, { invitation_email_address: 'dave@example.test' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json<ErrorBody>().code).toBe('connection_request_pending');
    expect((await list(adaToken)).data.map((entry) => entry.attributes.invitationEmailAddress)).toEqual([
      'dave@example.test',
    ]);

    const dave = await t.createUser({ email: 'dave@example.test', fullName: 'Dave Doe' });
    const daveToken = await t.signIn(dave.email);
    expect(await incoming(daveToken)).toBe(1);
    const daveList = await list(daveToken);
    expect(daveList.data.map((entry) => entry.attributes.direction)).toEqual(['inbound']);
    expect(daveList.data[0]?.relationships.profile.data?.id).toBe(ada.id);
    const adaList = await list(adaToken);
    expect(adaList.data[0]?.relationships.profile.data?.id).toBe(dave.id);
    expect(adaList.included.map((profile) => profile.id)).toEqual([dave.id]);

    const accepted = await t.app.inject({
      method: 'PATCH',
      url: `/api/connection_requests/${body.data.id}/accept`,
      headers: bearer(daveToken),
    });
    expect(accepted.statusCode).toBe(200);
    expect(await countRows(t, 'connections')).toBe(1);
  });
});

// Nobody but the recipient accepts or refuses, nobody but the sender cancels: everyone else gets 404,
// exactly like an unknown id, and nothing changes.
describe('access: connection requests that are not the caller’s', () => {
  let t: TestApp;
  let tokens: Record<'ada' | 'bob' | 'carol', string>;
  let requestId: string;

  type Case = { who: 'ada' | 'bob' | 'carol'; operationId: string; method: 'PATCH' | 'DELETE'; url: string };
  const cases: Case[] = [
    { who: 'carol', operationId: 'acceptConnectionRequest', method: 'PATCH', url: '/accept' },
    { who: 'carol', operationId: 'refuseConnectionRequest', method: 'PATCH', url: '/refuse' },
    { who: 'carol', operationId: 'deleteConnectionRequest', method: 'DELETE', url: '' },
    { who: 'ada', operationId: 'acceptConnectionRequest', method: 'PATCH', url: '/accept' },
    { who: 'ada', operationId: 'refuseConnectionRequest', method: 'PATCH', url: '/refuse' },
    { who: 'bob', operationId: 'deleteConnectionRequest', method: 'DELETE', url: '' },
  ];

  beforeEach(async () => {
    t = await buildTestApp();
    const ada = await t.createUser({ email: 'ada@example.test' });
    const bob = await t.createUser({ email: 'bob@example.test' });
    const carol = await t.createUser({ email: 'carol@example.test' });
    tokens = {
      ada: await t.signIn(ada.email),
      bob: await t.signIn(bob.email),
      carol: await t.signIn(carol.email),
    };
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/connection_requests',
      headers: bearer(tokens.ada),
      payload: { connection_request: { to: bob.id } },
    });
    requestId = created.json<{ data: { id: string } }>().data.id;
  });
  afterEach(async () => {
    await t.close();
  });

  async function snapshot(): Promise<unknown> {
    return {
      requests: await t.deps.db.selectFrom('connection_requests').selectAll().orderBy('id').execute(),
      connections: await t.deps.db.selectFrom('connections').selectAll().orderBy('id').execute(),
    };
  }

  it.each(cases.map((entry) => [`${entry.who}: ${entry.method} ${entry.url || '(cancel)'}`, entry] as const))(
    '%s answers 404 and changes nothing',
    async (_label, entry) => {
      const before = await snapshot();
      for (const id of [requestId, randomUUID(), 'not-a-uuid']) {
        const response = await t.app.inject({
          method: entry.method,
          url: `/api/connection_requests/${id}${entry.url}`,
          headers: bearer(tokens[entry.who]),
        });
        expect(response.statusCode, response.body).toBe(404);
        expectMatchesContract(entry.operationId, 404, response.json());
        expect(response.json<ErrorBody>().code).toBe('not_found');
      }
      expect(await snapshot()).toEqual(before);
    },
  );
});

describe('demo data', () => {
  it('erin knows nobody and has asked ada to connect, so ada sees the badge', async () => {
    const t = await buildTestApp();
    try {
      await seedDemo(t.deps);
      const adaToken = await t.signIn('ada@paraph.test', DEMO_PASSWORD);
      const profile = await t.app.inject({ url: '/api/profiles', headers: bearer(adaToken) });
      expect(
        profile.json<{ data: { attributes: { incomingConnectionRequests: number } } }>().data.attributes
          .incomingConnectionRequests,
      ).toBe(1);
      const requests = await t.app.inject({ url: '/api/connection_requests', headers: bearer(adaToken) });
      expectMatchesContract('listConnectionRequests', 200, requests.json());
      const body = requests.json<RequestList>();
      expect(body.data.map((entry) => entry.attributes.direction)).toEqual(['inbound']);
      expect(body.included.map((entry) => entry.attributes.emailAddress)).toEqual(['erin@paraph.test']);
      const erinToken = await t.signIn('erin@paraph.test', DEMO_PASSWORD);
      const connections = await t.app.inject({ url: '/api/connections', headers: bearer(erinToken) });
      expect(connections.json()).toEqual({ data: [], included: [] });
    } finally {
      await t.close();
    }
  });
});
