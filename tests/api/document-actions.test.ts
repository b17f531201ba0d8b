import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { actionDb } from '../../server/documents/access.ts';
import { runAutodeletion } from '../../server/jobs/autodeletion.ts';
import {
  archiveFor,
  bearer,
  buildTestApp,
  expectMatchesContract,
  insertDocument,
  insertSignFlow,
  type TestApp,
  type TestUser,
} from './helpers.ts';

type Attributes = Record<string, unknown> & { state: string; pdfDownloadUrl: string | null };
type DocumentBody = { data: { id: string; attributes: Attributes } };
type ErrorBody = { code: string; blockedIds?: string[] };

const DAY = 86_400_000;

describe('document actions', () => {
  let t: TestApp;
  let now: Date;
  let ada: TestUser;
  let bob: TestUser;
  let adaToken: string;
  let bobToken: string;

  beforeEach(async () => {
    now = new Date('2030-01-10T12:00:00.000Z');
    t = await buildTestApp({ clock: () => now });
    ada = await t.createUser({ email: 'ada@example.test', fullName: 'Ada Lovelace' });
    bob = await t.createUser({ email: 'bob@example.test', fullName: 'Bob Baker' });
    adaToken = await t.signIn(ada.email);
    bobToken = await t.signIn(bob.email);
  });
  afterEach(async () => {
    await t.close();
  });

  async function call(
    method: 'GET' | 'PATCH' | 'DELETE',
    url: string,
    token: string,
    payload?: Record<string, unknown>,
  ) {
    return t.app.inject({
      method,
      url,
      headers: { ...bearer(token), 'user-agent': 'paraph-test' },
      ...(payload === undefined ? {} : { payload }),
    });
  }

  // A document with its original file stored, so a delete has something to remove.
  async function storedDocument(ownerId: string, extra: Parameters<typeof insertDocument>[1] = { ownerId }) {
    const id = await insertDocument(t.deps, { ...extra, ownerId });
    await t.deps.store.put(`documents/${id}/original.pdf`, Buffer.from(`%PDF-1.7 ${id}`), 'application/pdf');
    await t.deps.db
      .insertInto('document_pages')
      .values({
        document_id: id,
        page_number: 1,
        image_key: `documents/${id}/page-1.png`,
        width: 1,
        height: 1,
      })
      .execute();
    await t.deps.store.put(`documents/${id}/page-1.png`, Buffer.from('png'), 'image/png');
    return id;
  }

  async function auditActions(documentId: string): Promise<string[]> {
    const rows = await t.deps.db
      .selectFrom('audit_events')
      .select(['action', 'at'])
      .where('document_id', '=', documentId)
      .orderBy('at')
      .execute();
    return rows.map((row) => row.action);
  }

  async function documentCount(): Promise<number> {
    return (await t.deps.db.selectFrom('documents').select('id').execute()).length;
  }

  it('archives one document for the caller only, with ip and user agent in the audit trail', async () => {
    const id = await insertDocument(t.deps, { ownerId: ada.id });
    await insertSignFlow(t.deps, id, {
      state: 'signed',
      participants: [{ role: 'signatory', email: bob.email, userId: bob.id, state: 'signed' }],
    });
    const response = await call('PATCH', `/api/documents/${id}/archive`, adaToken);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<DocumentBody>();
    expectMatchesContract('archiveDocument', 200, body);
    expect(body.data.attributes).toMatchObject({ currentUserArchived: true, currentUserCanArchive: false });

    const forBob = (await call('GET', `/api/documents/${id}`, bobToken)).json<DocumentBody>();
    expect(forBob.data.attributes.currentUserArchived).toBe(false);
    const audit = await t.deps.db
      .selectFrom('audit_events')
      .selectAll()
      .where('document_id', '=', id)
      .where('action', '=', 'document.archived')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ actor_id: ada.id, user_agent: 'paraph-test', ip: '127.0.0.1' });

    const again = await call('PATCH', `/api/documents/${id}/archive`, adaToken);
    expect(again.statusCode).toBe(409);
    expect(again.json<ErrorBody>().code).toBe('action_not_allowed');
    expectMatchesContract('archiveDocument', 409, again.json());
  });

  it('bulk archive is all or nothing and names the blocking documents', async () => {
    const free = await insertDocument(t.deps, { ownerId: ada.id });
    const signing = await insertDocument(t.deps, { ownerId: ada.id, state: 'signing' });
    const blocked = await call('PATCH', '/api/documents/archive', adaToken, { id: [free, signing] });
    expect(blocked.statusCode).toBe(409);
    expectMatchesContract('archiveDocuments', 409, blocked.json());
    expect(blocked.json<ErrorBody>()).toMatchObject({ code: 'bulk_blocked', blockedIds: [signing] });
    expect(await t.deps.db.selectFrom('document_archives').selectAll().execute()).toEqual([]);

    const unknown = randomUUID();
    const missing = await call('PATCH', '/api/documents/archive', adaToken, { id: [free, unknown] });
    expect(missing.statusCode).toBe(404);
    expectMatchesContract('archiveDocuments', 404, missing.json());
    expect(missing.json<ErrorBody>()).toMatchObject({ code: 'not_found', blockedIds: [unknown] });

    const second = await insertDocument(t.deps, { ownerId: ada.id });
    const ok = await call('PATCH', '/api/documents/archive', adaToken, { id: [second, free] });
    expect(ok.statusCode, ok.body).toBe(200);
    expectMatchesContract('archiveDocuments', 200, ok.json());
    expect(ok.json<{ data: { id: string }[] }>().data.map((doc) => doc.id)).toEqual([second, free]);
    expect(await t.deps.db.selectFrom('document_archives').selectAll().execute()).toHaveLength(2);
  });

  it("owner's delete cancels a running flow, removes rows and files, and keeps the audit trail", async () => {
    const id = await storedDocument(ada.id, {
      ownerId: ada.id,
      state: 'awaiting_signs',
      originalFilename: 'lease.pdf',
    });
    await insertSignFlow(t.deps, id, {
      state: 'awaiting_signs',
      participants: [{ role: 'signatory', email: bob.email, userId: bob.id, state: 'pending' }],
    });
    await archiveFor(t.deps, id, bob.id);
    const response = await call('DELETE', `/api/documents/${id}`, adaToken);
    expect(response.statusCode, response.body).toBe(204);
    expectMatchesContract('deleteDocument', 204, response.body);

    expect(await t.deps.db.selectFrom('documents').selectAll().where('id', '=', id).execute()).toEqual([]);
    for (const table of ['document_pages', 'document_archives', 'sign_flows'] as const) {
      expect(await t.deps.db.selectFrom(table).selectAll().where('document_id', '=', id).execute()).toEqual(
        [],
      );
    }
    expect(await t.deps.db.selectFrom('sign_flow_participants').selectAll().execute()).toEqual([]);
    expect(await t.deps.store.exists(`documents/${id}/original.pdf`)).toBe(false);
    expect(await t.deps.store.exists(`documents/${id}/page-1.png`)).toBe(false);
    expect(await auditActions(id)).toEqual(['sign_flow.cancelled', 'document.deleted']);
    const deleted = await t.deps.db
      .selectFrom('audit_events')
      .select('details')
      .where('document_id', '=', id)
      .where('action', '=', 'document.deleted')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(deleted.details)).toEqual({ originalFilename: 'lease.pdf', sha256: '0'.repeat(64) });
    expect((await call('GET', `/api/documents/${id}`, bobToken)).statusCode).toBe(404);
  });

  it('refuses to delete a document being signed', async () => {
    const id = await storedDocument(ada.id, { ownerId: ada.id, state: 'signing' });
    const response = await call('DELETE', `/api/documents/${id}`, adaToken);
    expect(response.statusCode).toBe(409);
    expect(response.json<ErrorBody>().code).toBe('action_not_allowed');
    expect(await documentCount()).toBe(1);
    expect(await t.deps.store.exists(`documents/${id}/original.pdf`)).toBe(true);
  });

  it('bulk delete is all or nothing: one blocked id leaves every document and file in place', async () => {
    const a = await storedDocument(ada.id);
    const b = await storedDocument(ada.id);
    const signing = await storedDocument(ada.id, { ownerId: ada.id, state: 'signing' });
    const blocked = await call('DELETE', '/api/documents', adaToken, { id: [a, signing, b] });
    expect(blocked.statusCode).toBe(409);
    expectMatchesContract('deleteDocuments', 409, blocked.json());
    expect(blocked.json<ErrorBody>()).toMatchObject({ code: 'bulk_blocked', blockedIds: [signing] });
    expect(await documentCount()).toBe(3);
    expect(await t.deps.store.exists(`documents/${a}/original.pdf`)).toBe(true);
    expect(await auditActions(a)).toEqual([]);

    const ok = await call('DELETE', '/api/documents', adaToken, { id: [a, b] });
    expect(ok.statusCode, ok.body).toBe(204);
    expect(await documentCount()).toBe(1);
    expect(await t.deps.store.exists(`documents/${a}/original.pdf`)).toBe(false);
    expect(await t.deps.store.exists(`documents/${b}/original.pdf`)).toBe(false);
  });

  it("a participant's delete hides the document for them only, and waits until they have acted", async () => {
    const id = await storedDocument(ada.id, { ownerId: ada.id, state: 'in_review' });
    await insertSignFlow(t.deps, id, {
      state: 'in_review',
      participants: [{ role: 'reviewer', email: bob.email, userId: bob.id, state: 'pending' }],
    });
    const pending = await call('DELETE', `/api/documents/${id}`, bobToken);
    expect(pending.statusCode).toBe(409);
    expectMatchesContract('deleteDocument', 409, pending.json());
    expect(pending.json<ErrorBody>().code).toBe('participant_action_pending');

    const approved = await call('PATCH', `/api/documents/${id}/approve`, bobToken);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json<DocumentBody>().data.attributes.currentUserCanDelete).toBe(true);

    type ListBody = { data: { id: string }[]; meta: { totalPages: number } };
    const bobsList = async (category: string) =>
      (await call('GET', `/api/documents/${category}`, bobToken)).json<ListBody>().data.map((d) => d.id);
    expect(await bobsList('active')).toContain(id);

    const response = await call('DELETE', `/api/documents/${id}`, bobToken);
    expect(response.statusCode, response.body).toBe(204);
    // Gone from every one of Bob's lists; still in Ada's.
    for (const category of ['active', 'in_progress', 'archived']) {
      expect(await bobsList(category)).not.toContain(id);
    }
    const adaList = await call('GET', '/api/documents/active', adaToken);
    expect(adaList.json<ListBody>().data.map((d) => d.id)).toContain(id);
    expect((await call('GET', `/api/documents/${id}`, bobToken)).statusCode).toBe(404);
    expect((await call('GET', `/api/documents/${id}/sign_flow`, bobToken)).statusCode).toBe(404);
    expect((await call('PATCH', `/api/documents/${id}/archive`, bobToken)).statusCode).toBe(404);
    const forAda = await call('GET', `/api/documents/${id}`, adaToken);
    expect(forAda.statusCode).toBe(200);
    expect(await t.deps.store.exists(`documents/${id}/original.pdf`)).toBe(true);
    expect(await auditActions(id)).toContain('document.deleted_for_participant');
  });

  it('auto-deletion removes expired documents with their files, keeps the trail and skips a running flow', async () => {
    const old = new Date(now.getTime() - 400 * DAY);
    const expired = await storedDocument(ada.id, {
      ownerId: ada.id,
      createdAt: old,
      autodeletionAt: new Date(now.getTime() - DAY),
    });
    const running = await storedDocument(ada.id, {
      ownerId: ada.id,
      state: 'awaiting_signs',
      createdAt: old,
      autodeletionAt: new Date(now.getTime() - DAY),
    });
    await insertSignFlow(t.deps, running, {
      state: 'awaiting_signs',
      participants: [{ role: 'signatory', email: bob.email, userId: bob.id, state: 'pending' }],
    });
    const young = await storedDocument(ada.id, {
      ownerId: ada.id,
      autodeletionAt: new Date(now.getTime() + DAY),
    });

    expect(await runAutodeletion(t.deps)).toBe(1);
    const left = (await t.deps.db.selectFrom('documents').select('id').execute()).map((row) => row.id).sort();
    expect(left).toEqual([running, young].sort());
    expect(await t.deps.store.exists(`documents/${expired}/original.pdf`)).toBe(false);
    expect(await auditActions(expired)).toEqual(['document.autodeleted']);

    // The flow ends (Bob refuses); the next run deletes it, and a later clock reaches the young one.
    expect((await call('PATCH', `/api/documents/${running}/refuse_sign_flow`, bobToken, {})).statusCode).toBe(
      200,
    );
    expect(await runAutodeletion(t.deps)).toBe(1);
    now = new Date(now.getTime() + 2 * DAY);
    expect(await runAutodeletion(t.deps)).toBe(1);
    expect(await documentCount()).toBe(0);
    expect(await auditActions(running)).toEqual(['sign_flow.refused', 'document.autodeleted']);
  });

  it('pdfDownloadUrl: only for signed documents; the signed file, as an attachment under a safe name', async () => {
    const name = '"><img src=x onerror=alert(1)>/../Überweisung.pdf';
    const id = await insertDocument(t.deps, {
      ownerId: ada.id,
      state: 'signed',
      originalFilename: name,
      signedFileKey: 'signed/x/final.pdf',
    });
    const signedBytes = Buffer.from('%PDF-1.7 the signed one');
    await t.deps.store.put('signed/x/final.pdf', signedBytes, 'application/pdf');
    await t.deps.store.put(
      `documents/${id}/original.pdf`,
      Buffer.from('%PDF-1.7 original'),
      'application/pdf',
    );
    const body = (await call('GET', `/api/documents/${id}`, adaToken)).json<DocumentBody>();
    expectMatchesContract('getDocument', 200, body);
    const url = body.data.attributes.pdfDownloadUrl;
    expect(url).toMatch(/X-Amz-Expires=900(&|$)/);
    const download = await t.app.inject({ method: 'GET', url: String(url) });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(signedBytes)).toBe(true);
    const disposition = String(download.headers['content-disposition']);
    expect(disposition).toMatch(/^attachment; filename="[^"\\/<>]*"; filename\*=UTF-8''[A-Za-z0-9%._~-]+$/);
    // Markup, quotes and path separators become "_"; the non-ASCII name survives in filename*.
    expect(disposition).toBe(
      `attachment; filename="___img src=x onerror=alert(1)__.._Uberweisung.pdf"; ` +
        `filename*=UTF-8''___img%20src%3Dx%20onerror%3Dalert%281%29__.._%C3%9Cberweisung.pdf`,
    );

    const unsigned = await insertDocument(t.deps, { ownerId: ada.id });
    const plain = (await call('GET', `/api/documents/${unsigned}`, adaToken)).json<DocumentBody>();
    expect(plain.data.attributes.pdfDownloadUrl).toBeNull();
  });

  it('a signed document without a signed file downloads its original bytes', async () => {
    const id = await insertDocument(t.deps, {
      ownerId: ada.id,
      state: 'signed',
      originalFilename: 'deal.pdf',
    });
    const bytes = Buffer.from('%PDF-1.7 original bytes');
    await t.deps.store.put(`documents/${id}/original.pdf`, bytes, 'application/pdf');
    const body = (await call('GET', `/api/documents/${id}`, adaToken)).json<DocumentBody>();
    const download = await t.app.inject({ method: 'GET', url: String(body.data.attributes.pdfDownloadUrl) });
    expect(download.rawPayload.equals(bytes)).toBe(true);
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="deal.pdf"; filename*=UTF-8''deal.pdf`,
    );
  });
});

describe('sign flows', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  const tokens = new Map<string, string>();

  beforeEach(async () => {
    t = await buildTestApp();
    ada = await t.createUser({ email: 'ada@example.test', fullName: 'Ada Lovelace' });
    bob = await t.createUser({ email: 'bob@example.test', fullName: 'Bob Baker' });
    carol = await t.createUser({ email: 'carol@example.test', fullName: 'Carol Chen' });
    for (const user of [ada, bob, carol]) tokens.set(user.id, await t.signIn(user.email));
  });
  afterEach(async () => {
    await t.close();
  });

  function call(
    method: 'GET' | 'PATCH' | 'DELETE',
    url: string,
    user: TestUser,
    payload?: Record<string, unknown>,
  ) {
    return t.app.inject({
      method,
      url,
      headers: bearer(tokens.get(user.id) ?? ''),
      ...(payload === undefined ? {} : { payload }),
    });
  }

  async function participantStates(documentId: string): Promise<Record<string, string>> {
    const response = await call('GET', `/api/documents/${documentId}/sign_flow`, ada);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{
      included: { type: string; attributes: { emailAddress: string; state: string } }[];
    }>();
    expectMatchesContract('getSignFlow', 200, body);
    return Object.fromEntries(
      body.included.map((entry) => [
        `${entry.type}:${entry.attributes.emailAddress}`,
        entry.attributes.state,
      ]),
    );
  }

  async function flowDocument(
    state: 'in_review' | 'awaiting_signs' | 'signed',
    participants: Parameters<typeof insertSignFlow>[2]['participants'],
    type: 'ordered' | 'standard' = 'standard',
  ) {
    const id = await insertDocument(t.deps, { ownerId: ada.id, state });
    await insertSignFlow(t.deps, id, { state, type, participants });
    return id;
  }

  it('getSignFlow answers the flow with participants in the contract states; 404 no_sign_flow without one', async () => {
    const id = await flowDocument(
      'in_review',
      [
        { role: 'reviewer', email: bob.email, userId: bob.id, state: 'pending' },
        { role: 'signatory', email: carol.email, userId: carol.id, state: 'waiting' },
        { role: 'signatory', email: 'new@example.test', state: 'waiting' },
      ],
      'ordered',
    );
    const response = await call('GET', `/api/documents/${id}/sign_flow`, bob);
    const body = response.json<{
      data: { type: string; attributes: Record<string, unknown> };
      included: { attributes: Record<string, unknown> }[];
    }>();
    expectMatchesContract('getSignFlow', 200, body);
    expect(body.data.type).toBe('orderedSignFlows');
    expect(body.data.attributes).toMatchObject({
      state: 'in_review',
      signedCount: 0,
      minimumRequiredSigns: 0,
      signPageNumber: 0,
    });
    expect(
      body.included.map((entry) => [
        entry.attributes.emailAddress,
        entry.attributes.fullName,
        entry.attributes.state,
      ]),
    ).toEqual([
      [carol.email, 'Carol Chen', 'new'],
      ['new@example.test', null, 'new'],
      [bob.email, 'Bob Baker', 'pending'],
    ]);

    const bare = await insertDocument(t.deps, { ownerId: ada.id });
    const none = await call('GET', `/api/documents/${bare}/sign_flow`, ada);
    expect(none.statusCode).toBe(404);
    expectMatchesContract('getSignFlow', 404, none.json());
    expect(none.json<ErrorBody>().code).toBe('no_sign_flow');
  });

  it('approve: the last approval starts the signatures (only the first in an ordered flow)', async () => {
    const id = await flowDocument(
      'in_review',
      [
        { role: 'reviewer', email: bob.email, userId: bob.id, state: 'pending' },
        { role: 'reviewer', email: carol.email, userId: carol.id, state: 'pending' },
        { role: 'signatory', email: ada.email, userId: ada.id, state: 'waiting' },
        { role: 'signatory', email: bob.email, userId: bob.id, state: 'waiting' },
      ],
      'ordered',
    );
    const first = await call('PATCH', `/api/documents/${id}/approve`, bob);
    expect(first.statusCode, first.body).toBe(200);
    expectMatchesContract('approveDocument', 200, first.json());
    expect(first.json<DocumentBody>().data.attributes.state).toBe('in_review');
    const twice = await call('PATCH', `/api/documents/${id}/approve`, bob);
    expect(twice.statusCode).toBe(409);
    expect(twice.json<ErrorBody>().code).toBe('action_not_allowed');

    const last = await call('PATCH', `/api/documents/${id}/approve`, carol);
    expect(last.json<DocumentBody>().data.attributes.state).toBe('awaiting_signs');
    expect(await participantStates(id)).toEqual({
      [`reviewers:${bob.email}`]: 'approved',
      [`reviewers:${carol.email}`]: 'approved',
      [`signatories:${ada.email}`]: 'pending',
      [`signatories:${bob.email}`]: 'new',
    });
  });

  it('reject: the document is rejected and the other reviewers otherrejected', async () => {
    const id = await flowDocument('in_review', [
      { role: 'reviewer', email: bob.email, userId: bob.id, state: 'pending' },
      { role: 'reviewer', email: carol.email, userId: carol.id, state: 'pending' },
      { role: 'signatory', email: ada.email, userId: ada.id, state: 'waiting' },
    ]);
    const response = await call('PATCH', `/api/documents/${id}/reject`, bob);
    expect(response.statusCode, response.body).toBe(200);
    expectMatchesContract('rejectDocument', 200, response.json());
    expect(response.json<DocumentBody>().data.attributes.state).toBe('rejected');
    expect(await participantStates(id)).toEqual({
      [`reviewers:${bob.email}`]: 'rejected',
      [`reviewers:${carol.email}`]: 'otherrejected',
      [`signatories:${ada.email}`]: 'otherrefused',
    });
    expect((await call('PATCH', `/api/documents/${id}/reject`, carol)).statusCode).toBe(409);
  });

  it('refuse: with a reason; the document is refused and the others otherrefused', async () => {
    const id = await flowDocument('awaiting_signs', [
      { role: 'signatory', email: bob.email, userId: bob.id, state: 'pending' },
      { role: 'signatory', email: carol.email, userId: carol.id, state: 'signed' },
      { role: 'signatory', email: ada.email, userId: ada.id, state: 'pending' },
    ]);
    const tooLong = await call('PATCH', `/api/documents/${id}/refuse_sign_flow`, bob, {
      reason: 'x'.repeat(128),
    });
    expect(tooLong.statusCode).toBe(400);
    const notSignatory = await call('PATCH', `/api/documents/${id}/refuse_sign_flow`, carol, {});
    expect(notSignatory.statusCode).toBe(409);
    const response = await call('PATCH', `/api/documents/${id}/refuse_sign_flow`, bob, {
      reason: '  Wrong totals ',
    });
    expect(response.statusCode, response.body).toBe(200);
    expectMatchesContract('refuseSignFlow', 200, response.json());
    expect(response.json<DocumentBody>().data.attributes.state).toBe('refused');
    expect(await participantStates(id)).toEqual({
      [`signatories:${bob.email}`]: 'refused',
      [`signatories:${carol.email}`]: 'signed',
      [`signatories:${ada.email}`]: 'otherrefused',
    });
    const flow = (await call('GET', `/api/documents/${id}/sign_flow`, ada)).json<{
      included: { attributes: { emailAddress: string; comment?: string | null } }[];
    }>();
    expect(
      flow.included.find((entry) => entry.attributes.emailAddress === bob.email)?.attributes.comment,
    ).toBe('Wrong totals');
  });

  it('cancel: owner only, for a running flow; a signed one answers document_already_signed', async () => {
    const id = await flowDocument('awaiting_signs', [
      { role: 'signatory', email: bob.email, userId: bob.id, state: 'pending' },
    ]);
    const byBob = await call('DELETE', `/api/documents/${id}/sign_flow`, bob);
    expect(byBob.statusCode).toBe(409);
    expect(byBob.json<ErrorBody>().code).toBe('action_not_allowed');
    const response = await call('DELETE', `/api/documents/${id}/sign_flow`, ada);
    expect(response.statusCode, response.body).toBe(200);
    expectMatchesContract('cancelSignFlow', 200, response.json());
    expect(response.json<DocumentBody>().data.attributes.state).toBe('cancelled');
    expect(await participantStates(id)).toEqual({ [`signatories:${bob.email}`]: 'otherrefused' });
    const audit = await t.deps.db
      .selectFrom('audit_events')
      .select('action')
      .where('document_id', '=', id)
      .execute();
    expect(audit.map((row) => row.action)).toEqual(['sign_flow.cancelled']);

    const signed = await flowDocument('signed', [
      { role: 'signatory', email: bob.email, userId: bob.id, state: 'signed' },
    ]);
    const late = await call('DELETE', `/api/documents/${signed}/sign_flow`, ada);
    expect(late.statusCode).toBe(409);
    expectMatchesContract('cancelSignFlow', 409, late.json());
    expect(late.json<ErrorBody>().code).toBe('document_already_signed');
  });

  it('acceptInvite links the caller to the invited participant rows and answers the document', async () => {
    const id = await flowDocument('awaiting_signs', [
      { role: 'signatory', email: 'dave@example.test', state: 'pending' },
    ]);
    const inviteId = randomUUID();
    await actionDb(t.deps.db)
      .insertInto('invites')
      .values({
        id: inviteId,
        email: 'dave@example.test',
        document_id: id,
        sign_flow_id: null,
        created_at: new Date().toISOString(),
        accepted_at: null,
        accepted_by: null,
      })
      .execute();
    const wrongPerson = await call('PATCH', '/api/invites/accept', bob, { invite_id: inviteId });
    expect(wrongPerson.statusCode).toBe(404);
    expectMatchesContract('acceptInvite', 404, wrongPerson.json());
    expect((await call('PATCH', '/api/invites/accept', bob, { invite_id: randomUUID() })).statusCode).toBe(
      404,
    );

    const dave = await t.createUser({ email: 'dave@example.test', fullName: 'Dave Doe' });
    tokens.set(dave.id, await t.signIn(dave.email));
    const response = await call('PATCH', '/api/invites/accept', dave, { invite_id: inviteId });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{
      data: { id: string };
      included: { id: string; attributes: Attributes }[];
    }>();
    expectMatchesContract('acceptInvite', 200, body);
    expect(body.data.id).toBe(inviteId);
    expect(body.included.map((doc) => doc.id)).toEqual([id]);
    expect(body.included[0]?.attributes.currentUserCanSign).toBe(true);
    const participant = await t.deps.db
      .selectFrom('sign_flow_participants')
      .select('user_id')
      .executeTakeFirstOrThrow();
    expect(participant.user_id).toBe(dave.id);
    const invite = await actionDb(t.deps.db).selectFrom('invites').selectAll().executeTakeFirstOrThrow();
    expect(invite.accepted_by).toBe(dave.id);
  });
});
