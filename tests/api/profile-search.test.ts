import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SEARCH_LIMIT } from '../../server/handlers/profiles.ts';
import { bearer, buildTestApp, expectMatchesContract, type TestApp, type TestUser } from './helpers.ts';

type SearchBody = { data: { id: string; type: string; attributes: Record<string, unknown> }[] };

async function connect(t: TestApp, a: TestUser, b: TestUser): Promise<void> {
  const [first, second] = a.id < b.id ? [a.id, b.id] : [b.id, a.id];
  await t.deps.db
    .insertInto('connections')
    .values({ id: randomUUID(), user_a_id: first, user_b_id: second, created_at: new Date().toISOString() })
    .execute();
}

describe('GET /api/profiles/search', () => {
  let t: TestApp;
  let now: Date;
  let ada: TestUser;
  let token: string;

  beforeEach(async () => {
    now = new Date('2025-03-01T10:00:00.000Z');
    t = await buildTestApp({ clock: () => now });
    ada = await t.createUser({ email: 'ada@example.test', fullName: 'Ada Lovelace' });
    token = await t.signIn(ada.email);
  });
  afterEach(async () => {
    await t.close();
  });

  async function search(query: string) {
    return t.app.inject({
      url: `/api/profiles/search?${new URLSearchParams({ query }).toString()}`,
      headers: bearer(token),
    });
  }

  async function found(query: string): Promise<string[]> {
    const response = await search(query);
    expect(response.statusCode, response.body).toBe(200);
    expectMatchesContract('searchProfiles', 200, response.json());
    return response.json<SearchBody>().data.map((profile) => profile.attributes.emailAddress as string);
  }

  it('answers 422 query_too_short for fewer than 3 characters after trimming', async () => {
    for (const query of ['', 'ab', '  ab  ', '   ']) {
      const response = await search(query);
      expect(response.statusCode, JSON.stringify(query)).toBe(422);
      expectMatchesContract('searchProfiles', 422, response.json());
      expect(response.json<{ code: string }>().code).toBe('query_too_short');
    }
  });

  it('finds a stranger only by their whole e-mail address, never by a fragment or their name', async () => {
    const bob = await t.createUser({ email: 'bob.baker@example.test', fullName: 'Bob Baker' });
    expect(await found('Bob.Baker@Example.test')).toEqual([bob.email]);
    expect(await found('  bob.baker@example.test ')).toEqual([bob.email]);
    expect(await found('bob.baker@example')).toEqual([]);
    expect(await found('Bob Baker')).toEqual([]);
    expect(await found('bob')).toEqual([]);
  });

  it('finds connections by a fragment of their name or address, the exact address first, at most 5', async () => {
    const names = ['Alan Smith', 'Alana Jones', 'Bob Alanson', 'Carl Alan', 'Dora Alani', 'Eve Alanis'];
    const users: TestUser[] = [];
    for (const [index, fullName] of names.entries()) {
      const user = await t.createUser({ email: `person${index}@example.test`, fullName });
      users.push(user);
      await connect(t, ada, user);
    }
    const stranger = await t.createUser({ email: 'alan@example.test', fullName: 'Alan Stranger' });
    const matches = await found('ALAN');
    expect(matches).toHaveLength(5);
    expect(matches).not.toContain(stranger.email);
    expect(await found('alan@example.test')).toEqual([stranger.email]);
    // The exact address comes first, then the connections whose address contains it.
    const aaron = await t.createUser({ email: 'xalan@example.test', fullName: 'Aaron Xalan' });
    await connect(t, ada, aaron);
    expect(await found('alan@example.test')).toEqual([stranger.email, aaron.email]);
    expect(await found('son5@exa')).toEqual(['person5@example.test']);
    // LIKE wildcards are literal.
    expect(await found('a%n')).toEqual([]);
    expect(await found('___')).toEqual([]);
  });

  it('never answers the caller, and never a stranger’s last-seen time', async () => {
    expect(await found('ada@example.test')).toEqual([]);
    expect(await found('Ada Lovelace')).toEqual([]);
    const bob = await t.createUser({ email: 'bob@example.test', fullName: 'Bob Baker' });
    await t.app.inject({ url: '/api/profiles', headers: bearer(await t.signIn(bob.email)) });
    const response = await search(bob.email);
    const [profile] = response.json<SearchBody>().data;
    expect(profile?.id).toBe(bob.id);
    expect(Object.keys(profile?.attributes ?? {}).sort()).toEqual(['emailAddress', 'fullName', 'initials']);
  });

  it('limits each user to 30 searches a minute, counted in the database, with Retry-After', async () => {
    const other = await t.createUser({ email: 'other@example.test' });
    const otherToken = await t.signIn(other.email);
    for (let n = 0; n < SEARCH_LIMIT.max; n += 1) {
      now = new Date(now.getTime() + 1000);
      expect((await search('someone@example.test')).statusCode).toBe(200);
    }
    const limited = await search('someone@example.test');
    expect(limited.statusCode).toBe(429);
    expectMatchesContract('searchProfiles', 429, limited.json());
    expect(limited.json<{ code: string }>().code).toBe('too_many_requests');
    // The first search of the window was 30 s ago: it leaves the window in 31 s.
    expect(limited.headers['retry-after']).toBe('31');
    // Another user is not affected.
    const otherSearch = await t.app.inject({
      url: '/api/profiles/search?query=abc',
      headers: bearer(otherToken),
    });
    expect(otherSearch.statusCode).toBe(200);
    now = new Date(now.getTime() + 31_000);
    expect((await search('someone@example.test')).statusCode).toBe(200);
  });
});
