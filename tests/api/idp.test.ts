// The identity-app stand-in (/idp/), the resend route and the demo auto-confirmation: the signer, signed
// in by the session cookie of /sign_in, sees only their own pending requests and answers them with forms
// that carry a CSRF token; user text stays text.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../server/auth/tokens.ts';
import { DatabaseUnavailableError } from '../../server/db/connection-errors.ts';
import { idpAutoconfirmOptions, runIdpAutoconfirm } from '../../server/jobs/idp-autoconfirm.ts';
import { idpCsrfToken } from '../../server/pages/idp.ts';
import { makePdf } from '../fixtures/pdfs.ts';
import {
  bearer,
  buildTestApp,
  expectMatchesContract,
  insertDocument,
  type TestApp,
  type TestUser,
} from './helpers.ts';
import { queuedMessages } from './mail-support.ts';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const CSRF_FIELD = /name="csrf_token" value="([^"]+)"/;

let t: TestApp;
let now: Date;
let ada: TestUser;
let bob: TestUser;

beforeEach(async () => {
  now = new Date('2030-03-01T09:00:00.000Z');
  t = await buildTestApp({ clock: () => now });
  ada = await t.createUser({ email: 'ada@example.test', fullName: 'Ada Lovelace' });
  bob = await t.createUser({ email: 'bob@example.test', fullName: 'Bob Baker' });
});
afterEach(async () => {
  await t.close();
});

/** Signs in through the real page with a return_to under /idp/; answers the session cookie. */
async function idpSession(user: TestUser, returnTo = '/idp/'): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/sign_in',
    headers: FORM,
    payload: new URLSearchParams({
      email: user.email,
      password: user.password,
      return_to: returnTo,
    }).toString(),
  });
  expect(response.statusCode).toBe(303);
  expect(response.headers.location).toBe(returnTo);
  const cookie = response.cookies.find((entry) => entry.name === 'paraph_session');
  if (cookie === undefined) throw new Error('no session cookie');
  return cookie.value;
}

async function smartCardOf(user: TestUser): Promise<string> {
  const existing = await t.deps.db
    .selectFrom('smart_cards')
    .select('id')
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  if (existing !== undefined) return existing.id;
  const id = randomUUID();
  await t.deps.db
    .insertInto('smart_cards')
    .values({
      id,
      user_id: user.id,
      smart_card_type: 'personal_level3',
      description: 'Test card',
      created_at: now.toISOString(),
    })
    .execute();
  return id;
}

