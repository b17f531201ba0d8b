import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { actionDb } from '../../server/documents/access.ts';
import { DEMO_INVITEE_EMAIL, seedDemo } from '../../server/seed.ts';
import { bearer, buildTestApp, expectMatchesContract, type TestApp } from './helpers.ts';

// Seeding signs the demo's documents for real: beside other suites on two cores it has taken over 30 s.
describe('the demo invite', { timeout: 120_000 }, () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await buildTestApp();
  });
  afterEach(async () => {
    await t.close();
  });

  it('can be accepted by a new account for the invited address, which then sees the document', async () => {
    await seedDemo(t.deps);
    const invite = await actionDb(t.deps.db).selectFrom('invites').selectAll().executeTakeFirstOrThrow();
    expect(invite).toMatchObject({ email: DEMO_INVITEE_EMAIL, accepted_at: null });
    const dave = await t.createUser({ email: DEMO_INVITEE_EMAIL, fullName: 'Dave Demo' });
    const token = await t.signIn(dave.email);
    const response = await t.app.inject({
      method: 'PATCH',
      url: '/api/invites/accept',
      headers: bearer(token),
      payload: { invite_id: invite.id },
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ included: { id: string; attributes: { originalFilename: string } }[] }>();
    expectMatchesContract('acceptInvite', 200, body);
    expect(body.included.map((doc) => doc.attributes.originalFilename)).toEqual(['Supplier agreement.pdf']);
  });
});
