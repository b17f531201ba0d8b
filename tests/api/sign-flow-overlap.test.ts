// Two signatories' signature boxes may not overlap on a page (machines/placement-overlap.ts): the server
// refuses such a flow, created or edited, whoever sends it, with 422 `validation.signature_overlap`.
// Whether boxes overlap depends on the page's shape, which the server reads from its rendered pages.
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

type FlowBody = components['schemas']['SignFlowRequest']['sign_flow'];
type Coordinate = components['schemas']['SignatureCoordinateInput'];
type ErrorBody = { code: string; message: string; field?: string; validations?: Record<string, string[]> };

describe('overlapping signature boxes', () => {
  let t: TestApp;
  let ada: TestUser;
  let adaToken: string;
  const bob = 'bob@example.test';
  const carol = 'carol@example.test';
  const dave = 'dave@example.test';

  beforeEach(async () => {
    t = await buildTestApp();
    ada = await t.createUser({ email: 'ada@example.test', fullName: 'Ada Lovelace' });
    adaToken = await t.signIn(ada.email);
  });

  afterEach(async () => {
    await t.close();
  });

  const db = () => actionDb(t.deps.db);

  const at = (email: string, page: number, left: string, top: string): Coordinate => ({
    email_address: email,
    sign_page_number: page,
    left,
    top,
  });

  function send(method: 'POST' | 'PUT', documentId: string, body: FlowBody) {
    return t.app.inject({
      method,
      url: `/api/documents/${documentId}/sign_flow`,
      headers: bearer(adaToken),
      payload: { sign_flow: body },
    });
  }

  const flow = (coordinates: Coordinate[], signatories = [bob, carol]): FlowBody => ({
    type: 'standard',
    signatory_email_addresses: signatories,
    signature_coordinates: coordinates,
  });

  async function renderedPage(documentId: string, pageNumber: number, width: number, height: number) {
    await db()
      .insertInto('document_pages')
      .values({
        document_id: documentId,
        page_number: pageNumber,
        image_key: `documents/${documentId}/pages/${pageNumber}.png`,
        width,
        height,
      })
      .execute();
  }

  it('refuses two boxes that overlap, naming both and the page, and stores nothing', async () => {
    const documentId = await insertDocument(t.deps, { ownerId: ada.id, pageCount: 2 });
    const response = await send(
      'POST',
      documentId,
      flow([at(bob, 2, '0.1000', '0.3000'), at(carol, 2, '0.2000', '0.3500')]),
    );
    expect(response.statusCode, response.body).toBe(422);
    const body = response.json<ErrorBody>();
    expectMatchesContract('createSignFlow', 422, body);
    expect(body.code).toBe('validation.signature_overlap');
    expect(body.field).toBe('signature_coordinates');
    expect(body.validations).toEqual({
      signature_coordinates: [`The signatures of ${bob} and ${carol} overlap on page 2.`],
    });
    expect(await db().selectFrom('sign_flows').selectAll().execute()).toEqual([]);
    expect(await db().selectFrom('signature_placements').selectAll().execute()).toEqual([]);
  });

  it('accepts boxes on different pages and boxes that only touch at an edge or a corner', async () => {
    const cases: [string, Coordinate[]][] = [
      ['the same spot on two pages', [at(bob, 1, '0.1000', '0.3000'), at(carol, 2, '0.1000', '0.3000')]],
      ['side by side, touching', [at(bob, 1, '0.1000', '0.3000'), at(carol, 1, '0.3800', '0.3000')]],
      // 0.3 - 0.02 is a hair under 0.28 in floating point: still touching.
      ['touching, in floating point', [at(bob, 1, '0.0200', '0.3000'), at(carol, 1, '0.3000', '0.3000')]],
      // An A4 page (no rendered image yet) is 1.414 times as high as wide: the box is 10.61 % of it.
      ['one under the other', [at(bob, 1, '0.1000', '0.3000'), at(carol, 1, '0.1000', '0.4061')]],
      ['corner to corner', [at(bob, 1, '0.1000', '0.3000'), at(carol, 1, '0.3800', '0.4061')]],
    ];
    for (const [name, coordinates] of cases) {
      const documentId = await insertDocument(t.deps, { ownerId: ada.id, pageCount: 2 });
      const response = await send('POST', documentId, flow(coordinates));
      expect(response.statusCode, `${name}: ${response.body}`).toBe(201);
    }
    const documentId = await insertDocument(t.deps, { ownerId: ada.id, pageCount: 2 });
    const crossing = await send(
      'POST',
      documentId,
      flow([at(bob, 1, '0.1000', '0.3000'), at(carol, 1, '0.3799', '0.3000')]),
    );
    expect(crossing.json<ErrorBody>().code).toBe('validation.signature_overlap');
  });

  it('reads each page’s shape from its rendered image', async () => {
    const documentId = await insertDocument(t.deps, { ownerId: ada.id, pageCount: 3 });
    // Page 1 square: a box is 15 % of its height; page 2 A4; page 3 not rendered (counted as A4).
    await renderedPage(documentId, 1, 1000, 1000);
    await renderedPage(documentId, 2, 1240, 1754);
    const apart = (page: number) => [at(bob, page, '0.1000', '0.3000'), at(carol, page, '0.1000', '0.4200')];
    const square = await send('POST', documentId, flow(apart(1)));
    expect(square.statusCode, square.body).toBe(422);
    expect(square.json<ErrorBody>().validations?.signature_coordinates).toEqual([
      `The signatures of ${bob} and ${carol} overlap on page 1.`,
    ]);
    expect((await send('POST', documentId, flow(apart(2)))).statusCode).toBe(201);
    expect((await send('PUT', documentId, flow(apart(3)))).statusCode).toBe(200);
  });

  it('refuses an edit that moves a box onto a signed one, and lets two signed boxes that overlap be', async () => {
    const documentId = await insertDocument(t.deps, { ownerId: ada.id, pageCount: 1 });
    const signatories = [bob, carol, dave];
    const placed = [
      at(bob, 1, '0.1000', '0.3000'),
      at(carol, 1, '0.5000', '0.3000'),
      at(dave, 1, '0.1000', '0.7000'),
    ];
    expect((await send('POST', documentId, flow(placed, signatories))).statusCode).toBe(201);
    // Bob and Carol have signed, on boxes that overlap: a flow saved before the rule, or by another client.
    await db()
      .updateTable('signature_placements')
      .set({ left_fraction: '0.2000' })
      .where('left_fraction', '=', '0.5000')
      .execute();
    await db()
      .updateTable('sign_flow_participants')
      .set({ state: 'signed', signed_at: new Date().toISOString() })
      .where('email', 'in', [bob, carol])
      .execute();
    const stored = [
      at(bob, 1, '0.1000', '0.3000'),
      at(carol, 1, '0.2000', '0.3000'),
      placed[2] as Coordinate,
    ];

    const comment = await send('PUT', documentId, { ...flow(stored, signatories), comment: 'Still there' });
    expect(comment.statusCode, comment.body).toBe(200);

    const onBob = await send('PUT', documentId, {
      ...flow([...stored.slice(0, 2), at(dave, 1, '0.1500', '0.3500')], signatories),
    });
    expect(onBob.statusCode, onBob.body).toBe(422);
    const body = onBob.json<ErrorBody>();
    expectMatchesContract('updateSignFlow', 422, body);
    expect(body.validations?.signature_coordinates).toEqual([
      `The signatures of ${bob} and ${dave} overlap on page 1.`,
      `The signatures of ${carol} and ${dave} overlap on page 1.`,
    ]);
    const daveBox = await db()
      .selectFrom('signature_placements')
      .select(['left_fraction', 'top_fraction'])
      .where('left_fraction', '=', '0.1000')
      .where('top_fraction', '=', '0.7000')
      .execute();
    expect(daveBox).toHaveLength(1);
  });
});
