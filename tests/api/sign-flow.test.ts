// The sign flow on the server: create and edit with the form's body (spec 001 §7), the rules a
// body must pass before anything is stored, the edit rules of spec 001 §4, the invitations and turn
// notifications in the outbox, the audit trail, and two actions on one document at the same moment.
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
import { queuedMessages } from './mail-support.ts';

type SignFlowResponse = components['schemas']['SignFlowResponse'];
type Included = SignFlowResponse['included'][number];
type FlowBody = components['schemas']['SignFlowRequest']['sign_flow'];

const UA = { 'user-agent': 'sign-flow-test' };

function byType<T extends Included['type']>(body: SignFlowResponse, type: T) {
  return body.included.filter((item): item is Extract<Included, { type: T }> => item.type === type);
}

describe('sign flows', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let adaToken: string;
  let bobToken: string;
  let carolToken: string;

  beforeEach(async () => {
    t = await buildTestApp();
    ada = await t.createUser({ email: 'ada@example.test', fullName: 'Ada Lovelace' });
    bob = await t.createUser({ email: 'bob@example.test', fullName: 'Bob Baker' });
    carol = await t.createUser({ email: 'carol@example.test', fullName: 'Carol Chen' });
    [adaToken, bobToken, carolToken] = await Promise.all([
      t.signIn(ada.email),
      t.signIn(bob.email),
      t.signIn(carol.email),
    ]);
  });

  afterEach(async () => {
    await t.close();
  });

  const db = () => actionDb(t.deps.db);

  function send(method: 'POST' | 'PUT', documentId: string, body: FlowBody, token = adaToken) {
    return t.app.inject({
      method,
      url: `/api/documents/${documentId}/sign_flow`,
      headers: { ...bearer(token), ...UA },
      payload: { sign_flow: body },
    });
  }

  function act(path: string, documentId: string, token: string, payload?: object) {
    return t.app.inject({
      method: path === 'sign_flow' ? 'DELETE' : 'PATCH',
      url: `/api/documents/${documentId}/${path}`,
      headers: { ...bearer(token), ...UA },
      ...(payload === undefined ? {} : { payload }),
    });
  }

  async function getFlow(documentId: string, token = adaToken): Promise<SignFlowResponse> {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/documents/${documentId}/sign_flow`,
      headers: bearer(token),
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<SignFlowResponse>();
    expectMatchesContract('getSignFlow', 200, body);
    return body;
  }

  const documentState = async (id: string) =>
    (await db().selectFrom('documents').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state;

  const outbox = () => queuedMessages(db());

  const auditOf = (id: string) =>
    db().selectFrom('audit_events').selectAll().where('document_id', '=', id).orderBy('at').execute();

  it('creates an ordered flow with a reviewer, an invitee and placements, and reads it back exactly', async () => {
    const documentId = await insertDocument(t.deps, { ownerId: ada.id, pageCount: 3 });
    const response = await send('POST', documentId, {
      type: 'ordered',
      comment: 'Please check the dates.',
      reviewer_email_addresses: ['Carol@Example.test'],
      signatory_email_addresses: [bob.email, 'dave@example.test'],
      sign_page_number: 0,
      signature_coordinates: [
        { email_address: bob.email, sign_page_number: 2, top: '0.2500', left: '0.7200' },
        { email_address: 'dave@example.test', sign_page_number: 3, top: '1.0000', left: '0.0000' },
      ],
    });
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json<SignFlowResponse>();
    expectMatchesContract('createSignFlow', 201, created);
    expect(created.data.type).toBe('orderedSignFlows');
    expect(created.data.attributes).toMatchObject({
      comment: 'Please check the dates.',
      state: 'in_review',
      signedCount: 0,
      minimumRequiredSigns: 0,
      signPageNumber: 0,
    });
    expect(byType(created, 'reviewers').map((r) => [r.attributes.emailAddress, r.attributes.state])).toEqual([
      ['carol@example.test', 'pending'],
    ]);
    expect(
      byType(created, 'signatories').map((s) => [
        s.attributes.emailAddress,
        s.attributes.fullName,
        s.attributes.state,
      ]),
    ).toEqual([
      ['bob@example.test', 'Bob Baker', 'new'],
      ['dave@example.test', null, 'new'],
    ]);
    // The fractions come back as they were sent.
    expect(
      byType(created, 'signatureCoordinates').map((c) => [
        c.attributes.emailAddress,
        c.attributes.signPageNumber,
        c.attributes.top,
        c.attributes.left,
      ]),
    ).toEqual([
      ['bob@example.test', 2, '0.2500', '0.7200'],
      ['dave@example.test', 3, '1.0000', '0.0000'],
    ]);
    expect(created.data.relationships.signatureCoordinates.data).toHaveLength(2);
    expect(await documentState(documentId)).toBe('in_review');
    expect(await getFlow(documentId, carolToken)).toEqual(created);

    // Participants with an account are linked to it.
    const participants = await db()
      .selectFrom('sign_flow_participants')
      .selectAll()
      .orderBy('position')
      .execute();
    expect(participants.map((p) => [p.email, p.user_id])).toEqual([
      ['bob@example.test', bob.id],
      ['dave@example.test', null],
      ['carol@example.test', carol.id],
    ]);

    // Dave (no account) is invited; Carol (whose turn it is) is notified; Bob waits for the review.
    const invite = await db().selectFrom('invites').selectAll().executeTakeFirstOrThrow();
    expect(invite).toMatchObject({ email: 'dave@example.test', document_id: documentId, accepted_at: null });
    const messages = await outbox();
    expect(messages.map((message) => message.to_email).sort()).toEqual([
      'carol@example.test',
      'dave@example.test',
    ]);
    const invitation = messages.find((message) => message.to_email === 'dave@example.test');
    expect(invitation?.body).toContain(`/app/signflowmember/invite/${invite.id}`);
    expect(invitation?.body).toContain(`/sign_up?invite=${invite.id}`);
    expect(messages.find((message) => message.to_email === 'carol@example.test')?.body).toContain(
      `/app/document/${documentId}`,
    );

    const [entry] = await auditOf(documentId);
    expect(entry).toMatchObject({
      action: 'sign_flow.created',
      actor_id: ada.id,
      user_agent: 'sign-flow-test',
    });
    // The caller's address: fastify's inject comes from 127.0.0.1.
    expect(entry?.ip).toBe('127.0.0.1');
  });

  it('runs an ordered flow: approval notifies the first signatory only, and the profile counts what waits', async () => {
    const documentId = await insertDocument(t.deps, { ownerId: ada.id, pageCount: 2 });
    expect(
      (
        await send('POST', documentId, {
          type: 'ordered',
          reviewer_email_addresses: [carol.email],
          signatory_email_addresses: [bob.email, ada.email],
        })
      ).statusCode,
    ).toBe(201);
    const pending = async (token: string) => {
      const response = await t.app.inject({ method: 'GET', url: '/api/profiles', headers: bearer(token) });
      return response.json<{ data: { attributes: { pendingSignFlows: number } } }>().data.attributes
        .pendingSignFlows;
    };
    expect([await pending(carolToken), await pending(bobToken), await pending(adaToken)]).toEqual([1, 0, 0]);
    const sentBefore = (await outbox()).length;

    const approved = await act('approve', documentId, carolToken);
    expect(approved.statusCode, approved.body).toBe(200);
    expectMatchesContract('approveDocument', 200, approved.json());
    expect(await documentState(documentId)).toBe('awaiting_signs');
    const flow = await getFlow(documentId);
    expect(byType(flow, 'signatories').map((s) => s.attributes.state)).toEqual(['pending', 'new']);
    expect(byType(flow, 'reviewers').map((r) => r.attributes.state)).toEqual(['approved']);
    const fresh = (await outbox()).slice(sentBefore);
    expect(fresh.map((message) => message.to_email)).toEqual([bob.email]);
    expect([await pending(carolToken), await pending(bobToken), await pending(adaToken)]).toEqual([0, 1, 0]);
    expect((await auditOf(documentId)).map((entry) => entry.action)).toEqual([
      'sign_flow.created',
      'sign_flow.approved',
    ]);
  });

  it('stores the 4-decimal strings as sent and answers them so; an older shorter one is answered padded', async () => {
    const documentId = await insertDocument(t.deps, { ownerId: ada.id, pageCount: 2 });
    const response = await send('POST', documentId, {
      type: 'standard',
      signatory_email_addresses: [bob.email, carol.email],
      signature_coordinates: [
        { email_address: bob.email, sign_page_number: 1, top: '0.1500', left: '0.0000' },
        { email_address: carol.email, sign_page_number: 2, top: '1.0000', left: '0.7200' },
      ],
    });
    expect(response.statusCode, response.body).toBe(201);
    const coordinates = (body: SignFlowResponse) =>
      byType(body, 'signatureCoordinates').map((c) => [c.attributes.top, c.attributes.left]);
    expect(coordinates(response.json<SignFlowResponse>())).toEqual([
      ['0.1500', '0.0000'],
      ['1.0000', '0.7200'],
    ]);
    const stored = () =>
      db()
        .selectFrom('signature_placements')
        .select(['top_fraction', 'left_fraction'])
        .orderBy('page_number')
        .execute();
    expect(await stored()).toEqual([
      { top_fraction: '0.1500', left_fraction: '0.0000' },
      { top_fraction: '1.0000', left_fraction: '0.7200' },
    ]);

    // A number is refused by name, and the stored strings stay.
    const number = await send('PUT', documentId, {
      type: 'standard',
      signatory_email_addresses: [bob.email, carol.email],
      signature_coordinates: [
        { email_address: bob.email, sign_page_number: 1, top: 0.15 as unknown as string, left: '0.0000' },
      ],
    });
    expect(number.statusCode, number.body).toBe(400);
    expect(number.json()).toMatchObject({
      code: 'invalid_request',
      field: 'sign_flow.signature_coordinates.0.top',
    });
    expect((await stored()).map((row) => row.top_fraction)).toEqual(['0.1500', '1.0000']);

    // Flows saved before the contract asked for exactly 4 decimals may hold shorter strings: the answer
    // has 4, with the same value, and the stored text is left alone.
    const legacy = async (page: number, top: string, left: string) =>
      db()
        .updateTable('signature_placements')
        .set({ top_fraction: top, left_fraction: left })
        .where('page_number', '=', page)
        .execute();
    await legacy(1, '0.15', '0');
    await legacy(2, '1', '0.72');
    expect(coordinates(await getFlow(documentId))).toEqual([
      ['0.1500', '0.0000'],
      ['1.0000', '0.7200'],
    ]);
    expect((await stored()).map((row) => row.top_fraction)).toEqual(['0.15', '1']);
  });

  it('refuses each bad body with a 4xx code and stores nothing', async () => {
    const documentId = await insertDocument(t.deps, { ownerId: ada.id, pageCount: 2 });
    const base: FlowBody = { type: 'standard', signatory_email_addresses: [bob.email, carol.email] };
    const at = (over: Partial<components['schemas']['SignatureCoordinateInput']>) => ({
      signature_coordinates: [
        { email_address: bob.email, sign_page_number: 1, top: '0.5000', left: '0.5000', ...over },
      ],
    });
    const cases: [string, Partial<FlowBody>, number, string][] = [
      [
        'an address outside the spec pattern',
        { signatory_email_addresses: ['bob!x@example.test'] },
        422,
        'validation.email',
      ],
      [
        'an address without a dot in the domain',
        { signatory_email_addresses: ['bob@localhost'] },
        400,
        'invalid_request',
      ],
      ['no signatory', { signatory_email_addresses: [] }, 400, 'invalid_request'],
      ['a comment over 1024', { comment: 'x'.repeat(1025) }, 400, 'invalid_request'],
      [
        'a minimum on an ordered flow',
        { type: 'ordered', minimum_required_signs: 1 },
        422,
        'validation.minimum_required_signs',
      ],
      ['a minimum of N', { minimum_required_signs: 2 }, 422, 'validation.minimum_required_signs'],
      ['a negative minimum', { minimum_required_signs: -1 }, 400, 'invalid_request'],
      [
        'a signatory twice',
        { signatory_email_addresses: [bob.email, 'BOB@example.test'] },
        422,
        'validation.signatory_twice',
      ],
      [
        'a reviewer twice',
        { reviewer_email_addresses: ['x@example.test', 'X@example.test'] },
        422,
        'validation.reviewer_twice',
      ],
      [
        'a reviewer who signs',
        { reviewer_email_addresses: [carol.email] },
        422,
        'validation.reviewer_is_signatory',
      ],
      ['a signature page past the end', { sign_page_number: 4 }, 422, 'validation.sign_page_number'],
      ['a negative signature page', { sign_page_number: -1 }, 400, 'invalid_request'],
      ['left beyond 72 %', at({ left: '0.7201' }), 422, 'validation.signature_coordinates'],
      ['top above the box height', at({ top: '0.1499' }), 422, 'validation.signature_coordinates'],
      ['a fraction with 5 decimals', at({ top: '0.12345' }), 400, 'invalid_request'],
      // Spec 001 §9: exactly 4 decimals, as a string (docs/decisions.md "Coordinates as 4-decimal strings").
      ['a fraction with 2 decimals', at({ top: '0.15' }), 400, 'invalid_request'],
      ['a fraction without decimals', at({ left: '0' }), 400, 'invalid_request'],
      ['a fraction as a JSON number', at({ top: 0.15 as unknown as string }), 400, 'invalid_request'],
      ['a fraction above 1', at({ top: '1.0001' }), 400, 'invalid_request'],
      ['a fraction with a comma', at({ top: '0,5000' }), 400, 'invalid_request'],
      ['page 0', at({ sign_page_number: 0 }), 400, 'invalid_request'],
      ['a page past the end', at({ sign_page_number: 3 }), 422, 'validation.signature_coordinates'],
      [
        'a placement for someone else',
        at({ email_address: 'x@example.test' }),
        422,
        'validation.signature_coordinates',
      ],
      [
        'two placements for one signatory',
        {
          signature_coordinates: [
            { email_address: bob.email, sign_page_number: 1, top: '0.5000', left: '0.5000' },
            { email_address: bob.email, sign_page_number: 2, top: '0.5000', left: '0.5000' },
          ],
        },
        422,
        'validation.signature_coordinates',
      ],
    ];
    for (const [name, over, status, code] of cases) {
      const response = await send('POST', documentId, { ...base, ...over } as FlowBody);
      expect(response.statusCode, `${name}: ${response.body}`).toBe(status);
      expect(response.json<{ code: string }>().code, name).toBe(code);
      expectMatchesContract('createSignFlow', status, response.json());
    }
    expect(await documentState(documentId)).toBe('uploaded');
    expect(await db().selectFrom('sign_flows').selectAll().execute()).toEqual([]);
    expect(await db().selectFrom('sign_flow_participants').selectAll().execute()).toEqual([]);
    expect(await db().selectFrom('invites').selectAll().execute()).toEqual([]);
    expect(await outbox()).toEqual([]);
    expect(await auditOf(documentId)).toEqual([]);
    // The edge values themselves are accepted.
    const edge = await send('POST', documentId, {
      ...base,
      minimum_required_signs: 1,
      sign_page_number: 3,
      signature_coordinates: [
        { email_address: bob.email, sign_page_number: 2, top: '0.1500', left: '0.7200' },
      ],
    });
    expect(edge.statusCode, edge.body).toBe(201);
  });

  it('applies the edit rules of spec 001 §4 and keeps who stays', async () => {
    const documentId = await insertDocument(t.deps, { ownerId: ada.id, pageCount: 2 });
    const body: FlowBody = {
      type: 'standard',
      comment: 'first',
      reviewer_email_addresses: [carol.email],
      signatory_email_addresses: [bob.email, ada.email],
      signature_coordinates: [
        { email_address: bob.email, sign_page_number: 1, top: '0.5000', left: '0.1000' },
        { email_address: ada.email, sign_page_number: 2, top: '0.5000', left: '0.1000' },
      ],
    };
    expect((await send('POST', documentId, body)).statusCode).toBe(201);
    // While in review the reviewers may change.
    const edited = await send('PUT', documentId, {
      ...body,
      reviewer_email_addresses: ['erin@example.test'],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expectMatchesContract('updateSignFlow', 200, edited.json());
    expect(
      byType(edited.json<SignFlowResponse>(), 'reviewers').map((r) => r.attributes.emailAddress),
    ).toEqual(['erin@example.test']);
    // Back to Carol, who approves: the signatures start.
    expect((await send('PUT', documentId, body)).statusCode).toBe(200);
    expect((await act('approve', documentId, carolToken)).statusCode).toBe(200);
    // Bob signs ([5/6] will do this through the lifecycle's sign events).
    await db()
      .updateTable('sign_flow_participants')
      .set({ state: 'signed', signed_at: new Date().toISOString() })
      .where('email', '=', bob.email)
      .execute();
    const bobId = (
      await db()
        .selectFrom('sign_flow_participants')
        .select('id')
        .where('email', '=', bob.email)
        .executeTakeFirstOrThrow()
    ).id;

    const refusals: [string, FlowBody, string][] = [
      ['the type', { ...body, type: 'ordered' }, 'sign_flow.type_locked'],
      [
        'the reviewers after the review',
        { ...body, reviewer_email_addresses: [] },
        'sign_flow.reviewers_locked',
      ],
      [
        'a signed signatory',
        { ...body, signatory_email_addresses: [ada.email], signature_coordinates: [] },
        'sign_flow.signed_signatory_removed',
      ],
      [
        'a signed placement',
        {
          ...body,
          signature_coordinates: [
            { email_address: bob.email, sign_page_number: 1, top: '0.6000', left: '0.1000' },
            { email_address: ada.email, sign_page_number: 2, top: '0.5000', left: '0.1000' },
          ],
        },
        'sign_flow.signed_placement_changed',
      ],
      [
        'the signature page once someone signed',
        { ...body, sign_page_number: 1 },
        'sign_flow.signature_mode_locked',
      ],
    ];
    const before = await getFlow(documentId);
    for (const [name, changed, code] of refusals) {
      const response = await send('PUT', documentId, changed);
      expect(response.statusCode, `${name}: ${response.body}`).toBe(422);
      expect(response.json<{ code: string }>().code, name).toBe(code);
    }
    expect(await getFlow(documentId)).toEqual(before);

    // Allowed: a new signatory (invited), another comment; Bob keeps his id, state and exact placement.
    const sentBefore = (await outbox()).length;
    const grown = await send('PUT', documentId, {
      ...body,
      comment: 'second',
      signatory_email_addresses: [bob.email, ada.email, 'frank@example.test'],
      signature_coordinates: [
        { email_address: bob.email, sign_page_number: 1, top: '0.5000', left: '0.1000' },
        { email_address: ada.email, sign_page_number: 2, top: '0.7000', left: '0.1000' },
      ],
    });
    expect(grown.statusCode, grown.body).toBe(200);
    const flow = grown.json<SignFlowResponse>();
    expect(flow.data.attributes.comment).toBe('second');
    const signatories = byType(flow, 'signatories');
    expect(signatories.map((s) => [s.id === bobId, s.attributes.state])).toEqual([
      [true, 'signed'],
      [false, 'pending'],
      [false, 'invited'],
    ]);
    expect(byType(flow, 'signatureCoordinates').map((c) => [c.attributes.top, c.attributes.left])).toEqual([
      ['0.5000', '0.1000'],
      ['0.7000', '0.1000'],
    ]);
    expect((await outbox()).slice(sentBefore).map((message) => message.to_email)).toEqual([
      'frank@example.test',
    ]);
    expect((await auditOf(documentId)).map((entry) => entry.action)).toEqual([
      'sign_flow.created',
      'sign_flow.updated',
      'sign_flow.updated',
      'sign_flow.approved',
      'sign_flow.updated',
    ]);
  });

  it('cancels, answers document_already_signed when too late, and starts a new flow after an ended one', async () => {
    const documentId = await insertDocument(t.deps, { ownerId: ada.id, pageCount: 1 });
    const body: FlowBody = { type: 'standard', signatory_email_addresses: [bob.email] };
    expect((await send('POST', documentId, body)).statusCode).toBe(201);
    // A second start of a running flow is refused.
    const again = await send('POST', documentId, body);
    expect(again.statusCode).toBe(409);
    expect(again.json<{ code: string }>().code).toBe('action_not_allowed');

    const cancelled = await act('sign_flow', documentId, adaToken);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expectMatchesContract('cancelSignFlow', 200, cancelled.json());
    expect(await documentState(documentId)).toBe('cancelled');
    expect(byType(await getFlow(documentId), 'signatories').map((s) => s.attributes.state)).toEqual([
      'otherrefused',
    ]);
    // An ended flow cannot be edited, but the owner can send the document again with other people.
    expect((await send('PUT', documentId, body)).statusCode).toBe(409);
    const restarted = await send('POST', documentId, {
      type: 'standard',
      signatory_email_addresses: [carol.email],
    });
    expect(restarted.statusCode, restarted.body).toBe(201);
    expect(
      byType(restarted.json<SignFlowResponse>(), 'signatories').map((s) => [
        s.attributes.emailAddress,
        s.attributes.state,
      ]),
    ).toEqual([[carol.email, 'pending']]);
    expect(await documentState(documentId)).toBe('awaiting_signs');

    const signed = await insertDocument(t.deps, { ownerId: ada.id, pageCount: 1 });
    expect((await send('POST', signed, body)).statusCode).toBe(201);
    await db().updateTable('documents').set({ state: 'signed' }).where('id', '=', signed).execute();
    await db().updateTable('sign_flows').set({ state: 'signed' }).where('document_id', '=', signed).execute();
    const late = await act('sign_flow', signed, adaToken);
    expect(late.statusCode).toBe(409);
    expect(late.json<{ code: string }>().code).toBe('document_already_signed');
  });

  it('serialises two approvals and two refusals at the same moment into one consistent result', async () => {
    const reviewed = await insertDocument(t.deps, { ownerId: ada.id, pageCount: 1 });
    const body: FlowBody = {
      type: 'standard',
      reviewer_email_addresses: [bob.email, carol.email],
      signatory_email_addresses: [ada.email],
    };
    expect((await send('POST', reviewed, body)).statusCode).toBe(201);
    const approvals = await Promise.all([
      act('approve', reviewed, bobToken),
      act('approve', reviewed, carolToken),
    ]);
    expect(approvals.map((response) => response.statusCode)).toEqual([200, 200]);
    expect(await documentState(reviewed)).toBe('awaiting_signs');
    expect((await auditOf(reviewed)).filter((entry) => entry.action === 'sign_flow.approved')).toHaveLength(
      2,
    );

    const signing = await insertDocument(t.deps, { ownerId: ada.id, pageCount: 1 });
    expect(
      (await send('POST', signing, { type: 'standard', signatory_email_addresses: [bob.email, carol.email] }))
        .statusCode,
    ).toBe(201);
    const refusals = await Promise.all([
      act('refuse_sign_flow', signing, bobToken, { reason: 'no' }),
      act('refuse_sign_flow', signing, carolToken, { reason: 'no' }),
    ]);
    expect(refusals.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    expect(await documentState(signing)).toBe('refused');
    const states = byType(await getFlow(signing), 'signatories')
      .map((s) => s.attributes.state)
      .sort();
    expect(states).toEqual(['otherrefused', 'refused']);
    expect((await auditOf(signing)).filter((entry) => entry.action === 'sign_flow.refused')).toHaveLength(1);
  });
});
