// Redirect targets (return_to of the sign-in page, its hidden field, and log-out) are resolved first, as
// a browser resolves them, and only then judged: dot-segments cannot turn a path into another host.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { safeReturnTo } from '../../server/auth/return-to.ts';
import { buildTestApp, type TestApp, type TestUser } from './helpers.ts';

const FALLBACK = '/app/auth';

// Each leaves this origin once resolved (or is read as another host by some browser).
const OFF_SITE = [
  '/..//other.example/x',
  '/app/..//evil.example',
  '/app/../..//evil.example/x?y=1',
  '/.//evil.example',
  '/%2e%2e//evil',
  '/%2E%2E//evil',
  '/app/%2e%2e/%2e%2e//evil.example',
  '/.%2e//evil.example',
  '//evil.example',
  '/\\evil.example',
  '/app/..\\/evil.example',
  '/\t/evil.example',
  '/app/\n/../..//evil.example',
  '/\r\n//evil.example',
  'https://evil.example/',
  'javascript:alert(1)',
  '',
];

describe('safeReturnTo', () => {
  it.each(OFF_SITE)('falls back for %j', (value) => {
    expect(safeReturnTo(value, FALLBACK)).toBe(FALLBACK);
  });

  it.each([
    ['/app/auth?returnUrl=%2Fapp%2Fsettings', '/app/auth?returnUrl=%2Fapp%2Fsettings'],
    ['/app/documents/../settings', '/app/settings'],
    ['/app/./document/1#top', '/app/document/1#top'],
    ['/dev/outbox', '/dev/outbox'],
  ])('keeps the path of %j, resolved', (value, expected) => {
    expect(safeReturnTo(value, FALLBACK)).toBe(expected);
  });

  it('refuses what is not a string or is too long', () => {
    expect(safeReturnTo(['/app/auth'], FALLBACK)).toBe(FALLBACK);
    expect(safeReturnTo(`/app/${'a'.repeat(2100)}`, FALLBACK)).toBe(FALLBACK);
  });
});

describe('the redirects of sign-in and log-out', () => {
  let t: TestApp;
  let ada: TestUser;
  beforeEach(async () => {
    t = await buildTestApp();
    ada = await t.createUser({ email: 'ada@example.test' });
  });
  afterEach(async () => {
    await t.close();
  });

  it.each(['/..//other.example/x', '/app/..//evil.example', '/%2e%2e//evil'])(
    'keep %j off the form, the sign-in redirect and the log-out redirect',
    async (target) => {
      const form = await t.app.inject({ url: `/sign_in?return_to=${encodeURIComponent(target)}` });
      expect(form.statusCode).toBe(200);
      expect(form.body).toContain('<input type="hidden" name="return_to" value="/app/auth">');
      expect(form.body).not.toContain('evil');
      expect(form.body).not.toContain('other.example');

      const signIn = await t.app.inject({
        method: 'POST',
        url: '/sign_in',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          email: ada.email,
          password: ada.password,
          return_to: target,
        }).toString(),
      });
      expect(signIn.statusCode).toBe(303);
      expect(signIn.headers.location).toBe('/app/auth');

      const logOut = await t.app.inject({ url: `/api/log_out?return_to=${encodeURIComponent(target)}` });
      expect(logOut.statusCode).toBe(303);
      expect(logOut.headers.location).toBe('/app/login');
    },
  );

  it.each([
    ['over 2048 characters', `return_to=${encodeURIComponent(`/app/${'a'.repeat(3000)}`)}`, '/app/login'],
    ['repeated', 'return_to=%2Fapp%2Fsettings&return_to=%2Fapp%2Fdocuments', '/app/login'],
  ])('log out even when return_to is %s, and fall back to the default', async (_label, query, expected) => {
    const token = await t.signIn(ada.email, ada.password);
    const authorization = `Bearer ${token}`;
    const logOut = await t.app.inject({ url: `/api/log_out?${query}`, headers: { authorization } });
    expect(logOut.statusCode).toBe(303);
    expect(logOut.headers.location).toBe(expected);
    const profile = await t.app.inject({ url: '/api/profiles', headers: { authorization } });
    expect(profile.statusCode).toBe(401);
  });

  it('shows the sign-in form with the default return_to when return_to is too long or repeated', async () => {
    for (const query of [`return_to=/app/${'a'.repeat(3000)}`, 'return_to=/app/x&return_to=/app/y']) {
      const form = await t.app.inject({ url: `/sign_in?${query}` });
      expect(form.statusCode).toBe(200);
      expect(form.body).toContain('<input type="hidden" name="return_to" value="/app/auth">');
    }
  });
});
