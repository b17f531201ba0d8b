// /dev/outbox shows what would have been e-mailed, in demo mode only, to its signed-in recipient only, as
// text: markup in a message stays text, and only links to this server's own pages are clickable.
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_PASSWORD, type TestApp } from './helpers';
import { enqueueMail } from '../../server/mail/queue.ts';
import { keepTextMessage } from './mail-support.ts';

const RECIPIENT = 'new.person@example.test';

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

async function addMessage(
  app: TestApp,
  body: string,
  subject = 'You are invited to sign',
  at = new Date(),
  to = RECIPIENT,
): Promise<void> {
  await keepTextMessage(app.deps.db, { to, subject, body, at });
}

// The session cookie of the sign-in page, as the browser keeps it.
async function sessionOf(app: TestApp, email: string): Promise<string> {
  const response = await app.app.inject({
    method: 'POST',
    url: '/sign_in',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ email, password: TEST_PASSWORD, return_to: '/dev/outbox' }).toString(),
  });
  expect(response.statusCode).toBe(303);
  expect(response.headers.location).toBe('/dev/outbox');
  const cookie = response.cookies.find((entry) => entry.name === 'paraph_session');
  if (cookie === undefined) throw new Error('no session cookie');
  return cookie.value;
}

async function outboxAs(app: TestApp, email: string) {
  await app.createUser({ email });
  const session = await sessionOf(app, email);
  return app.app.inject({ method: 'GET', url: '/dev/outbox', cookies: { paraph_session: session } });
}

describe('/dev/outbox', () => {
  it('lists the messages newest first, escaped, linking only this server’s pages', async () => {
    t = await buildTestApp({ env: { PARAPH_DEMO: '1' } });
    await addMessage(t, 'First message', 'Older', new Date(Date.now() - 60_000));
    await addMessage(
      t,
      'Ada <img src=x onerror=alert(1)> invited you.\nCreate your account: /sign_up?invite=abc&x=1\nElsewhere: https://evil.example/phish',
      'Newer <b>bold</b>',
    );
    const page = await outboxAs(t, RECIPIENT);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).not.toContain('<img');
    expect(page.body).not.toContain('<b>');
    expect(page.body).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page.body).toContain('<a href="/sign_up?invite=abc&amp;x=1">/sign_up?invite=abc&amp;x=1</a>');
    expect(page.body).not.toContain('href="https://evil.example');
    expect(page.body.indexOf('Newer')).toBeLessThan(page.body.indexOf('Older'));
  });

  it("makes the identity app's absolute links clickable as this server's paths, whatever host they name", async () => {
    t = await buildTestApp({ env: { PARAPH_DEMO: '1' } });
    await addMessage(
      t,
      'Confirm: http://127.0.0.1:8080/idp/requests/1b2c\nOr: https://evil.example/idp/requests/1b2c',
      'Confirm your signature',
    );
    const page = await outboxAs(t, RECIPIENT);
    expect(page.body).toContain('<a href="/idp/requests/1b2c">http://127.0.0.1:8080/idp/requests/1b2c</a>');
    expect(page.body).toContain('<a href="/idp/requests/1b2c">https://evil.example/idp/requests/1b2c</a>');
    expect(page.body).not.toContain('href="http');
  });

  it('shows a queued message as its recipient would read it, its absolute links followed on this server', async () => {
    t = await buildTestApp({ env: { PARAPH_DEMO: '1' } });
    const documentId = '5f0c1f43-9a3e-4c55-8d0e-3f6f5b1c2d7e';
    await enqueueMail(
      t.deps.db,
      { email: RECIPIENT, fallbackLocale: 'fr' },
      {
        kind: 'flow.turn',
        role: 'reviewer',
        sender: { fullName: 'Ada <i>Lovelace</i>', email: 'ada@example.test' },
        filename: 'Bail.pdf',
        comment: '',
        target: { documentId, inviteId: null },
      },
      new Date(),
    );
    const page = await outboxAs(t, RECIPIENT);
    // The recipient has an account in English by now (outboxAs makes it), but the message was queued for
    // the address alone, in the sender's language.
    expect(page.body).toContain('C’est à vous de relire « Bail.pdf »');
    expect(page.body).toContain('Ada &lt;i&gt;Lovelace&lt;/i&gt;');
    expect(page.body).toContain(
      `<a href="/app/document/${documentId}">http://localhost:8080/app/document/${documentId}</a>`,
    );
  });

  it('does not exist outside demo mode', async () => {
    t = await buildTestApp({ env: { PARAPH_DEMO: '0' } });
    await addMessage(t, 'Secret link /sign_up?invite=abc');
    const page = await t.app.inject({ method: 'GET', url: '/dev/outbox' });
    expect(page.statusCode).toBe(404);
    expect(page.body).not.toContain('invite=abc');
  });
});
