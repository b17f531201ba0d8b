// Real e-mail: what each change of a sign flow, a connection request and a signature says, to whom, in
// which language, with which links, sent over SMTP to a real server in this process; the queue's retries,
// its single send with two runners, the reminders, and the escaping of user text in the HTML.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { confirmDocumentVersion } from '../../server/documents/signing-confirm.ts';
import { runReminders } from '../../server/mail/reminders.ts';
import {
  MAX_MAIL_ATTEMPTS,
  runMailQueue,
  smtpTransport,
  startMailSender,
  type MailTransport,
} from '../../server/mail/sender.ts';
import { bearer, buildTestApp, makeFakeAppDir, type TestApp, type TestUser } from './helpers.ts';
import { queuedMessages } from './mail-support.ts';
import { cardFor, requestSignature, storedDocument } from './signing-support.ts';
import { startTestSmtpServer, type ReceivedMail, type TestSmtpServer } from './smtp-server.ts';

const ORIGIN = 'https://sign.example.test';
const FROM = 'Paraph <no-reply@sign.example.test>';
const DAY = 24 * 60 * 60 * 1000;

let smtp: TestSmtpServer;
let t: TestApp;
let now: Date;
let transport: MailTransport;
let ada: TestUser;
let bob: TestUser;
let carol: TestUser;
let adaToken: string;
let bobToken: string;
let carolToken: string;

async function start(options: { refuseFirst?: number; env?: Record<string, string> } = {}) {
  smtp = await startTestSmtpServer({ refuseFirst: options.refuseFirst ?? 0 });
  now = new Date('2026-11-02T09:00:00.000Z');
  t = await buildTestApp({
    appDir: await makeFakeAppDir(),
    clock: () => now,
    env: { SMTP_URL: smtp.url, PARAPH_PUBLIC_ORIGIN: ORIGIN, PARAPH_MAIL_FROM: FROM, ...options.env },
  });
  transport = smtpTransport(smtp.url);
  ada = await t.createUser({ email: 'ada@example.test', fullName: 'Ada Lovelace', locale: 'en' });
  bob = await t.createUser({ email: 'bob@example.test', fullName: 'Bob Baker', locale: 'es' });
  carol = await t.createUser({ email: 'carol@example.test', fullName: 'Carol Chen', locale: 'fr' });
  [adaToken, bobToken, carolToken] = await Promise.all([
    t.signIn(ada.email),
    t.signIn(bob.email),
    t.signIn(carol.email),
  ]);
}

afterEach(async () => {
  transport.close();
  await t.close();
  await smtp.close();
});

/** Sends what is due, and answers what reached the SMTP server in this round. */
async function deliver(): Promise<ReceivedMail[]> {
  const before = smtp.received.length;
  await runMailQueue(t.deps, transport);
  return smtp.received.slice(before);
}

function to(mails: readonly ReceivedMail[], email: string): ReceivedMail {
  const found = mails.filter((entry) => entry.envelopeTo.includes(email));
  expect(found, `one message to ${email}`).toHaveLength(1);
  return found[0] as ReceivedMail;
}

function linksOf(mail: ReceivedMail): string[] {
  return [...(mail.mail.text ?? '').matchAll(/https?:\/\/\S+/g)].map((match) => match[0]);
}

/** Every link is absolute on the public origin, carries no token, and its page answers (or asks for sign-in). */
async function expectLinksOpen(mail: ReceivedMail, expectedPaths: string[]): Promise<void> {
  const links = linksOf(mail);
  expect(links.map((link) => new URL(link).origin)).toEqual(links.map(() => ORIGIN));
  expect(links.map((link) => `${new URL(link).pathname}${new URL(link).search}`)).toEqual(expectedPaths);
  for (const link of links) {
    expect(link).not.toMatch(/token|session/i);
    const url = new URL(link);
    const page = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect([200, 303], `${link} answers`).toContain(page.statusCode);
  }
  // The HTML offers the same links, and nothing else.
  const hrefs = [
    ...(typeof mail.mail.html === 'string' ? mail.mail.html : '').matchAll(/href="([^"]+)"/g),
  ].map((match) => match[1]?.replaceAll('&amp;', '&'));
  expect(new Set(hrefs)).toEqual(new Set(links));
}