/** The owner asks to sign their own document (no flow) through the real sign call: a pending version. */
async function requestSignature(
  user: TestUser,
  options: { filename?: string; location?: string; reason?: string } = {},
): Promise<{ versionId: string; documentId: string; token: string }> {
  const documentId = await insertDocument(t.deps, {
    ownerId: user.id,
    ...(options.filename === undefined ? {} : { originalFilename: options.filename }),
  });
  await t.deps.store.put(`documents/${documentId}/original.pdf`, await makePdf(), 'application/pdf');
  const token = await t.signIn(user.email);
  const response = await t.app.inject({
    method: 'PATCH',
    url: `/api/documents/${documentId}/sign`,
    headers: bearer(token),
    payload: {
      smart_card_id: await smartCardOf(user),
      location: options.location ?? 'Amsterdam',
      reason: options.reason ?? 'Agreed',
      // The owner's own signature needs a place on a page.
      sign_page_number: 1,
      signature_top: '0.5000',
      signature_left: '0.1000',
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json<{ data: { id: string } }>();
  return { versionId: body.data.id, documentId, token };
}

function getPage(url: string, cookie?: string) {
  return t.app.inject({
    method: 'GET',
    url,
    ...(cookie === undefined ? {} : { cookies: { paraph_session: cookie } }),
  });
}

function postAnswer(versionId: string, answer: 'confirm' | 'deny', cookie: string, csrf?: string) {
  return t.app.inject({
    method: 'POST',
    url: `/idp/requests/${versionId}/${answer}`,
    headers: FORM,
    cookies: { paraph_session: cookie },
    payload: csrf === undefined ? '' : new URLSearchParams({ csrf_token: csrf }).toString(),
  });
}

async function csrfFrom(versionId: string, cookie: string): Promise<string> {
  const page = await getPage(`/idp/requests/${versionId}`, cookie);
  expect(page.statusCode).toBe(200);
  const token = CSRF_FIELD.exec(page.body)?.[1];
  if (token === undefined) throw new Error('no CSRF token on the request page');
  return token;
}

async function versionState(versionId: string, token: string): Promise<string> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/document_versions/${versionId}`,
    headers: bearer(token),
  });
  expect(response.statusCode).toBe(200);
  return response.json<{ data: { attributes: { state: string } } }>().data.attributes.state;
}

describe('/idp/ sign-in', () => {
  it('sends someone not signed in to the sign-in page, which brings them back to the page asked for', async () => {
    const list = await getPage('/idp/');
    expect(list.statusCode).toBe(303);
    expect(list.headers.location).toBe('/sign_in?return_to=%2Fidp%2F');

    const id = randomUUID();
    const request = await getPage(`/idp/requests/${id}`);
    expect(request.statusCode).toBe(303);
    expect(request.headers.location).toBe(`/sign_in?return_to=${encodeURIComponent(`/idp/requests/${id}`)}`);

    const signIn = await getPage(request.headers.location as string);
    expect(signIn.body).toContain(`<input type="hidden" name="return_to" value="/idp/requests/${id}">`);
    await idpSession(ada, `/idp/requests/${id}`);

    const stale = await getPage('/idp/', 'not-a-session');
    expect(stale.statusCode).toBe(303);
  });

  it('answers a form post without a session by the sign-in page, answering nothing', async () => {
    const { versionId, token } = await requestSignature(ada);
    const response = await t.app.inject({
      method: 'POST',
      url: `/idp/requests/${versionId}/confirm`,
      headers: FORM,
      payload: '',
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(
      `/sign_in?return_to=${encodeURIComponent(`/idp/requests/${versionId}`)}`,
    );
    expect(await versionState(versionId, token)).toBe('pending');
  });
});

describe('/idp/ pages', () => {
  it('lists only the signed-in person’s pending requests, each linking to its page', async () => {
    const mine = await requestSignature(ada, { filename: 'Lease 2030.pdf', location: 'Utrecht' });
    const answered = await requestSignature(ada, { filename: 'Old answer.pdf' });
    const theirs = await requestSignature(bob, { filename: 'Bob private.pdf' });
    const cookie = await idpSession(ada);
    await postAnswer(answered.versionId, 'deny', cookie, await csrfFrom(answered.versionId, cookie));

    const page = await getPage('/idp/', cookie);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('Paraph ID');
    expect(page.body).toContain('Lease 2030.pdf');
    expect(page.body).toContain('Utrecht');
    expect(page.body).toContain('Personal level 3');
    expect(page.body).toContain(`href="/idp/requests/${mine.versionId}"`);
    expect(page.body).not.toContain('Old answer.pdf');
    expect(page.body).not.toContain('Bob private.pdf');
    expect(page.body).not.toContain(theirs.versionId);
    expect(page.body).not.toContain('<script');

    const bobsPage = await getPage('/idp/', await idpSession(bob));
    expect(bobsPage.body).toContain('Bob private.pdf');
    expect(bobsPage.body).not.toContain('Lease 2030.pdf');
  });

  it('says so when nothing waits', async () => {
    const page = await getPage('/idp/', await idpSession(ada));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Nothing to confirm right now.');
    expect(page.body).not.toContain('/idp/requests/');
  });

  it('shows one request with its details and Confirm and Deny forms carrying a CSRF token', async () => {
    const { versionId } = await requestSignature(ada, {
      filename: 'Offer.pdf',
      location: 'Leiden',
      reason: 'I accept the offer',
    });
    const page = await getPage(`/idp/requests/${versionId}`, await idpSession(ada));
    expect(page.statusCode).toBe(200);
    for (const text of ['Offer.pdf', 'Ada Lovelace', 'Personal level 3', 'Leiden', 'I accept the offer']) {
      expect(page.body).toContain(text);
    }
    expect(page.body).toContain(`<form method="post" action="/idp/requests/${versionId}/confirm">`);
    expect(page.body).toContain(`<form method="post" action="/idp/requests/${versionId}/deny">`);
    expect(page.body).toMatch(/<button class="confirm" type="submit">Confirm<\/button>/);
    expect(page.body).toMatch(/<button class="deny" type="submit">Deny<\/button>/);
    expect(page.body.match(/name="csrf_token"/g)).toHaveLength(2);
  });

  it('confirms through the form: the signature is made, the page shows Signed, a second post is harmless', async () => {
    const { versionId, token } = await requestSignature(ada, { filename: 'Confirm me.pdf' });
    const cookie = await idpSession(ada);
    const csrf = await csrfFrom(versionId, cookie);

    const answer = await postAnswer(versionId, 'confirm', cookie, csrf);
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe(`/idp/requests/${versionId}`);
    expect(await versionState(versionId, token)).toBe('signed');

    const page = await getPage(`/idp/requests/${versionId}`, cookie);
    expect(page.body).toContain('>Signed</p>');
    expect(page.body).not.toContain('csrf_token');
    expect(page.body).not.toContain('/confirm"');

    const again = await postAnswer(versionId, 'confirm', cookie, csrf);
    expect(again.statusCode).toBe(303);
    const denyAfter = await postAnswer(versionId, 'deny', cookie, csrf);
    expect(denyAfter.statusCode).toBe(303);
    expect(await versionState(versionId, token)).toBe('signed');
    const signedEvents = await t.deps.db
      .selectFrom('audit_events')
      .select('id')
      .where('action', '=', 'document.signed')
      .execute();
    expect(signedEvents).toHaveLength(1);
  });

  it('denies through the form: nothing is signed and the page shows Denied', async () => {
    const { versionId, token } = await requestSignature(ada);
    const cookie = await idpSession(ada);
    const answer = await postAnswer(versionId, 'deny', cookie, await csrfFrom(versionId, cookie));
    expect(answer.statusCode).toBe(303);
    expect(await versionState(versionId, token)).toBe('denied');
    const page = await getPage(`/idp/requests/${versionId}`, cookie);
    expect(page.body).toContain('>Denied</p>');
    expect(page.body).not.toContain('<button');
  });

  it('refuses an answer without the right CSRF token (403) and answers nothing', async () => {
    const first = await requestSignature(ada);
    const second = await requestSignature(ada);
    const cookie = await idpSession(ada);
    const otherSession = await idpSession(ada);
    const forOtherVersion = await csrfFrom(second.versionId, cookie);
    const forOtherSession = await csrfFrom(first.versionId, otherSession);

    for (const csrf of [undefined, '', 'forged', forOtherVersion, forOtherSession]) {
      for (const answer of ['confirm', 'deny'] as const) {
        const response = await postAnswer(first.versionId, answer, cookie, csrf);
        expect(response.statusCode).toBe(403);
        expect(response.headers['content-type']).toContain('text/html');
      }
    }
    expect(await versionState(first.versionId, first.token)).toBe('pending');
  });

  it('answers 404 for someone else’s or an unknown request, even with a token of one’s own session', async () => {
    const { versionId, token } = await requestSignature(ada, { filename: 'Ada only.pdf' });
    const bobCookie = await idpSession(bob);
    for (const id of [versionId, randomUUID(), 'not-a-uuid']) {
      const page = await getPage(`/idp/requests/${id}`, bobCookie);
      expect(page.statusCode).toBe(404);
      expect(page.body).not.toContain('Ada only.pdf');
    }
    const bobsToken = await idpCsrfToken(t.deps.db, sha256Hex(bobCookie), versionId);
    for (const answer of ['confirm', 'deny'] as const) {
      const response = await postAnswer(versionId, answer, bobCookie, bobsToken);
      expect(response.statusCode).toBe(404);
    }
    expect(await versionState(versionId, token)).toBe('pending');
  });

  it('shows markup in a file name, location and reason as text', async () => {
    const { versionId } = await requestSignature(ada, {
      filename: '<img src=x onerror=alert(1)>.pdf',
      location: '<b>Delft</b>',
      reason: '"><script>alert(2)</script>',
    });
    const cookie = await idpSession(ada);
    for (const url of ['/idp/', `/idp/requests/${versionId}`]) {
      const page = await getPage(url, cookie);
      expect(page.body).not.toContain('<img');
      expect(page.body).not.toContain('<b>');
      expect(page.body).not.toContain('<script');
      expect(page.body).toContain('&lt;img src=x onerror=alert(1)&gt;.pdf');
      expect(page.body).toContain('&lt;b&gt;Delft&lt;/b&gt;');
    }
  });
});

describe('resendDocumentVersionNotification', () => {
  function resend(versionId: string, token: string) {
    return t.app.inject({
      method: 'POST',
      url: `/api/document_versions/${versionId}/resend_notification`,
      headers: bearer(token),
    });
  }

  async function outboxFor(email: string) {
    return (await queuedMessages(t.deps.db, { to: email })).filter(
      (message) => message.kind === 'signature.confirmation',
    );
  }

  it('sends the confirmation request again at most once in 5 s, with the absolute /idp/ link', async () => {
    const { versionId, token } = await requestSignature(ada, { filename: 'Resend.pdf' });
    const before = (await outboxFor(ada.email)).length;

    const first = await resend(versionId, token);
    expect(first.statusCode).toBe(204);
    expectMatchesContract('resendDocumentVersionNotification', 204, first.body);
    const messages = await outboxFor(ada.email);
    expect(messages).toHaveLength(before + 1);
    const last = messages.find((message) => message.body.includes(versionId));
    expect(last?.subject).toBe('Confirm your signature on “Resend.pdf”');
    expect(last?.body).toContain(`http://localhost:8080/idp/requests/${versionId}`);

    now = new Date(now.getTime() + 4000);
    const tooSoon = await resend(versionId, token);
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.headers['retry-after']).toBe('1');
    expectMatchesContract('resendDocumentVersionNotification', 429, tooSoon.json());
    expect(await outboxFor(ada.email)).toHaveLength(before + 1);

    now = new Date(now.getTime() + 1000);
    expect((await resend(versionId, token)).statusCode).toBe(204);
    expect(await outboxFor(ada.email)).toHaveLength(before + 2);
  });

  it('answers 404 for another user’s version and 409 once the version is answered', async () => {
    const { versionId, token } = await requestSignature(ada);
    const bobToken = await t.signIn(bob.email);
    const foreign = await resend(versionId, bobToken);
    expect(foreign.statusCode).toBe(404);
    expectMatchesContract('resendDocumentVersionNotification', 404, foreign.json());
    expect((await resend(randomUUID(), token)).statusCode).toBe(404);

    const cookie = await idpSession(ada);
    await postAnswer(versionId, 'deny', cookie, await csrfFrom(versionId, cookie));
    const answered = await resend(versionId, token);
    expect(answered.statusCode).toBe(409);
    expectMatchesContract('resendDocumentVersionNotification', 409, answered.json());
  });
});

