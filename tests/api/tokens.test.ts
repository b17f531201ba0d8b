import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, expectMatchesContract, type TestApp, type TestUser } from './helpers.ts';

describe('session cookie, access tokens and log out', () => {
  let t: TestApp;
  let ada: TestUser;
  let now: Date;

  async function sessionCookie(user: TestUser): Promise<string> {
    const response = await t.app.inject({
      method: 'POST',
      url: '/sign_in',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ email: user.email, password: user.password }).toString(),
    });
    const cookie = response.cookies.find((entry) => entry.name === 'paraph_session');
    if (cookie === undefined) throw new Error('no session cookie');
    return cookie.value;
  }

  beforeEach(async () => {
    now = new Date('2030-03-01T08:00:00.000Z');
    t = await buildTestApp({ clock: () => now });
    ada = await t.createUser({ email: 'ada@example.test', fullName: 'Ada Lovelace' });
  });
  afterEach(async () => {
    await t.close();
  });

  it('GET /api/tokens with the session cookie answers a new opaque bearer token valid 12 hours, never cached', async () => {
    const cookie = await sessionCookie(ada);
    const first = await t.app.inject({ url: '/api/tokens', cookies: { paraph_session: cookie } });
    expect(first.statusCode).toBe(200);
    const body = first.json<{ access_token: string; token_type: string; expires_in: number }>();
    expectMatchesContract('getTokens', 200, body);
    expect(body.token_type).toBe('Bearer');
    expect(body.expires_in).toBe(12 * 60 * 60);
    expect(body.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.headers['cache-control']).toBe('no-store');

    const second = await t.app.inject({ url: '/api/tokens', cookies: { paraph_session: cookie } });
    expect(second.json<{ access_token: string }>().access_token).not.toBe(body.access_token);

    // Only the hash is stored.
    const stored = await t.deps.db.selectFrom('access_tokens').select('token_hash').execute();
    expect(stored.map((row) => row.token_hash)).not.toContain(body.access_token);
    expect(stored.every((row) => /^[0-9a-f]{64}$/.test(row.token_hash))).toBe(true);
  });

  it('GET /api/tokens without a cookie, or with an unknown one, is 401 unauthorized', async () => {
    const none = await t.app.inject({ url: '/api/tokens' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ code: 'unauthorized' });
    expectMatchesContract('getTokens', 401, none.json());

    const forged = await t.app.inject({ url: '/api/tokens', cookies: { paraph_session: 'x'.repeat(43) } });
    expect(forged.statusCode).toBe(401);
    expectMatchesContract('getTokens', 401, forged.json());
  });

  it('a bearer token is required on /api/profiles: none, a malformed one or an unknown one answers 401', async () => {
    for (const headers of [
      {},
      { authorization: 'Basic abc' },
      bearer('not-a-real-token-but-long-enough-to-look-real'),
    ]) {
      const response = await t.app.inject({ url: '/api/profiles', headers });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: 'unauthorized' });
      expectMatchesContract('getProfile', 401, response.json());
    }
    const token = await t.signIn(ada.email);
    const ok = await t.app.inject({ url: '/api/profiles', headers: bearer(token) });
    expect(ok.statusCode).toBe(200);
    expectMatchesContract('getProfile', 200, ok.json());
  });

  it('a token expires after 12 hours', async () => {
    const token = await t.signIn(ada.email);
    now = new Date(now.getTime() + 12 * 60 * 60 * 1000 - 1000);
    expect((await t.app.inject({ url: '/api/profiles', headers: bearer(token) })).statusCode).toBe(200);
    now = new Date(now.getTime() + 2000);
    const expired = await t.app.inject({ url: '/api/profiles', headers: bearer(token) });
    expect(expired.statusCode).toBe(401);
    expectMatchesContract('getProfile', 401, expired.json());
  });

  it('GET /api/log_out revokes the bearer token and the session, clears the cookie and redirects to a same-origin return_to', async () => {
    const cookie = await sessionCookie(ada);
    const tokenResponse = await t.app.inject({ url: '/api/tokens', cookies: { paraph_session: cookie } });
    const token = tokenResponse.json<{ access_token: string }>().access_token;
    const otherToken = await t.signIn(ada.email);
    expect((await t.app.inject({ url: '/api/profiles', headers: bearer(token) })).statusCode).toBe(200);

    const out = await t.app.inject({
      url: '/api/log_out?return_to=%2Fapp%2Flogin',
      cookies: { paraph_session: cookie },
      headers: bearer(otherToken),
    });
    expect(out.statusCode).toBe(303);
    expectMatchesContract('logOut', 303, undefined);
    expect(out.headers.location).toBe('/app/login');
    expect(String(out.headers['set-cookie'])).toMatch(/^paraph_session=;/);
    expect(String(out.headers['set-cookie'])).toMatch(/Expires=Thu, 01 Jan 1970/);

    // The session's own token and the one sent as a bearer header are both dead.
    for (const revoked of [token, otherToken]) {
      const response = await t.app.inject({ url: '/api/profiles', headers: bearer(revoked) });
      expect(response.statusCode).toBe(401);
      expectMatchesContract('getProfile', 401, response.json());
    }
    const again = await t.app.inject({ url: '/api/tokens', cookies: { paraph_session: cookie } });
    expect(again.statusCode).toBe(401);
  });

  it('GET /api/log_out with nothing to revoke still redirects, and refuses a foreign return_to', async () => {
    const plain = await t.app.inject({ url: '/api/log_out' });
    expect(plain.statusCode).toBe(303);
    expect(plain.headers.location).toBe('/app/login');
    const foreign = await t.app.inject({
      url: `/api/log_out?return_to=${encodeURIComponent('https://evil.example/')}`,
    });
    expect(foreign.statusCode).toBe(303);
    expect(foreign.headers.location).toBe('/app/login');
    const local = await t.app.inject({
      url: `/api/log_out?return_to=${encodeURIComponent('/app/login/timeout')}`,
    });
    expect(local.headers.location).toBe('/app/login/timeout');
  });

  it('records when a user was last seen, at most once a minute', async () => {
    const token = await t.signIn(ada.email);
    const lastSeen = async (): Promise<string | null> =>
      (
        await t.deps.db
          .selectFrom('users')
          .select('last_seen_at')
          .where('id', '=', ada.id)
          .executeTakeFirstOrThrow()
      ).last_seen_at;
    expect(await lastSeen()).toBeNull();
    await t.app.inject({ url: '/api/profiles', headers: bearer(token) });
    const first = now.toISOString();
    expect(await lastSeen()).toBe(first);
    now = new Date(now.getTime() + 30_000);
    await t.app.inject({ url: '/api/profiles', headers: bearer(token) });
    expect(await lastSeen()).toBe(first);
    now = new Date(now.getTime() + 31_000);
    await t.app.inject({ url: '/api/profiles', headers: bearer(token) });
    expect(await lastSeen()).toBe(now.toISOString());
  });
});
