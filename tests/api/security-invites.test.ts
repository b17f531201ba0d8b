// An invitation link creates one account, the one of the address it was sent to, once, and only within
// PARAPH_INVITE_TTL_DAYS; the invited person, once signed in, can still accept it. The sign-flow audit
// keeps the invited addresses, never the invites' ids (an id is the sign-up link itself).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { actionDb } from '../../server/documents/access.ts';
import { bearer, buildTestApp, insertDocument, type TestApp, type TestUser } from './helpers.ts';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const PASSWORD = 'a long enough password';
const DAY = 24 * 60 * 60 * 1000;
const INVALID = 'This invitation link is not valid.';

describe('invitation links', () => {
  let t: TestApp;
  let ada: TestUser;
  let adaToken: string;
  let documentId: string;
  let now: Date;

  async function build(env: Record<string, string> = {}) {
    now = new Date('2030-03-01T09:00:00.000Z');
    t = await buildTestApp({ clock: () => now, env });
    ada = await t.createUser({ email: 'ada@example.test', fullName: 'Ada Lovelace' });
    adaToken = await t.signIn(ada.email);
    documentId = await insertDocument(t.deps, { ownerId: ada.id, originalFilename: 'Lease.pdf' });
  }

  async function invite(email: string): Promise<string> {
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/documents/${documentId}/sign_flow`,
      headers: bearer(adaToken),
      payload: { sign_flow: { type: 'standard', signatory_email_addresses: [email] } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const row = await actionDb(t.deps.db)
      .selectFrom('invites')
      .select('id')
      .where('email', '=', email.toLowerCase())
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  function signUp(inviteId: string, fields: Record<string, string> = {}, remoteAddress?: string) {
    return t.app.inject({
      method: 'POST',
      url: `/sign_up?invite=${encodeURIComponent(inviteId)}`,
      headers: FORM,
      ...(remoteAddress === undefined ? {} : { remoteAddress }),
      payload: new URLSearchParams({
        full_name: 'Dave Demo',
        password: PASSWORD,
        password_confirmation: PASSWORD,
        ...fields,
      }).toString(),
    });
  }

  async function accounts(): Promise<string[]> {
    const rows = await t.deps.db.selectFrom('users').select('email').orderBy('email').execute();
    return rows.map((row) => row.email);
  }

  beforeEach(async () => {
    await build();
  });
  afterEach(async () => {
    await t.close();
  });

  it('is single-use: a second sign-up through it creates nothing and shows the not-valid notice', async () => {
    const inviteId = await invite('dave@example.test');
    const first = await signUp(inviteId);
    expect(first.statusCode, first.body).toBe(303);
    const used = await actionDb(t.deps.db)
      .selectFrom('invites')
      .select('used_at')
      .where('id', '=', inviteId)
      .executeTakeFirstOrThrow();
    expect(used.used_at).toBe(now.toISOString());

    // The account is deleted afterwards (or never mattered): the link still creates nothing.
    await t.deps.db.deleteFrom('users').where('email', '=', 'dave@example.test').execute();
    for (const response of [
      await t.app.inject({ method: 'GET', url: `/sign_up?invite=${inviteId}` }),
      await signUp(inviteId, { full_name: 'Mallory' }, '198.51.100.1'),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.body).toContain(INVALID);
      expect(response.headers['set-cookie']).toBeUndefined();
    }
    expect(await accounts()).toEqual(['ada@example.test']);
  });

  it('lets only one of two parallel sign-ups through one link create the account', async () => {
    const inviteId = await invite('dave@example.test');
    const answers = await Promise.all([
      signUp(inviteId, { full_name: 'Dave One' }),
      signUp(inviteId, { full_name: 'Dave Two' }),
      signUp(inviteId, { full_name: 'Dave Three' }),
    ]);
    expect(answers.filter((answer) => answer.statusCode === 303)).toHaveLength(1);
    expect(answers.filter((answer) => answer.headers['set-cookie'] !== undefined)).toHaveLength(1);
    expect(await accounts()).toEqual(['ada@example.test', 'dave@example.test']);
  });

  it('expires after PARAPH_INVITE_TTL_DAYS (14 by default)', async () => {
    const inviteId = await invite('dave@example.test');
    now = new Date(now.getTime() + 14 * DAY + 1000);
    const page = await t.app.inject({ method: 'GET', url: `/sign_up?invite=${inviteId}` });
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain(INVALID);
    const late = await signUp(inviteId);
    expect(late.statusCode).toBe(404);
    expect(await accounts()).toEqual(['ada@example.test']);
  });

  it('is still valid just before it expires, and follows a shorter PARAPH_INVITE_TTL_DAYS', async () => {
    await t.close();
    await build({ PARAPH_INVITE_TTL_DAYS: '2' });
    const inviteId = await invite('dave@example.test');
    now = new Date(now.getTime() + 2 * DAY - 1000);
    expect((await t.app.inject({ method: 'GET', url: `/sign_up?invite=${inviteId}` })).statusCode).toBe(200);
    now = new Date(now.getTime() + 2000);
    expect((await t.app.inject({ method: 'GET', url: `/sign_up?invite=${inviteId}` })).statusCode).toBe(404);
  });

  it('sends a new link when the invited person is added again after theirs expired', async () => {
    const first = await invite('dave@example.test');
    now = new Date(now.getTime() + 15 * DAY);
    // Ada signs in again (her token is 15 days old) and edits the flow: Dave out, then back in.
    adaToken = await t.signIn(ada.email);
    const without = await t.app.inject({
      method: 'PUT',
      url: `/api/documents/${documentId}/sign_flow`,
      headers: bearer(adaToken),
      payload: { sign_flow: { type: 'standard', signatory_email_addresses: ['carol@example.test'] } },
    });
    const readded = await t.app.inject({
      method: 'PUT',
      url: `/api/documents/${documentId}/sign_flow`,
      headers: bearer(adaToken),
      payload: { sign_flow: { type: 'standard', signatory_email_addresses: ['dave@example.test'] } },
    });
    expect([without.statusCode, readded.statusCode], readded.body).toEqual([200, 200]);
    const links = await actionDb(t.deps.db)
      .selectFrom('invites')
      .select('id')
      .where('email', '=', 'dave@example.test')
      .execute();
    expect(links.map((link) => link.id)).toContain(first);
    const fresh = links.find((link) => link.id !== first);
    expect(fresh).toBeDefined();
    expect((await signUp(fresh?.id ?? '')).statusCode).toBe(303);
  });

  it('creates only the account of the address it was sent to, whatever the form says', async () => {
    const inviteId = await invite('Dave@Example.test');
    const response = await signUp(inviteId, { email: 'mallory@example.test' });
    expect(response.statusCode).toBe(303);
    expect(await accounts()).toEqual(['ada@example.test', 'dave@example.test']);
  });

  it('can still be accepted, more than once, by the invited person signed in after signing up', async () => {
    const inviteId = await invite('dave@example.test');
    const created = await signUp(inviteId);
    const cookie = created.cookies.find((entry) => entry.name === 'paraph_session')?.value ?? '';
    const token = (
      await t.app.inject({ method: 'GET', url: '/api/tokens', cookies: { paraph_session: cookie } })
    ).json<{ access_token: string }>().access_token;
    const accept = () =>
      t.app.inject({
        method: 'PATCH',
        url: '/api/invites/accept',
        headers: bearer(token),
        payload: { invite_id: inviteId },
      });
    const first = await accept();
    expect(first.statusCode, first.body).toBe(200);
    const second = await accept();
    expect(second.statusCode).toBe(200);
    expect(second.json<{ data: { attributes: { acceptedAt: string } } }>().data.attributes.acceptedAt).toBe(
      first.json<{ data: { attributes: { acceptedAt: string } } }>().data.attributes.acceptedAt,
    );
    // Someone else, signed in, cannot accept it.
    const eve = await t.createUser({ email: 'eve@example.test' });
    const eveAnswer = await t.app.inject({
      method: 'PATCH',
      url: '/api/invites/accept',
      headers: bearer(await t.signIn(eve.email)),
      payload: { invite_id: inviteId },
    });
    expect(eveAnswer.statusCode).toBe(404);
  });

  it('keeps the invited addresses in the audit trail, never the invite ids', async () => {
    const inviteId = await invite('dave@example.test');
    const entries = await t.deps.db
      .selectFrom('audit_events')
      .select(['action', 'details'])
      .where('document_id', '=', documentId)
      .execute();
    const created = entries.find((entry) => entry.action === 'sign_flow.created');
    expect(created).toBeDefined();
    expect(created?.details).not.toContain(inviteId);
    expect(JSON.parse(created?.details ?? '{}')).toMatchObject({ invited: ['dave@example.test'] });
  });
});