function startFlow(documentId: string, body: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: `/api/documents/${documentId}/sign_flow`,
    headers: bearer(adaToken),
    payload: { sign_flow: body },
  });
}

function act(action: string, documentId: string, token: string, payload?: object) {
  return t.app.inject({
    method: 'PATCH',
    url: `/api/documents/${documentId}/${action}`,
    headers: bearer(token),
    ...(payload === undefined ? {} : { payload }),
  });
}

describe('mail over SMTP', () => {
  beforeEach(async () => {
    await start();
  });

  it('invites, tells whose turn it is and who refused, each in their own language, with absolute links', async () => {
    const { id } = await storedDocument(t.deps, { ownerId: ada.id, originalFilename: 'Lease.pdf' });
    const started = await startFlow(id, {
      type: 'standard',
      comment: 'Please review by Friday.',
      reviewer_email_addresses: [carol.email],
      signatory_email_addresses: [bob.email, 'dave@example.test'],
    });
    expect(started.statusCode, started.body).toBe(201);

    // Carol reviews first (French); Dave has no account and is invited in Ada's language; Bob waits.
    const first = await deliver();
    expect(first.flatMap((entry) => entry.envelopeTo).sort()).toEqual([carol.email, 'dave@example.test']);
    const invite = await t.deps.db.selectFrom('invites').select('id').executeTakeFirstOrThrow();
    const invitation = to(first, 'dave@example.test');
    expect(invitation.mail.subject).toBe('Ada Lovelace invites you to sign “Lease.pdf” on Paraph');
    expect(invitation.mail.from?.value).toEqual([{ name: 'Paraph', address: 'no-reply@sign.example.test' }]);
    expect(invitation.mail.replyTo?.text).toBe(ada.email);
    expect(invitation.mail.text).toContain('Please review by Friday.');
    await expectLinksOpen(invitation, [
      `/sign_up?invite=${invite.id}`,
      `/app/signflowmember/invite/${invite.id}`,
    ]);
    const review = to(first, carol.email);
    expect(review.mail.subject).toBe('C’est à vous de relire « Lease.pdf »');
    expect(typeof review.mail.html === 'string' && review.mail.html).toContain('<html lang="fr">');
    await expectLinksOpen(review, [`/app/document/${id}`]);

    // Carol approves: Bob's turn (Spanish), and Dave's (through his invitation, no account yet).
    expect((await act('approve', id, carolToken)).statusCode).toBe(200);
    const second = await deliver();
    expect(second.flatMap((entry) => entry.envelopeTo).sort()).toEqual([bob.email, 'dave@example.test']);
    expect(to(second, bob.email).mail.subject).toBe('Le toca firmar «Lease.pdf»');
    await expectLinksOpen(to(second, bob.email), [`/app/document/${id}`]);
    await expectLinksOpen(to(second, 'dave@example.test'), [`/app/signflowmember/invite/${invite.id}`]);

    // Bob refuses: the owner, the reviewer and the invited signatory hear why; Bob, who did it, does not.
    const refused = await act('refuse_sign_flow', id, bobToken, { reason: 'The rent is wrong.' });
    expect(refused.statusCode, refused.body).toBe(200);
    const third = await deliver();
    expect(third.flatMap((entry) => entry.envelopeTo).sort()).toEqual([
      ada.email,
      carol.email,
      'dave@example.test',
    ]);
    const toAda = to(third, ada.email);
    expect(toAda.mail.subject).toBe('Bob Baker refused to sign “Lease.pdf”');
    expect(toAda.mail.text).toContain('The rent is wrong.');
    await expectLinksOpen(toAda, [`/app/document/${id}`]);
    expect(to(third, carol.email).mail.subject).toBe('Bob Baker a refusé de signer « Lease.pdf »');

    // Everything went out once; nothing is left to send.
    expect(await deliver()).toEqual([]);
    expect((await queuedMessages(t.deps.db)).every((message) => message.state === 'sent')).toBe(true);
  });

  it('tells the owner and the waiting signatory when a reviewer rejects, not the reviewer', async () => {
    const { id } = await storedDocument(t.deps, { ownerId: ada.id, originalFilename: 'Quote.pdf' });
    const started = await startFlow(id, {
      type: 'ordered',
      reviewer_email_addresses: [carol.email],
      signatory_email_addresses: [bob.email],
    });
    expect(started.statusCode, started.body).toBe(201);
    expect((await deliver()).flatMap((entry) => entry.envelopeTo)).toEqual([carol.email]);
    expect((await act('reject', id, carolToken)).statusCode).toBe(200);
    const news = await deliver();
    // Bob was still waiting and never heard of the flow: only Ada is told.
    expect(news.flatMap((entry) => entry.envelopeTo)).toEqual([ada.email]);
    expect(to(news, ada.email).mail.subject).toBe('Carol Chen rejected “Quote.pdf”');
    await expectLinksOpen(to(news, ada.email), [`/app/document/${id}`]);
  });

  it('tells everyone when a document is signed, with the page where the signed PDF downloads', async () => {
    const { id } = await storedDocument(t.deps, { ownerId: ada.id, originalFilename: 'Contract.pdf' });
    expect(
      (await startFlow(id, { type: 'standard', signatory_email_addresses: [bob.email, carol.email] }))
        .statusCode,
    ).toBe(201);
    await deliver();
    const input = (versionId: string, user: TestUser) => ({
      versionId,
      userId: user.id,
      ip: null,
      userAgent: null,
    });

    const bobVersion = await requestSignature(t, bobToken, id, {
      smart_card_id: await cardFor(t.deps, bob.id),
      location: 'Madrid',
    });
    // The identity app's request, in Bob's language, with its absolute /idp/ link.
    const confirmation = to(await deliver(), bob.email);
    expect(confirmation.mail.subject).toBe('Confirme su firma en «Contract.pdf»');
    expect(confirmation.mail.text).toContain('nivel personal 3, Madrid');
    await expectLinksOpen(confirmation, [`/idp/requests/${bobVersion}`]);
    expect(await confirmDocumentVersion(t.deps, input(bobVersion, bob))).toEqual({ outcome: 'signed' });
    expect(await deliver()).toEqual([]);

    const carolVersion = await requestSignature(t, carolToken, id, {
      smart_card_id: await cardFor(t.deps, carol.id),
      location: 'Lyon',
    });
    await deliver();
    expect(await confirmDocumentVersion(t.deps, input(carolVersion, carol))).toEqual({ outcome: 'signed' });
    const done = await deliver();
    expect(done.flatMap((entry) => entry.envelopeTo).sort()).toEqual([ada.email, bob.email, carol.email]);
    expect(to(done, ada.email).mail.subject).toBe('“Contract.pdf” is signed');
    expect(to(done, bob.email).mail.subject).toBe('«Contract.pdf» está firmado');
    expect(to(done, carol.email).mail.subject).toBe('« Contract.pdf » est signé');
    for (const mail of done) await expectLinksOpen(mail, [`/app/document/${id}`]);
  });

  it('asks to connect: a profile at its own address, a newcomer at the address given', async () => {
    const ask = (body: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/connection_requests',
        headers: bearer(adaToken),
        payload: { connection_request: body },
      });
    expect((await ask({ to: bob.id })).statusCode).toBe(201);
    expect((await ask({ invitation_email_address: 'erin@example.test' })).statusCode).toBe(201);
    const mails = await deliver();
    const request = to(mails, bob.email);
    expect(request.mail.subject).toBe('Ada Lovelace quiere conectar con usted en Paraph');
    await expectLinksOpen(request, ['/app/connections']);
    const invitation = to(mails, 'erin@example.test');
    expect(invitation.mail.subject).toBe('Ada Lovelace would like to connect with you on Paraph');
    expect(invitation.mail.text).toContain('(erin@example.test)');
    await expectLinksOpen(invitation, ['/app/login']);
  });

  it('escapes markup in a name in the HTML and keeps it as written in the text', async () => {
    const eve = await t.createUser({
      email: 'eve@example.test',
      fullName: '<b>Eve</b> & "Co" <img src=x onerror=alert(1)>',
    });
    const eveToken = await t.signIn(eve.email);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/connection_requests',
      headers: bearer(eveToken),
      payload: { connection_request: { to: ada.id } },
    });
    expect(response.statusCode).toBe(201);
    const mail = to(await deliver(), ada.email);
    const html = typeof mail.mail.html === 'string' ? mail.mail.html : '';
    expect(html).toContain('&lt;b&gt;Eve&lt;/b&gt; &amp; &quot;Co&quot; &lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<b>Eve');
    expect(html).not.toContain('<img');
    expect(mail.mail.subject).toBe(
      '<b>Eve</b> & "Co" <img src=x onerror=alert(1)> would like to connect with you on Paraph',
    );
    expect(mail.mail.text).toContain('<b>Eve</b> & "Co"');
  });

  it('sends each message once with two job runners at the same time', async () => {
    for (let index = 0; index < 12; index += 1) {
      const someone = await t.createUser({ email: `person${index}@example.test` });
      const token = await t.signIn(someone.email);
      await t.app.inject({
        method: 'POST',
        url: '/api/connection_requests',
        headers: bearer(token),
        payload: { connection_request: { to: ada.id } },
      });
    }
    const other = smtpTransport(smtp.url);
    try {
      const [first, second] = await Promise.all([
        runMailQueue(t.deps, transport),
        runMailQueue(t.deps, other),
      ]);
      expect(first + second).toBe(12);
    } finally {
      other.close();
    }
    expect(smtp.received).toHaveLength(12);
    const senders = smtp.received.map((entry) => entry.mail.replyTo?.text).sort();
    expect(new Set(senders).size).toBe(12);
  });

  it('keeps messages for /dev/outbox when no SMTP server is set', async () => {
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/connection_requests',
          headers: bearer(adaToken),
          payload: { connection_request: { to: bob.id } },
        })
      ).statusCode,
    ).toBe(201);
    expect(await runMailQueue(t.deps, null)).toBe(1);
    expect(smtp.received).toEqual([]);
    expect((await queuedMessages(t.deps.db)).map((message) => message.state)).toEqual(['kept']);
    // Kept is final: a later round with a server does not send it.
    expect(await deliver()).toEqual([]);
  });
});

