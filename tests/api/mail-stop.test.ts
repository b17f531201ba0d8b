// The mail sender at shutdown: it claims nothing more, lets a send in progress finish within its grace,
// and gives up one that outlasts it, handing the message back to the queue as it was, due at once.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { enqueueMail } from '../../server/mail/queue.ts';
import { startMailSender, type MailTransport, type OutgoingMail } from '../../server/mail/sender.ts';
import { buildTestApp, type TestApp } from './helpers.ts';

const NOW = new Date('2026-11-02T09:00:00.000Z');
let t: TestApp;

afterEach(async () => {
  await t.close();
});

async function enqueue(to: string): Promise<void> {
  await enqueueMail(
    t.deps.db,
    { email: to, locale: 'en', fallbackLocale: 'en' },
    { kind: 'text', subject: 'Hello', body: 'Hello' },
    NOW,
  );
}

function row(to: string) {
  return t.deps.db.selectFrom('mail_queue').selectAll().where('to_email', '=', to).executeTakeFirstOrThrow();
}

/** A transport whose sends wait until the test lets them go; `started` resolves with each send begun. */
function heldTransport() {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const begun: OutgoingMail[] = [];
  let onBegun: () => void = () => undefined;
  const started = new Promise<void>((resolve) => {
    onBegun = resolve;
  });
  const transport = {
    async send(mail: OutgoingMail) {
      begun.push(mail);
      onBegun();
      await held;
    },
    async verify() {},
    close: vi.fn<() => void>(),
  } satisfies MailTransport;
  return { transport, begun, started, release };
}

describe('stopping the mail sender', () => {
  it('gives up a send that outlasts the grace: its message is queued again, due now, the try not counted', async () => {
    t = await buildTestApp({ clock: () => NOW });
    await enqueue('slow@example.test');
    const { transport, started } = heldTransport();
    const sender = startMailSender(t.deps, { intervalMs: 60_000, transport, stopGraceMs: 50 });
    await started;
    expect(await row('slow@example.test')).toMatchObject({ state: 'sending', attempts: 1 });

    await sender.stop();

    expect(await row('slow@example.test')).toMatchObject({
      state: 'queued',
      attempts: 0,
      locked_until: null,
      run_after: NOW.toISOString(),
      sent_at: null,
    });
    expect(transport.close).toHaveBeenCalledTimes(1);
    expect(t.logs()).toContain('a message being sent at shutdown went back to the queue');
  });

  it('lets a send finish within the grace, and claims no other message once stopping', async () => {
    t = await buildTestApp({ clock: () => NOW });
    await enqueue('first@example.test');
    await enqueue('second@example.test');
    const { transport, begun, started, release } = heldTransport();
    const sender = startMailSender(t.deps, { intervalMs: 60_000, transport, stopGraceMs: 30_000 });
    await started;

    const stopped = sender.stop();
    release();
    await stopped;

    expect(begun.map((mail) => mail.to)).toEqual(['first@example.test']);
    expect(await row('first@example.test')).toMatchObject({ state: 'sent', attempts: 1 });
    expect(await row('second@example.test')).toMatchObject({
      state: 'queued',
      attempts: 0,
      locked_until: null,
    });
  });
});
