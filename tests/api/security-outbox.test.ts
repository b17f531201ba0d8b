// /dev/outbox is a mailbox, not a log: in demo mode it shows a signed-in person the messages addressed
// to them, and sends anyone else to sign in. It never answers a stranger with someone's sign-up link.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_PASSWORD, type TestApp } from './helpers.ts';
import { keepTextMessage } from './mail-support.ts';

describe('/dev/outbox access', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await buildTestApp({ env: { PARAPH_DEMO: '1' } });
    for (const [to, body] of [
      ['Dave.New@Example.test', 'Create your account: /sign_up?invite=dave-secret'],
      ['ada@example.test', 'It is your turn: /app/document/ada-doc'],
      ['bob@example.test', 'Confirm: http://localhost:8080/idp/requests/bob-secret'],
    ] as const) {
      await keepTextMessage(t.deps.db, { to, subject: `For ${to}`, body });
    }
  });
  afterEach(async () => {
    await t.close();
  });

  async function sessionOf(email: string): Promise<string> {
    await t.createUser({ email });
    const response = await t.app.inject({
      method: 'POST',
      url: '/sign_in',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ email, password: TEST_PASSWORD }).toString(),
    });
    const cookie = response.cookies.find((entry) => entry.name === 'paraph_session');
    if (cookie === undefined) throw new Error(`no session for ${email}`);
    return cookie.value;
  }

  it.each([
    ['no session', undefined],
    ['a made-up session', 'x'.repeat(43)],
  ])('sends %s to sign in, showing nothing', async (_name, cookie) => {
    const page = await t.app.inject({
      method: 'GET',
      url: '/dev/outbox',
      ...(cookie === undefined ? {} : { cookies: { paraph_session: cookie } }),
    });
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe('/sign_in?return_to=/dev/outbox');
    expect(page.body).not.toContain('secret');
  });

  it('sends a revoked session (after log-out) to sign in', async () => {
    const session = await sessionOf('ada@example.test');
    await t.app.inject({ method: 'GET', url: '/api/log_out', cookies: { paraph_session: session } });
    const page = await t.app.inject({
      method: 'GET',
      url: '/dev/outbox',
      cookies: { paraph_session: session },
    });
    expect(page.statusCode).toBe(303);
  });

  it("shows a signed-in person only their own messages, whatever the address's case", async () => {
    const dave = await t.app.inject({
      method: 'GET',
      url: '/dev/outbox',
      cookies: { paraph_session: await sessionOf('dave.new@example.test') },
    });
    expect(dave.statusCode).toBe(200);
    expect(dave.body).toContain('/sign_up?invite=dave-secret');
    expect(dave.body).not.toContain('ada-doc');
    expect(dave.body).not.toContain('bob-secret');

    const ada = await t.app.inject({
      method: 'GET',
      url: '/dev/outbox',
      cookies: { paraph_session: await sessionOf('ada@example.test') },
    });
    expect(ada.statusCode).toBe(200);
    expect(ada.body).toContain('ada-doc');
    expect(ada.body).not.toContain('dave-secret');
    expect(ada.body).not.toContain('bob-secret');
  });

  it('brings the person back to the outbox after signing in', async () => {
    const form = await t.app.inject({ method: 'GET', url: '/sign_in?return_to=/dev/outbox' });
    expect(form.body).toContain('name="return_to" value="/dev/outbox"');
  });
});