describe('mail retries', () => {
  it('tries again after a refusal, later, and then sends once', async () => {
    await start({ refuseFirst: 1 });
    await t.app.inject({
      method: 'POST',
      url: '/api/connection_requests',
      headers: bearer(adaToken),
      payload: { connection_request: { to: bob.id } },
    });
    expect(await deliver()).toEqual([]);
    expect(smtp.refusals).toBe(1);
    const [waiting] = await t.deps.db.selectFrom('mail_queue').selectAll().execute();
    expect(waiting).toMatchObject({ state: 'queued', attempts: 1 });
    expect(waiting?.last_error).toContain('451');
    expect(Date.parse(waiting?.run_after ?? '')).toBeGreaterThan(now.getTime());
    // Not before its time.
    expect(await deliver()).toEqual([]);
    now = new Date(Date.parse(waiting?.run_after ?? ''));
    const sent = await deliver();
    expect(sent.flatMap((entry) => entry.envelopeTo)).toEqual([bob.email]);
    expect(await t.deps.db.selectFrom('mail_queue').select(['state', 'attempts']).execute()).toEqual([
      { state: 'sent', attempts: 2 },
    ]);
    expect(t.logs()).toContain('a message was not sent; it will be tried again');
    expect(t.logs()).not.toContain(smtp.url.split('@')[0]?.split(':')[2] ?? 'never');
  });

  it('takes over a message whose runner died once its claim expires, and sends it', async () => {
    await start();
    await t.app.inject({
      method: 'POST',
      url: '/api/connection_requests',
      headers: bearer(adaToken),
      payload: { connection_request: { to: bob.id } },
    });
    // Claimed by a runner that stopped mid-send (a crash): the lock says for how long it is theirs.
    await t.deps.db
      .updateTable('mail_queue')
      .set({ state: 'sending', attempts: 1, locked_until: new Date(now.getTime() + 60_000).toISOString() })
      .execute();
    expect(await deliver()).toEqual([]);
    now = new Date(now.getTime() + 61_000);
    expect((await deliver()).flatMap((entry) => entry.envelopeTo)).toEqual([bob.email]);
  });

  it('marks a message that keeps failing as failed, and logs it at error level', async () => {
    await start({ refuseFirst: 1000 });
    await t.app.inject({
      method: 'POST',
      url: '/api/connection_requests',
      headers: bearer(adaToken),
      payload: { connection_request: { to: bob.id } },
    });
    for (let attempt = 1; attempt <= MAX_MAIL_ATTEMPTS; attempt += 1) {
      await deliver();
      now = new Date(now.getTime() + 5 * 60 * 60 * 1000);
    }
    expect(smtp.refusals).toBe(MAX_MAIL_ATTEMPTS);
    expect(await t.deps.db.selectFrom('mail_queue').select(['state', 'attempts']).execute()).toEqual([
      { state: 'failed', attempts: MAX_MAIL_ATTEMPTS },
    ]);
    const failure = t
      .logs()
      .split('\n')
      .filter((line) => line.includes('will not be tried again'))
      .map((line) => JSON.parse(line) as { level: number; to: string });
    expect(failure).toEqual([expect.objectContaining({ level: 50, to: bob.email })]);
    // Failed is final.
    await deliver();
    expect(smtp.refusals).toBe(MAX_MAIL_ATTEMPTS);
  });
});

