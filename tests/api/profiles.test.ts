import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/schema';
import {
  bearer,
  buildTestApp,
  expectMatchesContract,
  insertDocument,
  insertSignFlow,
  type TestApp,
  type TestUser,
} from './helpers.ts';

type ProfileBody = components['schemas']['ProfileResponse'];

describe('profiles', () => {
  let t: TestApp;
  let ada: TestUser;
  let token: string;

  beforeEach(async () => {
    t = await buildTestApp();
    ada = await t.createUser({ email: 'ada@example.test', fullName: 'Ada Lovelace' });
    token = await t.signIn(ada.email);
  });
  afterEach(async () => {
    await t.close();
  });

  const patch = (payload: unknown, headers: Record<string, string> = bearer(token)) =>
    t.app.inject({
      method: 'PATCH',
      url: '/api/profiles/update_settings',
      headers,
      payload: payload as object,
    });

  it('GET /api/profiles answers the caller with counters', async () => {
    const bob = await t.createUser({ email: 'bob@example.test', fullName: 'Bob Baker' });
    const toSign = await insertDocument(t.deps, { ownerId: bob.id, state: 'awaiting_signs' });
    await insertSignFlow(t.deps, toSign, {
      state: 'awaiting_signs',
      participants: [{ role: 'signatory', email: ada.email, userId: ada.id, state: 'pending' }],
    });
    const toReview = await insertDocument(t.deps, { ownerId: bob.id, state: 'in_review' });
    await insertSignFlow(t.deps, toReview, {
      state: 'in_review',
      participants: [{ role: 'reviewer', email: ada.email, state: 'pending' }],
    });

    const response = await t.app.inject({ url: '/api/profiles', headers: bearer(token) });
    expect(response.statusCode).toBe(200);
    const body = response.json<ProfileBody>();
    expectMatchesContract('getProfile', 200, body);
    expect(body.data).toMatchObject({
      id: ada.id,
      type: 'profiles',
      attributes: {
        fullName: 'Ada Lovelace',
        initials: 'AL',
        emailAddress: 'ada@example.test',
        locale: 'en',
        location: '',
        incomingConnectionRequests: 0,
        welcomeScreenWatched: false,
      },
    });
    // One signature and one review (the reviewer row is matched by e-mail: no account was linked yet).
    expect(body.data.attributes.pendingSignFlows).toBe(2);
  });

  it('PATCH update_settings stores welcome_screen_watched, locale and a trimmed location', async () => {
    const first = await patch({ settings: { welcome_screen_watched: true } });
    expect(first.statusCode).toBe(200);
    expectMatchesContract('updateProfileSettings', 200, first.json());
    expect(first.json<ProfileBody>().data.attributes.welcomeScreenWatched).toBe(true);

    const second = await patch({ settings: { locale: 'fr', location: '  Amsterdam  ' } });
    expect(second.statusCode).toBe(200);
    const body = second.json<ProfileBody>();
    expectMatchesContract('updateProfileSettings', 200, body);
    expect(body.data.attributes).toMatchObject({
      locale: 'fr',
      location: 'Amsterdam',
      welcomeScreenWatched: true,
    });

    const reread = await t.app.inject({ url: '/api/profiles', headers: bearer(token) });
    expect(reread.json<ProfileBody>().data.attributes).toMatchObject({ locale: 'fr', location: 'Amsterdam' });
  });

  it('refuses an unknown locale with 400 invalid_request naming the field', async () => {
    const response = await patch({ settings: { locale: 'de' } });
    expect(response.statusCode).toBe(400);
    const body = response.json<{ code: string; field: string; validations: Record<string, string[]> }>();
    expectMatchesContract('updateProfileSettings', 400, body);
    expect(body.code).toBe('invalid_request');
    expect(body.field).toBe('settings.locale');
    expect(Object.keys(body.validations)).toEqual(['settings.locale']);
  });

  it('refuses an extra field instead of dropping it, naming it', async () => {
    const nested = await patch({ settings: { locale: 'es', plan: 'advanced' } });
    expect(nested.statusCode).toBe(400);
    expectMatchesContract('updateProfileSettings', 400, nested.json());
    expect(nested.json()).toMatchObject({ code: 'invalid_request', field: 'settings.plan' });

    const topLevel = await patch({ settings: { locale: 'es' }, admin: true });
    expect(topLevel.statusCode).toBe(400);
    expect(topLevel.json()).toMatchObject({ code: 'invalid_request', field: 'admin' });

    // Nothing was applied.
    const reread = await t.app.inject({ url: '/api/profiles', headers: bearer(token) });
    expect(reread.json<ProfileBody>().data.attributes.locale).toBe('en');
  });

  it('refuses a location over 128 characters, a non-boolean flag, an empty settings object and a missing body', async () => {
    const cases: [unknown, string][] = [
      [{ settings: { location: 'x'.repeat(129) } }, 'settings.location'],
      [{ settings: { welcome_screen_watched: 'yes' } }, 'settings.welcome_screen_watched'],
      [{ settings: {} }, 'settings'],
      [{}, 'settings'],
    ];
    for (const [payload, field] of cases) {
      const response = await patch(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expectMatchesContract('updateProfileSettings', 400, response.json());
      expect(response.json()).toMatchObject({ code: 'invalid_request', field });
    }
  });

  it('a location of spaces only clears it', async () => {
    await patch({ settings: { location: 'Utrecht' } });
    const response = await patch({ settings: { location: '    ' } });
    expect(response.json<ProfileBody>().data.attributes.location).toBe('');
  });

  it('needs a bearer token', async () => {
    const response = await patch({ settings: { locale: 'fr' } }, {});
    expect(response.statusCode).toBe(401);
    expectMatchesContract('updateProfileSettings', 401, response.json());
  });
});
