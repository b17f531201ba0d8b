// /dev/outbox shows what would have been e-mailed, in demo mode only, as text: markup in a message stays
// text, and only links to this server's own pages are clickable.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers';

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
): Promise<void> {
  await app.deps.db
    .insertInto('outbox')
    .values({
      id: randomUUID(),
      to_email: 'new.person@example.test',
      subject,
      body,
      created_at: at.toISOString(),
    })
    .execute();
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
    const page = await t.app.inject({ method: 'GET', url: '/dev/outbox' });
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
    const page = await t.app.inject({ method: 'GET', url: '/dev/outbox' });
    expect(page.body).toContain('<a href="/idp/requests/1b2c">http://127.0.0.1:8080/idp/requests/1b2c</a>');
    expect(page.body).toContain('<a href="/idp/requests/1b2c">https://evil.example/idp/requests/1b2c</a>');
    expect(page.body).not.toContain('href="http');
  });

  it('does not exist outside demo mode', async () => {
    t = await buildTestApp({ env: { PARAPH_DEMO: '0' } });
    await addMessage(t, 'Secret link /sign_up?invite=abc');
    const page = await t.app.inject({ method: 'GET', url: '/dev/outbox' });
    expect(page.statusCode).toBe(404);
    expect(page.body).not.toContain('invite=abc');
  });
});
