// The invitee's way in: someone added to a flow by an address without an account gets an invite,
// signs up on the server's page with that address, is signed in, and lands on the invite in the app,
// which accepts it and opens the document.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/schema';
import { actionDb } from '../../server/documents/access.ts';
import {
  bearer,
  buildTestApp,
  expectMatchesContract,
  insertDocument,
  type TestApp,
  type TestUser,
} from './helpers.ts';

type SignFlowResponse = components['schemas']['SignFlowResponse'];

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const PASSWORD = 'a long enough password';

describe('invitee sign-up', () => {
  let t: TestApp;
  let ada: TestUser;
  let adaToken: string;
  let documentId: string;
  let inviteId: string;

  beforeEach(async () => {
    t = await buildTestApp();
    ada = await t.createUser({ email: 'ada@example.test', fullName: 'Ada Lovelace' });
    adaToken = await t.signIn(ada.email);
    documentId = await insertDocument(t.deps, { ownerId: ada.id, originalFilename: 'Lease.pdf' });
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/documents/${documentId}/sign_flow`,
      headers: bearer(adaToken),
      payload: { sign_flow: { type: 'standard', signatory_email_addresses: ['Dave@Example.test'] } },
    });
    expect(created.statusCode, created.body).toBe(201);
    inviteId = (await actionDb(t.deps.db).selectFrom('invites').select('id').executeTakeFirstOrThrow()).id;
  });

  afterEach(async () => {
    await t.close();
  });

  function post(fields: Record<string, string>, invite = inviteId) {
    return t.app.inject({
      method: 'POST',
      url: `/sign_up?invite=${encodeURIComponent(invite)}`,
      headers: FORM,
      payload: new URLSearchParams(fields).toString(),
    });
  }

  it('creates the account for the invited address, signs it in and opens the invite', async () => {
    const page = await t.app.inject({ method: 'GET', url: `/sign_up?invite=${inviteId}` });
    expect(page.statusCode).toBe(200);
    expectMatchesContract('signUpPage', 200, page.body);
    expect(page.body).toContain('value="dave@example.test" readonly');
    expect(page.body).not.toContain('<script');

    const mismatch = await post({
      full_name: 'Dave <b>Demo</b>',
      password: PASSWORD,
      password_confirmation: 'other',
    });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.body).toContain('The two passwords are not the same.');
    // What the person typed comes back as text, never markup.
    expect(mismatch.body).toContain('Dave &lt;b&gt;Demo&lt;/b&gt;');
    expect(
      await actionDb(t.deps.db)
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'dave@example.test')
        .execute(),
    ).toEqual([]);
    expect(
      (await post({ full_name: ' ', password: PASSWORD, password_confirmation: PASSWORD })).statusCode,
    ).toBe(422);
    expect(
      (await post({ full_name: 'Dave', password: 'short', password_confirmation: 'short' })).statusCode,
    ).toBe(422);

    const created = await post({
      full_name: '  Dave   Demo ',
      password: PASSWORD,
      password_confirmation: PASSWORD,
    });
    expect(created.statusCode, created.body).toBe(303);
    expect(created.headers.location).toBe(
      `/app/auth?returnUrl=${encodeURIComponent(`/app/signflowmember/invite/${inviteId}`)}`,
    );
    const cookie = created.cookies.find((entry) => entry.name === 'paraph_session');
    expect(cookie?.httpOnly).toBe(true);
    const user = await actionDb(t.deps.db)
      .selectFrom('users')
      .selectAll()
      .where('email', '=', 'dave@example.test')
      .executeTakeFirstOrThrow();
    expect([user.full_name, user.initials]).toEqual(['Dave Demo', 'DD']);
    expect(user.password_hash).not.toContain(PASSWORD);

    // What /app/auth and the invite route then do.
    const tokenResponse = await t.app.inject({
      method: 'GET',
      url: '/api/tokens',
      cookies: { paraph_session: cookie?.value ?? '' },
    });
    const token = tokenResponse.json<{ access_token: string }>().access_token;
    const accepted = await t.app.inject({
      method: 'PATCH',
      url: '/api/invites/accept',
      headers: bearer(token),
      payload: { invite_id: inviteId },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(
      accepted.json<{ included: { id: string; attributes: { currentUserCanSign: boolean } }[] }>().included,
    ).toMatchObject([{ id: documentId, attributes: { currentUserCanSign: true } }]);
    const flow = await t.app.inject({
      method: 'GET',
      url: `/api/documents/${documentId}/sign_flow`,
      headers: bearer(adaToken),
    });
    const signatory = flow.json<SignFlowResponse>().included[0];
    expect(signatory?.attributes).toMatchObject({ fullName: 'Dave Demo', state: 'pending' });

    // The link has been used: it opens nothing any more.
    const again = await t.app.inject({ method: 'GET', url: `/sign_up?invite=${inviteId}` });
    expect(again.statusCode).toBe(404);
    expect(again.body).toContain('This invitation link is not valid.');
    expect(
      (await post({ full_name: 'Eve', password: PASSWORD, password_confirmation: PASSWORD })).statusCode,
    ).toBe(404);
  });

  it('answers an unknown invite with 404 and limits guesses like sign-in', async () => {
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/sign_up?invite=00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.statusCode).toBe(404);
    expectMatchesContract('signUpPage', 404, unknown.body);
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      const response = await post(
        { full_name: 'X', password: PASSWORD, password_confirmation: PASSWORD },
        `guess-${attempt}`,
      );
      expect(response.statusCode).toBe(404);
    }
    const limited = await post(
      { full_name: 'X', password: PASSWORD, password_confirmation: PASSWORD },
      'guess-11',
    );
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Someone else's guesses from this address do not stop Dave's own link.
    const dave = await post({ full_name: 'Dave', password: PASSWORD, password_confirmation: PASSWORD });
    expect(dave.statusCode).toBe(303);
  });
});
