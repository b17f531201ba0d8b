// Every operation of [2/6] on someone else's document: a user who is neither owner nor participant gets
// 404, exactly as for an id that does not exist, and nothing in the database or the store changes.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionDb } from '../../server/documents/access.ts';
import {
  bearer,
  buildTestApp,
  expectMatchesContract,
  insertDocument,
  insertSignFlow,
  type TestApp,
} from './helpers.ts';

type Ids = { review: string; signing: string; signed: string; invite: string };
type Case = {
  operationId: string;
  method: 'GET' | 'PATCH' | 'DELETE';
  url: (ids: Ids) => string;
  payload?: (ids: Ids) => Record<string, unknown>;
};

const CASES: Case[] = [
  { operationId: 'getDocument', method: 'GET', url: (ids) => `/api/documents/${ids.review}` },
  // The download link lives in the document: a stranger never gets one.
  { operationId: 'getDocument', method: 'GET', url: (ids) => `/api/documents/${ids.signed}` },
  { operationId: 'getSignFlow', method: 'GET', url: (ids) => `/api/documents/${ids.review}/sign_flow` },
  { operationId: 'archiveDocument', method: 'PATCH', url: (ids) => `/api/documents/${ids.signed}/archive` },
  {
    operationId: 'archiveDocuments',
    method: 'PATCH',
    url: () => '/api/documents/archive',
    payload: (ids) => ({ id: [ids.signed] }),
  },
  { operationId: 'deleteDocument', method: 'DELETE', url: (ids) => `/api/documents/${ids.signed}` },
  {
    operationId: 'deleteDocuments',
    method: 'DELETE',
    url: () => '/api/documents',
    payload: (ids) => ({ id: [ids.signed, ids.review] }),
  },
  { operationId: 'approveDocument', method: 'PATCH', url: (ids) => `/api/documents/${ids.review}/approve` },
  { operationId: 'rejectDocument', method: 'PATCH', url: (ids) => `/api/documents/${ids.review}/reject` },
  {
    operationId: 'refuseSignFlow',
    method: 'PATCH',
    url: (ids) => `/api/documents/${ids.signing}/refuse_sign_flow`,
    payload: () => ({ reason: 'no' }),
  },
  {
    operationId: 'cancelSignFlow',
    method: 'DELETE',
    url: (ids) => `/api/documents/${ids.signing}/sign_flow`,
  },
  {
    operationId: 'acceptInvite',
    method: 'PATCH',
    url: () => '/api/invites/accept',
    payload: (ids) => ({ invite_id: ids.invite }),
  },
];

describe('access: someone who is neither owner nor participant', () => {
  let t: TestApp;
  let ids: Ids;
  let strangerToken: string;
  let ownerToken: string;

  beforeAll(async () => {
    t = await buildTestApp();
    const owner = await t.createUser({ email: 'owner@example.test' });
    const bob = await t.createUser({ email: 'bob@example.test' });
    await t.createUser({ email: 'stranger@example.test' });
    ownerToken = await t.signIn(owner.email);
    strangerToken = await t.signIn('stranger@example.test');

    const review = await insertDocument(t.deps, { ownerId: owner.id, state: 'in_review' });
    await insertSignFlow(t.deps, review, {
      state: 'in_review',
      participants: [
        { role: 'reviewer', email: bob.email, userId: bob.id, state: 'pending' },
        { role: 'signatory', email: 'invited@example.test', state: 'waiting' },
      ],
    });
    const signing = await insertDocument(t.deps, { ownerId: owner.id, state: 'awaiting_signs' });
    await insertSignFlow(t.deps, signing, {
      state: 'awaiting_signs',
      participants: [{ role: 'signatory', email: bob.email, userId: bob.id, state: 'pending' }],
    });
    const signed = await insertDocument(t.deps, { ownerId: owner.id, state: 'signed' });
    for (const id of [review, signing, signed]) {
      await t.deps.store.put(`documents/${id}/original.pdf`, Buffer.from(`%PDF ${id}`), 'application/pdf');
    }
    const invite = randomUUID();
    await actionDb(t.deps.db)
      .insertInto('invites')
      .values({
        id: invite,
        email: 'invited@example.test',
        document_id: review,
        sign_flow_id: null,
        created_at: new Date().toISOString(),
        accepted_at: null,
        accepted_by: null,
      })
      .execute();
    ids = { review, signing, signed, invite };
  });
  afterAll(async () => {
    await t.close();
  });

  async function snapshot(): Promise<unknown> {
    const db = actionDb(t.deps.db);
    const files = await Promise.all(
      [ids.review, ids.signing, ids.signed].map((id) => t.deps.store.exists(`documents/${id}/original.pdf`)),
    );
    return {
      documents: await db.selectFrom('documents').selectAll().orderBy('id').execute(),
      flows: await db.selectFrom('sign_flows').selectAll().orderBy('id').execute(),
      participants: await db.selectFrom('sign_flow_participants').selectAll().orderBy('id').execute(),
      archives: await db.selectFrom('document_archives').selectAll().execute(),
      hides: await db.selectFrom('document_hides').selectAll().execute(),
      invites: await db.selectFrom('invites').selectAll().execute(),
      audit: await db.selectFrom('audit_events').selectAll().orderBy('id').execute(),
      files,
    };
  }

  it.each(
    CASES.map(
      (entry) =>
        [
          `${entry.method} ${entry.url({ review: ':review', signing: ':signing', signed: ':signed', invite: ':invite' })}`,
          entry,
        ] as const,
    ),
  )('%s answers 404 and changes nothing', async (_label, entry) => {
    const before = await snapshot();
    const response = await t.app.inject({
      method: entry.method,
      url: entry.url(ids),
      headers: bearer(strangerToken),
      ...(entry.payload === undefined ? {} : { payload: entry.payload(ids) }),
    });
    expect(response.statusCode, response.body).toBe(404);
    expectMatchesContract(entry.operationId, 404, response.json());
    expect(response.json<{ code: string }>().code).toBe('not_found');
    expect(response.body).not.toContain('X-Amz-Signature');
    expect(await snapshot()).toEqual(before);
  });

  it('the owner still reaches the same documents (the 404s are about the caller)', async () => {
    for (const id of [ids.review, ids.signing, ids.signed]) {
      const response = await t.app.inject({ url: `/api/documents/${id}`, headers: bearer(ownerToken) });
      expect(response.statusCode).toBe(200);
    }
  });
});
