// The sign-in and sign-up forms refuse posts from other sites; the session cookie is Secure on an https
// public origin; every answer carries a Permissions-Policy, and HSTS over https.
import { afterEach, describe, expect, it } from 'vitest';
import { actionDb } from '../../server/documents/access.ts';
import { bearer, buildTestApp, insertDocument, type TestApp } from './helpers.ts';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const HTTPS_ORIGIN = 'https://sign.example.test';

describe('cross-site form posts', () => {
  let t: TestApp | null = null;
  afterEach(async () => {
    await t?.close();
    t = null;
  });

  async function app(env: Record<string, string> = {}): Promise<TestApp> {
    t = await buildTestApp({ env });
    return t;
  }

  async function signIn(app: TestApp, headers: Record<string, string>) {
    const user = await app.createUser();
    return app.app.inject({
      method: 'POST',
      url: '/sign_in',
      headers: { ...FORM, ...headers },
      payload: new URLSearchParams({ email: user.email, password: user.password }).toString(),
    });
  }

  it.each([
    ['another origin', { origin: 'https://evil.example' }],
    ['the right host over http', { origin: 'http://sign.example.test' }],
    ['a cross-site fetch', { 'sec-fetch-site': 'cross-site' }],
    ['a sibling site', { 'sec-fetch-site': 'same-site', origin: 'https://other.example.test' }],
    ['an opaque origin from another site', { origin: 'null', 'sec-fetch-site': 'cross-site' }],
    ['an opaque origin without fetch metadata', { origin: 'null' }],
  ])('refuses a sign-in posted from %s with 403, signing nobody in', async (_name, headers) => {
    const answer = await signIn(await app({ PARAPH_PUBLIC_ORIGIN: HTTPS_ORIGIN }), headers);
    expect(answer.statusCode).toBe(403);
    expect(answer.headers['content-type']).toMatch(/^text\/plain/);
    expect(answer.headers['set-cookie']).toBeUndefined();
  });

  it.each([
    ['its own origin', { origin: HTTPS_ORIGIN, 'sec-fetch-site': 'same-origin' }],
    // The pages send no referrer: a browser then sends "Origin: null" on their own posts.
    ['its own page without a referrer', { origin: 'null', 'sec-fetch-site': 'same-origin' }],
    ['a client that is not a browser', {}],
  ])('accepts a sign-in from %s', async (_name, headers) => {
    const answer = await signIn(await app({ PARAPH_PUBLIC_ORIGIN: HTTPS_ORIGIN }), headers);
    expect(answer.statusCode).toBe(303);
  });

  it('accepts any loopback origin on a loopback server (localhost, 127.0.0.1, the dev server)', async () => {
    const local = await app();
    for (const origin of ['http://localhost:8080', 'http://127.0.0.1:8080', 'http://localhost:5173']) {
      expect((await signIn(local, { origin, 'sec-fetch-site': 'same-origin' })).statusCode).toBe(303);
    }
    expect((await signIn(local, { origin: 'http://evil.example' })).statusCode).toBe(403);
  });

  it('refuses a cross-site sign-up, creating no account and leaving the link unused', async () => {
    const local = await app();
    const ada = await local.createUser({ email: 'ada@example.test' });
    const documentId = await insertDocument(local.deps, { ownerId: ada.id });
    await local.app.inject({
      method: 'POST',
      url: `/api/documents/${documentId}/sign_flow`,
      headers: bearer(await local.signIn(ada.email)),
      payload: { sign_flow: { type: 'standard', signatory_email_addresses: ['dave@example.test'] } },
    });
    const invite = await actionDb(local.deps.db).selectFrom('invites').selectAll().executeTakeFirstOrThrow();
    const answer = await local.app.inject({
      method: 'POST',
      url: `/sign_up?invite=${invite.id}`,
      headers: { ...FORM, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      payload: new URLSearchParams({
        full_name: 'Dave',
        password: 'a long enough password',
        password_confirmation: 'a long enough password',
      }).toString(),
    });
    expect(answer.statusCode).toBe(403);
    const users = await local.deps.db.selectFrom('users').select('email').execute();
    expect(users.map((user) => user.email)).toEqual(['ada@example.test']);
    expect(
      (await actionDb(local.deps.db).selectFrom('invites').select('used_at').executeTakeFirstOrThrow())
        .used_at,
    ).toBeNull();
  });
});

describe('cookies and headers', () => {
  let t: TestApp | null = null;
  afterEach(async () => {
    await t?.close();
    t = null;
  });

  it('makes the session cookie Secure on an https public origin, also when cleared at log-out', async () => {
    t = await buildTestApp({ env: { PARAPH_PUBLIC_ORIGIN: HTTPS_ORIGIN } });
    const user = await t.createUser();
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/sign_in',
      headers: FORM,
      payload: new URLSearchParams({ email: user.email, password: user.password }).toString(),
    });
    expect(String(signIn.headers['set-cookie'])).toMatch(/; Secure/);
    const logOut = await t.app.inject({ method: 'GET', url: '/api/log_out' });
    expect(String(logOut.headers['set-cookie'])).toMatch(/paraph_session=;.*; Secure/);
  });

  it.each(['/sign_in', '/api/profiles', '/healthz', '/no/such/page'])(
    'sends HSTS and a Permissions-Policy on %s over an https public origin',
    async (url) => {
      t = await buildTestApp({ env: { PARAPH_PUBLIC_ORIGIN: HTTPS_ORIGIN } });
      const answer = await t.app.inject({ method: 'GET', url });
      expect(answer.headers['strict-transport-security']).toBe('max-age=31536000');
      const policy = String(answer.headers['permissions-policy']);
      expect(policy).toContain('geolocation=(self)');
      for (const feature of ['camera', 'microphone', 'payment', 'usb'])
        expect(policy).toContain(`${feature}=()`);
    },
  );

  it('sends no HSTS over an http origin, but the Permissions-Policy all the same', async () => {
    t = await buildTestApp();
    const answer = await t.app.inject({ method: 'GET', url: '/sign_in' });
    expect(answer.headers['strict-transport-security']).toBeUndefined();
    expect(String(answer.headers['permissions-policy'])).toContain('geolocation=(self)');
  });
});