describe('the sender job', () => {
  it('says at start, at error level, that the SMTP server refuses its credentials, and keeps the messages', async () => {
    await start();
    const wrong = smtp.url.replace(/:[^:@]+@/, ':not-the-password@');
    const sender = startMailSender(t.deps, { intervalMs: 60_000, transport: smtpTransport(wrong) });
    try {
      await vi.waitFor(() => expect(t.logs()).toContain('the SMTP server cannot be used'), {
        timeout: 10_000,
      });
      const line = t
        .logs()
        .split('\n')
        .find((entry) => entry.includes('the SMTP server cannot be used'));
      expect(JSON.parse(line ?? '{}')).toMatchObject({ level: 50 });
      expect(t.logs()).not.toContain('not-the-password');
    } finally {
      await sender.stop();
    }
  });
});

describe('reminders', () => {
  async function flowWaitingForBob(): Promise<string> {
    const { id } = await storedDocument(t.deps, { ownerId: ada.id, originalFilename: 'Offer.pdf' });
    expect(
      (await startFlow(id, { type: 'standard', signatory_email_addresses: [bob.email] })).statusCode,
    ).toBe(201);
    await deliver();
    return id;
  }

  it(`reminds after PARAPH_REMINDER_DAYS, then at most once a day, only while the flow waits`, async () => {
    await start({ env: { PARAPH_REMINDER_DAYS: '3' } });
    const id = await flowWaitingForBob();
    const dueSince = now;
    now = new Date(dueSince.getTime() + 3 * DAY - 60_000);
    expect(await runReminders(t.deps)).toBe(0);
    now = new Date(dueSince.getTime() + 3 * DAY);
    expect(await runReminders(t.deps)).toBe(1);
    const reminder = to(await deliver(), bob.email);
    expect(reminder.mail.subject).toBe('Recordatorio: «Offer.pdf» espera a que usted lo firme');
    expect(reminder.mail.text).toContain('2 de noviembre de 2026');
    await expectLinksOpen(reminder, [`/app/document/${id}`]);
    // Two instances in the same hour: nothing more today.
    now = new Date(now.getTime() + 60 * 60_000);
    expect(await Promise.all([runReminders(t.deps), runReminders(t.deps)])).toEqual([0, 0]);
    now = new Date(dueSince.getTime() + 4 * DAY);
    expect(await runReminders(t.deps)).toBe(1);
    // Ada cancels (signed in again: days have passed): the flow waits for nobody.
    adaToken = await t.signIn(ada.email);
    const cancelled = await t.app.inject({
      method: 'DELETE',
      url: `/api/documents/${id}/sign_flow`,
      headers: bearer(adaToken),
    });
    expect(cancelled.statusCode, cancelled.body).toBeLessThan(300);
    now = new Date(dueSince.getTime() + 6 * DAY);
    expect(await runReminders(t.deps)).toBe(0);
    const cancelNews = (await deliver()).filter((entry) => entry.mail.subject?.startsWith('Se ha cancelado'));
    expect(cancelNews.flatMap((entry) => entry.envelopeTo)).toEqual([bob.email]);
  });

  it('sends none with PARAPH_REMINDER_DAYS=0', async () => {
    await start({ env: { PARAPH_REMINDER_DAYS: '0' } });
    await flowWaitingForBob();
    now = new Date(now.getTime() + 30 * DAY);
    expect(await runReminders(t.deps)).toBe(0);
  });
});
