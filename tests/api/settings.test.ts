// PATCH /profiles/update_settings as the settings screen uses it (spec 001 §2, §7): each field alone,
// the location's limits, and that only the caller's profile changes. profiles.test.ts covers the
// malformed bodies.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/schema';
import { bearer, buildTestApp, expectMatchesContract, type TestApp, type TestUser } from './helpers.ts';

type ProfileBody = components['schemas']['ProfileResponse'];
type Attributes = ProfileBody['data']['attributes'];

describe('settings', () => {
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

  async function save(settings: Record<string, unknown>, tokenOf = token) {
    const response = await t.app.inject({
      method: 'PATCH',
      url: '/api/profiles/update_settings',
      headers: bearer(tokenOf),
      payload: { settings },
    });
    expectMatchesContract('updateProfileSettings', response.statusCode, response.json());
    return response;
  }

  async function stored(tokenOf = token): Promise<Attributes> {
    const response = await t.app.inject({ url: '/api/profiles', headers: bearer(tokenOf) });
    return response.json<ProfileBody>().data.attributes;
  }

  it('answers { data: profile } and changes only the field sent', async () => {
    await save({ location: 'Leiden', locale: 'es' });

    const locale = await save({ locale: 'fr' });
    expect(locale.statusCode).toBe(200);
    expect(locale.json<ProfileBody>().data).toMatchObject({
      id: ada.id,
      type: 'profiles',
      attributes: { locale: 'fr', location: 'Leiden', welcomeScreenWatched: false },
    });

    const location = await save({ location: 'Den Haag' });
    expect(location.json<ProfileBody>().data.attributes).toMatchObject({
      locale: 'fr',
      location: 'Den Haag',
    });

    const welcome = await save({ welcome_screen_watched: true });
    expect(welcome.json<ProfileBody>().data.attributes).toMatchObject({
      locale: 'fr',
      location: 'Den Haag',
      welcomeScreenWatched: true,
    });
    expect(await stored()).toMatchObject({ locale: 'fr', location: 'Den Haag', welcomeScreenWatched: true });
  });

  it('keeps a location of exactly 128 characters and clears it with an empty string', async () => {
    const longest = 'L'.repeat(128);
    const kept = await save({ location: longest });
    expect(kept.statusCode).toBe(200);
    expect((await stored()).location).toBe(longest);

    const cleared = await save({ location: '' });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json<ProfileBody>().data.attributes.location).toBe('');
    expect((await stored()).location).toBe('');
  });

  it('refuses 129 characters, and counts what is sent (the app trims before sending)', async () => {
    await save({ location: 'Utrecht' });
    for (const location of ['x'.repeat(129), ` ${'x'.repeat(128)} `]) {
      const response = await save({ location });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'invalid_request', field: 'settings.location' });
    }
    expect((await stored()).location).toBe('Utrecht');
  });

  it('refuses a locale the app does not offer and keeps the stored one', async () => {
    for (const locale of ['de', 'EN', '', 'en-GB']) {
      const response = await save({ locale });
      expect(response.statusCode, locale).toBe(400);
      expect(response.json()).toMatchObject({ code: 'invalid_request', field: 'settings.locale' });
    }
    expect((await stored()).locale).toBe('en');
  });

  it('changes the caller’s profile only', async () => {
    const bob = await t.createUser({ email: 'bob@example.test', fullName: 'Bob Baker', locale: 'es' });
    const bobToken = await t.signIn(bob.email);
    await save({ locale: 'fr', location: 'Lyon' });
    expect(await stored(bobToken)).toMatchObject({ locale: 'es', location: '' });
  });

  it('needs a bearer token', async () => {
    const response = await t.app.inject({
      method: 'PATCH',
      url: '/api/profiles/update_settings',
      payload: { settings: { locale: 'fr' } },
    });
    expect(response.statusCode).toBe(401);
    expectMatchesContract('updateProfileSettings', 401, response.json());
    expect((await stored()).locale).toBe('en');
  });
});