describe('PARAPH_IDP_AUTOCONFIRM', () => {
  it('is off by default and reads its delay', () => {
    expect(idpAutoconfirmOptions({})).toBeNull();
    expect(idpAutoconfirmOptions({ PARAPH_IDP_AUTOCONFIRM: '0' })).toBeNull();
    expect(idpAutoconfirmOptions({ PARAPH_IDP_AUTOCONFIRM: '1' })?.delayMs).toBe(3000);
    expect(
      idpAutoconfirmOptions({ PARAPH_IDP_AUTOCONFIRM: '1', PARAPH_IDP_AUTOCONFIRM_DELAY_MS: '500' })?.delayMs,
    ).toBe(500);
    expect(() =>
      idpAutoconfirmOptions({ PARAPH_IDP_AUTOCONFIRM: '1', PARAPH_IDP_AUTOCONFIRM_DELAY_MS: 'soon' }),
    ).toThrow(/PARAPH_IDP_AUTOCONFIRM_DELAY_MS/);
  });

  it('confirms a pending version older than the delay as its own signer and leaves a younger one alone', async () => {
    const older = await requestSignature(ada);
    now = new Date(now.getTime() + 2000);
    const younger = await requestSignature(bob);
    now = new Date(now.getTime() + 1000);

    expect(await runIdpAutoconfirm(t.deps, { delayMs: 3000 })).toBe(1);
    expect(await versionState(older.versionId, older.token)).toBe('signed');
    expect(await versionState(younger.versionId, younger.token)).toBe('pending');
    const signed = await t.deps.db
      .selectFrom('audit_events')
      .select(['actor_id', 'user_agent'])
      .where('action', '=', 'document.signed')
      .execute();
    expect(signed).toEqual([expect.objectContaining({ actor_id: ada.id })]);

    // Run again (another instance, or the next tick): the answered one is not answered twice.
    expect(await runIdpAutoconfirm(t.deps, { delayMs: 3000 })).toBe(0);
    now = new Date(now.getTime() + 2000);
    expect(await runIdpAutoconfirm(t.deps, { delayMs: 3000 })).toBe(1);
    expect(await versionState(younger.versionId, younger.token)).toBe('signed');
  });

  it('tries a version again after the database went away during its confirmation', async () => {
    const request = await requestSignature(ada);
    now = new Date(now.getTime() + 3000);
    const failed = new Set<string>();
    // The first transaction meets a restarted database, as a pooled connection does after one.
    const restart = withRestartedDatabase(t, [1]);
    try {
      expect(await runIdpAutoconfirm(t.deps, { delayMs: 3000, failed })).toBe(0);
    } finally {
      restart.end();
    }
    expect(restart.transactions()).toBe(1);
    expect(await versionState(request.versionId, request.token)).toBe('pending');
    expect(t.logs()).toContain('auto-confirmation paused: the database is unavailable');

    expect(await runIdpAutoconfirm(t.deps, { delayMs: 3000, failed })).toBe(1);
    expect(await versionState(request.versionId, request.token)).toBe('signed');
  });

  it('ends a signature that the database went away under once it is back, instead of aborting it', async () => {
    const request = await requestSignature(ada);
    now = new Date(now.getTime() + 3000);
    // The confirmation's first transaction marks the version `signing`; the second, after the PDF is
    // signed and stored, meets a restarted database, as a pooled connection does after one.
    const restart = withRestartedDatabase(t, [2]);
    try {
      expect(await runIdpAutoconfirm(t.deps, { delayMs: 3000 })).toBe(1);
    } finally {
      restart.end();
    }
    expect(restart.transactions()).toBeGreaterThanOrEqual(3);
    expect(await versionState(request.versionId, request.token)).toBe('signed');
    expect(t.logs()).toContain('the database is unavailable while a signature ends; writing its end again');
  });
});

// The app's transactions numbered in `failing` (from 1) meet a restarted database, as a pooled connection
// does after one; end() gives the app its own database back.
function withRestartedDatabase(t: TestApp, failing: number[]): { transactions(): number; end(): void } {
  const db = t.deps.db;
  let transactions = 0;
  t.deps.db = new Proxy(db, {
    get(target, property) {
      if (property === 'transaction') {
        transactions += 1;
        if (failing.includes(transactions)) {
          return () => ({
            execute: () =>
              Promise.reject(new DatabaseUnavailableError(new Error('Connection terminated unexpectedly'))),
          });
        }
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return {
    transactions: () => transactions,
    end: () => {
      t.deps.db = db;
    },
  };
}
