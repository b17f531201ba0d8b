import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SIGN_IN_MAX_FAILURES_PER_ADDRESS } from '../../server/auth/rate-limit.ts';
import { buildTestApp, expectMatchesContract, type TestApp, type TestUser } from './helpers.ts';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

describe('the sign-in page', () => {
  let t: TestApp;
  let ada: TestUser;
  let now: Date;

  beforeEach(async () => {
    now = new Date('2030-01-01T10:00:00.000Z');
    t = await buildTestApp({ clock: () => now });
    ada = await t.createUser({ email: 'ada@example.test', fullName: 'Ada Lovelace' });
  });
  afterEach(async () => {
    await t.close();
  });

  function postSignIn(
    fields: Record<string, string>,
    options: { remoteAddress?: string; headers?: Record<string, string> } = {},
  ) {
    return t.app.inject({
      method: 'POST',
      url: '/sign_in',
      headers: { ...FORM, ...options.headers },
      ...(options.remoteAddress === undefined ? {} : { remoteAddress: options.remoteAddress }),
      payload: form(fields),
    });
  }

  it('shows a form with E-mail, Password, a Sign in button, the product name and a hidden return_to', async () => {
    const response = await t.app.inject({
      url: '/sign_in?return_to=%2Fapp%2Fauth%3FreturnUrl%3D%2Fapp%2Fsettings',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expectMatchesContract('signInPage', 200, response.body);
    const html = response.body;
    expect(html).toMatch(/<label for="email">E-mail<\/label>/);
    expect(html).toMatch(/<input id="email" name="email"/);
    expect(html).toMatch(/<label for="password">Password<\/label>/);
    expect(html).toMatch(/<input id="password" name="password" type="password"/);
    expect(html).toMatch(/<button type="submit">Sign in<\/button>/);
    expect(html).toContain('<h1>Paraph</h1>');
    expect(html).toContain('<form method="post" action="/sign_in"');
    expect(html).toContain('href="/app/login"');
    expect(html).toContain(
      '<input type="hidden" name="return_to" value="/app/auth?returnUrl=/app/settings">',
    );
    expect(html).not.toContain('<script');
  });

  it('escapes what it echoes and replaces a foreign return_to by /app/auth', async () => {
    const response = await t.app.inject({
      url: `/sign_in?return_to=${encodeURIComponent('https://evil.example/"><script>')}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('name="return_to" value="/app/auth"');
    expect(response.body).not.toContain('evil.example');

    const typed = '"><img src=x onerror=alert(1)>@example.test';
    const wrong = await postSignIn({ email: typed, password: 'nope' });
    expect(wrong.body).not.toContain('<img src=x');
    expect(wrong.body).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;@example.test');
  });

  it('signs in: sets an httpOnly SameSite=Lax session cookie and redirects (303) to return_to', async () => {
    const response = await postSignIn({
      email: '  ADA@example.test ',
      password: ada.password,
      return_to: '/app/auth?returnUrl=%2Fapp%2Fdocuments',
    });
    expect(response.statusCode).toBe(303);
    expectMatchesContract('signIn', 303, undefined);
    expect(response.headers.location).toBe('/app/auth?returnUrl=%2Fapp%2Fdocuments');
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/^paraph_session=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    expect(setCookie).toContain('Path=/');
    expect(setCookie).not.toContain('Secure');
  });

  it('marks the cookie Secure when the public origin is https, whatever the request says', async () => {
    // Over http, even when a proxy says https: the origin people open is http.
    await t.close();
    t = await buildTestApp({ clock: () => now, env: { PARAPH_TRUST_PROXY: '127.0.0.1' } });
    const plain = await t.createUser();
    const overHttp = await postSignIn(
      { email: plain.email, password: plain.password },
      { headers: { 'x-forwarded-proto': 'https' } },
    );
    expect(overHttp.statusCode).toBe(303);
    expect(String(overHttp.headers['set-cookie'])).not.toContain('Secure');

    // A TLS-terminating proxy forwards plain http: the cookie is Secure all the same.
    await t.close();
    t = await buildTestApp({ clock: () => now, env: { PARAPH_PUBLIC_ORIGIN: 'https://sign.example.test' } });
    const user = await t.createUser();
    const response = await postSignIn({ email: user.email, password: user.password });
    expect(response.statusCode).toBe(303);
    expect(String(response.headers['set-cookie'])).toContain('Secure');
  });

  it('re-shows the form with the e-mail kept after a wrong password, and sets no cookie', async () => {
    const response = await postSignIn({
      email: 'ada@example.test',
      password: 'wrong password',
      return_to: '/app/auth',
    });
    expect(response.statusCode).toBe(401);
    expectMatchesContract('signIn', 401, response.body);
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(response.body).toContain('Wrong e-mail or password.');
    expect(response.body).toContain('value="ada@example.test"');
    expect(response.body).toContain('name="return_to" value="/app/auth"');
  });

  it('answers an unknown e-mail exactly like a wrong password', async () => {
    const response = await postSignIn({ email: 'nobody@example.test', password: 'whatever' });
    expect(response.statusCode).toBe(401);
    expect(response.body).toContain('Wrong e-mail or password.');
  });

  it.each([
    ['https://evil.example/steal', 'an absolute URL'],
    ['//evil.example/steal', 'a protocol-relative URL'],
    ['/\\evil.example', 'a backslash trick'],
    ['javascript:alert(1)', 'a javascript: URL'],
    ['app/auth', 'a relative path'],
    ['/app/auth\r\nSet-Cookie: x=1', 'a header injection'],
  ])('refuses an open redirect to %s (%s) and goes to /app/auth', async (returnTo) => {
    const response = await postSignIn({ email: ada.email, password: ada.password, return_to: returnTo });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/app/auth');
  });

  it('limits failures per account and address: the 11th attempt within 15 minutes is 429 with Retry-After, even with the right password', async () => {
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      const response = await postSignIn(
        { email: ada.email, password: `wrong-${attempt}` },
        { remoteAddress: '10.0.0.1' },
      );
      expect(response.statusCode).toBe(401);
    }
    now = new Date(now.getTime() + 60_000);
    const limited = await postSignIn(
      { email: ada.email, password: ada.password },
      { remoteAddress: '10.0.0.1' },
    );
    expect(limited.statusCode).toBe(429);
    expectMatchesContract('signIn', 429, limited.body);
    expect(limited.headers['set-cookie']).toBeUndefined();
    // The first failure was a minute ago: 14 minutes remain.
    expect(limited.headers['retry-after']).toBe(String(14 * 60));
    expect(limited.body).toContain('Too many sign-in attempts');

    // Once the window has passed, the right password works again.
    now = new Date(now.getTime() + 15 * 60_000);
    const later = await postSignIn(
      { email: ada.email, password: ada.password },
      { remoteAddress: '10.0.0.1' },
    );
    expect(later.statusCode).toBe(303);
  });

  it('limits failures per IP address across e-mails, from 50 on', async () => {
    for (let attempt = 1; attempt <= SIGN_IN_MAX_FAILURES_PER_ADDRESS; attempt += 1) {
      await postSignIn(
        { email: `guess-${attempt}@example.test`, password: 'x' },
        { remoteAddress: '192.0.2.7' },
      );
    }
    const limited = await postSignIn(
      { email: ada.email, password: ada.password },
      { remoteAddress: '192.0.2.7' },
    );
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    const elsewhere = await postSignIn(
      { email: ada.email, password: ada.password },
      { remoteAddress: '192.0.2.8' },
    );
    expect(elsewhere.statusCode).toBe(303);
  });
});
