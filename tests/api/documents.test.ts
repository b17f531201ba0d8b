import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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

type DocumentBody = {
  id: string;
  type: string;
  attributes: Record<string, unknown> & { originalFilename: string };
};
type ListBody = {
  data: DocumentBody[];
  links: { first: string; prev: string | null; self: string; next: string | null; last: string };
  meta: { currentPage: number; totalPages: number; showAutodeleteDate: boolean };
};

const DAY = 86_400_000;

describe('document lists and details', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let token: string;
  const start = new Date('2030-05-01T09:00:00.000Z');

  beforeEach(async () => {
    t = await buildTestApp();
    ada = await t.createUser({ email: 'ada@example.test', fullName: 'Ada Lovelace' });
    bob = await t.createUser({ email: 'bob@example.test', fullName: 'Bob Baker' });
    token = await t.signIn(ada.email);
  });
  afterEach(async () => {
    await t.close();
  });

  async function list(url: string, operationId = 'listActiveDocuments'): Promise<ListBody> {
    const response = await t.app.inject({ url, headers: bearer(token) });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<ListBody>();
    expectMatchesContract(operationId, 200, body);
    return body;
  }

  it('pages 25 documents as 20 + 5, newest first, with links and meta', async () => {
    for (let i = 0; i < 25; i += 1) {
      await insertDocument(t.deps, {
        ownerId: ada.id,
        originalFilename: `doc-${String(i).padStart(2, '0')}.pdf`,
        createdAt: new Date(start.getTime() + i * DAY),
      });
    }
    const first = await list('/api/documents/active');
    expect(first.data).toHaveLength(20);
    expect(first.data[0]?.attributes.originalFilename).toBe('doc-24.pdf');
    expect(first.data[19]?.attributes.originalFilename).toBe('doc-05.pdf');
    expect(first.meta).toEqual({ currentPage: 1, totalPages: 2, showAutodeleteDate: true });
    expect(first.links).toEqual({
      first: '/api/documents/active?page=1',
      prev: null,
      self: '/api/documents/active?page=1',
      next: '/api/documents/active?page=2',
      last: '/api/documents/active?page=2',
    });

    const second = await list(first.links.next ?? '');
    expect(second.data.map((doc) => doc.attributes.originalFilename)).toEqual([
      'doc-04.pdf',
      'doc-03.pdf',
      'doc-02.pdf',
      'doc-01.pdf',
      'doc-00.pdf',
    ]);
    expect(second.meta.currentPage).toBe(2);
    expect(second.links.prev).toBe('/api/documents/active?page=1');
    expect(second.links.next).toBeNull();

    // Past the end: no rows, and the meta lets the app step back.
    const past = await list('/api/documents/active?page=3');
    expect(past.data).toEqual([]);
    expect(past.meta).toMatchObject({ currentPage: 3, totalPages: 2 });
    expect(past.links.prev).toBe('/api/documents/active?page=2');
  });

  it('an empty list still has one page', async () => {
    const body = await list('/api/documents/active');
    expect(body.data).toEqual([]);
    expect(body.meta.totalPages).toBe(1);
    expect(body.links.last).toBe('/api/documents/active?page=1');
  });

  it('searches trimmed text in file names case-insensitively, escaping LIKE wildcards, and keeps the query in links', async () => {
    await insertDocument(t.deps, { ownerId: ada.id, originalFilename: 'Quarterly REPORT.pdf' });
    await insertDocument(t.deps, { ownerId: ada.id, originalFilename: 'report_2030.pdf' });
    await insertDocument(t.deps, { ownerId: ada.id, originalFilename: 'report-2030 100%.pdf' });
    await insertDocument(t.deps, { ownerId: ada.id, originalFilename: 'invoice.pdf' });

    const found = await list(`/api/documents/active?search=${encodeURIComponent('  report ')}`);
    expect(found.data.map((doc) => doc.attributes.originalFilename).sort()).toEqual([
      'Quarterly REPORT.pdf',
      'report-2030 100%.pdf',
      'report_2030.pdf',
    ]);
    expect(found.links.self).toBe('/api/documents/active?search=report&page=1');

    const underscore = await list(`/api/documents/active?search=${encodeURIComponent('report_')}`);
    expect(underscore.data.map((doc) => doc.attributes.originalFilename)).toEqual(['report_2030.pdf']);
    const percent = await list(`/api/documents/active?search=${encodeURIComponent('100%')}`);
    expect(percent.data.map((doc) => doc.attributes.originalFilename)).toEqual(['report-2030 100%.pdf']);
    const nothing = await list(`/api/documents/active?search=${encodeURIComponent('%')}`);
    expect(nothing.data.map((doc) => doc.attributes.originalFilename)).toEqual(['report-2030 100%.pdf']);
  });

  it("searches the owner's and the participants' names and e-mail addresses", async () => {
    const carol = await t.createUser({ email: 'carol@example.test', fullName: 'Carol Chen' });
    const shared = await insertDocument(t.deps, {
      ownerId: bob.id,
      originalFilename: 'shared.pdf',
      state: 'awaiting_signs',
    });
    await insertSignFlow(t.deps, shared, {
      state: 'awaiting_signs',
      participants: [
        { role: 'signatory', email: ada.email, userId: ada.id, state: 'pending' },
        { role: 'signatory', email: carol.email, userId: carol.id, state: 'pending' },
      ],
    });
    await insertDocument(t.deps, { ownerId: ada.id, originalFilename: 'mine.pdf' });

    const byOwnerName = await list('/api/documents/active?search=baker');
    expect(byOwnerName.data.map((doc) => doc.attributes.originalFilename)).toEqual(['shared.pdf']);
    const byParticipantName = await list('/api/documents/active?search=CHEN');
    expect(byParticipantName.data.map((doc) => doc.attributes.originalFilename)).toEqual(['shared.pdf']);
    const byParticipantEmail = await list('/api/documents/active?search=carol%40example');
    expect(byParticipantEmail.data.map((doc) => doc.attributes.originalFilename)).toEqual(['shared.pdf']);
  });

  it('sorts by created_at (desc by default, asc on request) and by autodeletion_at (asc by default)', async () => {
    await insertDocument(t.deps, {
      ownerId: ada.id,
      originalFilename: 'a.pdf',
      createdAt: new Date(start.getTime()),
      autodeletionAt: new Date(start.getTime() + 30 * DAY),
    });
    await insertDocument(t.deps, {
      ownerId: ada.id,
      originalFilename: 'b.pdf',
      createdAt: new Date(start.getTime() + DAY),
      autodeletionAt: new Date(start.getTime() + 10 * DAY),
    });
    await insertDocument(t.deps, {
      ownerId: ada.id,
      originalFilename: 'c.pdf',
      createdAt: new Date(start.getTime() + 2 * DAY),
      autodeletionAt: new Date(start.getTime() + 20 * DAY),
    });
    const names = (body: ListBody): string[] => body.data.map((doc) => doc.attributes.originalFilename);

    expect(names(await list('/api/documents/active'))).toEqual(['c.pdf', 'b.pdf', 'a.pdf']);
    expect(
      names(await list('/api/documents/active?sort%5Bcolumn%5D=created_at&sort%5Bdirection%5D=asc')),
    ).toEqual(['a.pdf', 'b.pdf', 'c.pdf']);
    const byDeletion = await list('/api/documents/active?sort%5Bcolumn%5D=autodeletion_at');
    expect(names(byDeletion)).toEqual(['b.pdf', 'c.pdf', 'a.pdf']);
    expect(byDeletion.links.self).toBe('/api/documents/active?sort%5Bcolumn%5D=autodeletion_at&page=1');
  });

  it('refuses an unknown sort column or a page below 1 with 400 naming the parameter', async () => {
    const badSort = await t.app.inject({
      url: '/api/documents/active?sort%5Bcolumn%5D=owner',
      headers: bearer(token),
    });
    expect(badSort.statusCode).toBe(400);
    expectMatchesContract('listActiveDocuments', 400, badSort.json());
    expect(badSort.json()).toMatchObject({ code: 'invalid_request', field: 'sort[column]' });
    const badPage = await t.app.inject({ url: '/api/documents/active?page=0', headers: bearer(token) });
    expect(badPage.statusCode).toBe(400);
    expect(badPage.json()).toMatchObject({ code: 'invalid_request', field: 'page' });
  });

  it("never lists someone else's documents, and lists those the caller takes part in", async () => {
    await insertDocument(t.deps, { ownerId: bob.id, originalFilename: 'bob-private.pdf' });
    const shared = await insertDocument(t.deps, {
      ownerId: bob.id,
      originalFilename: 'bob-shared.pdf',
      state: 'in_review',
    });
    await insertSignFlow(t.deps, shared, {
      state: 'in_review',
      participants: [{ role: 'reviewer', email: ada.email, userId: ada.id, state: 'pending' }],
    });
    await insertDocument(t.deps, { ownerId: ada.id, originalFilename: 'ada.pdf' });

    const body = await list('/api/documents/active');
    expect(body.data.map((doc) => doc.attributes.originalFilename).sort()).toEqual([
      'ada.pdf',
      'bob-shared.pdf',
    ]);
    const sharedDoc = body.data.find((doc) => doc.id === shared);
    expect(sharedDoc?.attributes).toMatchObject({
      isOwner: false,
      creatorFullName: 'Bob Baker',
      creatorEmailAddress: 'bob@example.test',
      isSignFlow: true,
      currentUserCanReview: true,
      currentUserCanDelete: false,
      reviewerCount: 1,
    });
  });

  it('GET /api/documents/{id}: attributes, signed links, and processing while images are pending', async () => {
    const id = await insertDocument(t.deps, {
      ownerId: ada.id,
      originalFilename: 'contract.pdf',
      fileSize: 1_572_864,
      pageCount: 2,
      imagesState: 'pending',
    });
    const pending = await t.app.inject({ url: `/api/documents/${id}`, headers: bearer(token) });
    expect(pending.statusCode).toBe(200);
    const pendingBody = pending.json<{ data: DocumentBody }>();
    expectMatchesContract('getDocument', 200, pendingBody);
    expect(pendingBody.data).toMatchObject({ id, type: 'documents' });
    expect(pendingBody.data.attributes).toMatchObject({
      originalFilename: 'contract.pdf',
      state: 'uploaded',
      fileSize: 1_572_864,
      humanFilesize: '1.5 MB',
      pageCount: 2,
      isOwner: true,
      isSignFlow: false,
      processing: true,
      publicImagesFileUrls: [],
      pdfDownloadUrl: null,
      currentUserCanCreateSignFlow: true,
      currentUserCanArchive: true,
      currentUserCanDelete: true,
      // The owner may sign a document without a flow themself.
      currentUserCanSign: true,
      currentUserArchived: false,
    });
    const pdfUrl = String(pendingBody.data.attributes.pdfUrl);
    expect(pdfUrl).toMatch(new RegExp(`^/storage/paraph/documents/${id}/original\\.pdf\\?`));
    expect(pdfUrl).toContain('X-Amz-Signature=');
    expect(pdfUrl).toContain('X-Amz-Expires=900');
    expect(pdfUrl).not.toContain(token);

    await t.deps.db
      .insertInto('document_pages')
      .values(
        [1, 2].map((page) => ({
          document_id: id,
          page_number: page,
          image_key: `documents/${id}/pages/${page}.png`,
          width: 1240,
          height: 1754,
        })),
      )
      .execute();
    await t.deps.db.updateTable('documents').set({ images_state: 'ready' }).where('id', '=', id).execute();
    const ready = (await t.app.inject({ url: `/api/documents/${id}`, headers: bearer(token) })).json<{
      data: DocumentBody;
    }>();
    expectMatchesContract('getDocument', 200, ready);
    expect(ready.data.attributes.processing).toBe(false);
    const images = ready.data.attributes.publicImagesFileUrls as string[];
    expect(images).toHaveLength(2);
    expect(images[0]).toMatch(new RegExp(`^/storage/paraph/documents/${id}/pages/1\\.png\\?`));
    expect(images[1]).toMatch(new RegExp(`^/storage/paraph/documents/${id}/pages/2\\.png\\?`));
  });

  it('offers pdfDownloadUrl only for a signed document, as an attachment named after the file', async () => {
    const id = await insertDocument(t.deps, {
      ownerId: ada.id,
      originalFilename: 'signed deal.pdf',
      state: 'signed',
    });
    const body = (await t.app.inject({ url: `/api/documents/${id}`, headers: bearer(token) })).json<{
      data: DocumentBody;
    }>();
    expectMatchesContract('getDocument', 200, body);
    const download = String(body.data.attributes.pdfDownloadUrl);
    expect(download).toContain('response-content-disposition=');
    expect(decodeURIComponent(download)).toContain('signed deal.pdf');
  });

  it("answers 404 not_found for someone else's document and for an unknown id alike", async () => {
    const bobs = await insertDocument(t.deps, { ownerId: bob.id, originalFilename: 'bob.pdf' });
    const other = await t.app.inject({ url: `/api/documents/${bobs}`, headers: bearer(token) });
    const unknown = await t.app.inject({ url: `/api/documents/${randomUUID()}`, headers: bearer(token) });
    // The contract accepts any id string, so a malformed id cannot be told apart from a missing one.
    const malformed = await t.app.inject({ url: '/api/documents/not-a-uuid', headers: bearer(token) });
    for (const response of [other, unknown, malformed]) {
      expect(response.statusCode).toBe(404);
      expectMatchesContract('getDocument', 404, response.json());
      expect(response.json()).toEqual({ code: 'not_found', message: 'Document not found.' });
    }
  });

  it('a participant invited by e-mail before linking an account can open the document', async () => {
    const id = await insertDocument(t.deps, { ownerId: bob.id, state: 'awaiting_signs' });
    await insertSignFlow(t.deps, id, {
      state: 'awaiting_signs',
      participants: [{ role: 'signatory', email: 'ADA@example.test', userId: null, state: 'pending' }],
    });
    const response = await t.app.inject({ url: `/api/documents/${id}`, headers: bearer(token) });
    expect(response.statusCode).toBe(200);
    expectMatchesContract('getDocument', 200, response.json());
    expect(response.json<{ data: DocumentBody }>().data.attributes).toMatchObject({
      currentUserCanSign: true,
      currentUserCanRefuse: true,
    });
  });

  it('archived documents leave the active list and appear in the archive', async () => {
    const kept = await insertDocument(t.deps, { ownerId: ada.id, originalFilename: 'kept.pdf' });
    const archived = await insertDocument(t.deps, { ownerId: ada.id, originalFilename: 'old.pdf' });
    await archiveFor(t.deps, archived, ada.id);
    const active = await list('/api/documents/active');
    expect(active.data.map((doc) => doc.id)).toEqual([kept]);
    const archive = await list('/api/documents/archived', 'listArchivedDocuments');
    expect(archive.data.map((doc) => doc.id)).toEqual([archived]);
    expect(archive.data[0]?.attributes).toMatchObject({
      currentUserArchived: true,
      currentUserCanArchive: false,
    });
    expect(archive.links.self).toBe('/api/documents/archived?page=1');
  });
});
