// The cleanup job leaves nothing behind: the files of documents deleted by a process that died (or a store
// that failed) right after the commit, unused uploads once their grant and grace have passed, files posted
// again to a used key, and temporary files of interrupted uploads. Several runs at once are safe.
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Selectable } from 'kysely';
import { actionDb } from '../../server/documents/access.ts';
import { purgeDocument } from '../../server/documents/actions.ts';
import type { DocumentsTable } from '../../server/db/schema.ts';
import { CREATE_GRACE_MS, UPLOAD_TTL_SECONDS } from '../../server/handlers/uploads.ts';
import { runCleanup, STALE_TEMPORARY_FILE_MS } from '../../server/jobs/cleanup.ts';
import { isLocalStore } from '../../server/storage/routes.ts';
import { makePdf } from '../fixtures/pdfs.ts';
import {
  bearer,
  buildTestApp,
  insertDocument,
  filesUnder,
  postCreateDocument,
  postUploadRequest,
  type TestApp,
  type TestUser,
} from './helpers.ts';
import { postStorageForm, storageFormFields, type UploadAttributes } from './storage-form.ts';

const PAST_GRACE_MS = UPLOAD_TTL_SECONDS * 1000 + CREATE_GRACE_MS + 60_000;

describe('storage cleanup job', () => {
  let t: TestApp;
  let ada: TestUser;
  let adaToken: string;
  let clockOffsetMs = 0;
  let bucketDir: string;
  let tempDir: string;

  beforeEach(async () => {
    clockOffsetMs = 0;
    t = await buildTestApp({ clock: () => new Date(Date.now() + clockOffsetMs) });
    ada = await t.createUser({ email: 'ada@example.test' });
    adaToken = await t.signIn(ada.email);
    bucketDir = path.join(t.config.dataDir, 'storage', 'paraph');
    tempDir = path.join(t.config.dataDir, 'storage', '.tmp');
  });

  afterEach(async () => {
    await t.close();
  });

  // A document as signing leaves it: the original, two signed versions (the latest one named on the row)
  // and a page image per page, all under documents/<id>/.
  async function documentWithVersions(): Promise<{ id: string; keys: string[] }> {
    const id = await insertDocument(t.deps, { ownerId: ada.id, state: 'signed', pageCount: 2 });
    const signed = [randomUUID(), randomUUID()].map((version) => `documents/${id}/signed/${version}.pdf`);
    await t.deps.db
      .updateTable('documents')
      .set({ signed_file_key: signed[1] ?? null })
      .where('id', '=', id)
      .execute();
    const pages = [1, 2].map((page) => `documents/${id}/pages/${page}.png`);
    await t.deps.db
      .insertInto('document_pages')
      .values(
        pages.map((key, index) => ({
          document_id: id,
          page_number: index + 1,
          image_key: key,
          width: 1,
          height: 1,
        })),
      )
      .execute();
    const keys = [`documents/${id}/original.pdf`, ...signed, ...pages];
    for (const key of keys) await t.deps.store.put(key, Buffer.from(key), 'application/octet-stream');
    return { id, keys };
  }

  async function documentRow(id: string): Promise<Selectable<DocumentsTable>> {
    return t.deps.db.selectFrom('documents').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  async function pendingDeletions(): Promise<number> {
    const rows = await t.deps.db.selectFrom('pending_deletions').select('id').execute();
    return rows.length;
  }

  it('removes every file of a document whose delete committed but whose file removal never ran', async () => {
    const kept = await documentWithVersions();
    const deleted = await documentWithVersions();
    const row = await documentRow(deleted.id);

    // The process dies right after the commit: purgeDocument ran in its transaction, the removal did not.
    await t.deps.db.transaction().execute(async (trx) => {
      await purgeDocument(
        actionDb(trx),
        row,
        { actorId: ada.id, ip: null, userAgent: null, now: new Date() },
        'document.deleted',
      );
    });
    for (const key of deleted.keys) expect(await t.deps.store.exists(key)).toBe(true);

    const counts = await runCleanup(t.deps);

    expect(counts.deletions).toBeGreaterThanOrEqual(1);
    for (const key of deleted.keys) expect(await t.deps.store.exists(key), key).toBe(false);
    expect(await filesUnder(bucketDir)).toEqual(kept.keys.map((key) => path.join(...key.split('/'))).sort());
    expect(await pendingDeletions()).toBe(0);
  });

  it('retries a bulk delete whose file removal failed, until the store has them gone', async () => {
    const documents = await Promise.all([
      documentWithVersions(),
      documentWithVersions(),
      documentWithVersions(),
    ]);
    const store = t.deps.store;
    const realDeletePrefix = store.deletePrefix.bind(store);
    const realDelete = store.delete.bind(store);
    store.deletePrefix = () => Promise.reject(new Error('store unavailable'));
    store.delete = () => Promise.reject(new Error('store unavailable'));

    const response = await t.app.inject({
      method: 'DELETE',
      url: '/api/documents',
      headers: bearer(adaToken),
      payload: { id: documents.map((document) => document.id) },
    });
    expect(response.statusCode, response.body).toBe(204);
    expect(await filesUnder(bucketDir)).toHaveLength(documents.length * 5);
    expect(await pendingDeletions()).toBeGreaterThanOrEqual(documents.length);

    // Still failing: the job keeps the records for the next round.
    await runCleanup(t.deps);
    expect(await pendingDeletions()).toBeGreaterThanOrEqual(documents.length);

    store.deletePrefix = realDeletePrefix;
    store.delete = realDelete;
    await runCleanup(t.deps);

    expect(await filesUnder(bucketDir)).toEqual([]);
    expect(await pendingDeletions()).toBe(0);
  });

  it('removes the files at once after a delete that went well, leaving no record', async () => {
    const document = await documentWithVersions();

    const response = await t.app.inject({
      method: 'DELETE',
      url: `/api/documents/${document.id}`,
      headers: bearer(adaToken),
    });

    expect(response.statusCode, response.body).toBe(204);
    expect(await filesUnder(bucketDir)).toEqual([]);
    expect(await pendingDeletions()).toBe(0);
  });

  async function requestUpload(): Promise<UploadAttributes> {
    return (await postUploadRequest(t, adaToken)).data.attributes;
  }

  async function postFile(upload: UploadAttributes, bytes: Buffer) {
    return postStorageForm(t.app, upload.url, [...storageFormFields(upload), ['file', bytes, 'a.pdf']]);
  }

  async function uploadRows(): Promise<string[]> {
    const rows = await t.deps.db.selectFrom('upload_requests').select('key').execute();
    return rows.map((row) => row.key).sort();
  }

  it('removes an upload never turned into a document, object and row, once its grace has passed', async () => {
    const unused = await requestUpload();
    expect((await postFile(unused, await makePdf())).statusCode).toBe(201);
    const neverPosted = await requestUpload();

    // Within the grace createDocument allows, both stay.
    clockOffsetMs = UPLOAD_TTL_SECONDS * 1000 + CREATE_GRACE_MS - 60_000;
    await runCleanup(t.deps);
    expect(await t.deps.store.exists(unused.key)).toBe(true);
    expect(await uploadRows()).toEqual([unused.key, neverPosted.key].sort());

    clockOffsetMs = PAST_GRACE_MS;
    const counts = await runCleanup(t.deps);

    expect(counts.uploads).toBe(2);
    expect(await t.deps.store.exists(unused.key)).toBe(false);
    expect(await uploadRows()).toEqual([]);
    expect(await filesUnder(bucketDir)).toEqual([]);
  });

  it('removes what an S3 store let in under a used key, once its policy has expired', async () => {
    const upload = await requestUpload();
    expect((await postFile(upload, await makePdf())).statusCode).toBe(201);
    const created = await postCreateDocument(t, adaToken, upload);
    expect(created.statusCode, created.body).toBe(201);
    // An S3 store cannot refuse a replayed form before its policy expires: stand in for it.
    await t.deps.store.put(upload.key, await makePdf(), 'application/pdf');

    clockOffsetMs = PAST_GRACE_MS;
    await runCleanup(t.deps);

    expect(await t.deps.store.exists(upload.key)).toBe(false);
    expect(await uploadRows()).toEqual([]);
    const documentId = created.json<{ data: { id: string } }>().data.id;
    expect(await t.deps.store.exists(`documents/${documentId}/original.pdf`)).toBe(true);
  });

  it('removes temporary files an interrupted upload left, and leaves fresh ones alone', async () => {
    expect(isLocalStore(t.deps.store)).toBe(true);
    await mkdir(tempDir, { recursive: true });
    const stale = path.join(tempDir, randomUUID());
    const fresh = path.join(tempDir, randomUUID());
    await writeFile(stale, 'half an upload');
    await writeFile(fresh, 'an upload in progress');
    const longAgo = new Date(Date.now() - STALE_TEMPORARY_FILE_MS - 60_000);
    await utimes(stale, longAgo, longAgo);

    const counts = await runCleanup(t.deps);

    expect(counts.temporaryFiles).toBe(1);
    expect(await readdir(tempDir)).toEqual([path.basename(fresh)]);
  });

  it('removes a document file that createDocument stored but never committed, only after its guard', async () => {
    const upload = await requestUpload();
    expect((await postFile(upload, await makePdf())).statusCode).toBe(201);
    const store = t.deps.store;
    const documentKeys: string[] = [];
    const realPut = store.put.bind(store);
    store.put = async (key, body, contentType) => {
      await realPut(key, body, contentType);
      documentKeys.push(key);
      // The process dies between storing the document's copy and committing its row.
      throw new Error('killed');
    };
    const created = await postCreateDocument(t, adaToken, upload);
    expect(created.statusCode).toBe(500);
    store.put = realPut;
    const [orphan] = documentKeys;
    expect(orphan).toMatch(/^documents\/[0-9a-f-]+\/original\.pdf$/);

    // A transaction still running may yet keep the file: not yet.
    await runCleanup(t.deps);
    expect(await t.deps.store.exists(orphan ?? '')).toBe(true);

    clockOffsetMs = PAST_GRACE_MS + 60 * 60 * 1000;
    await runCleanup(t.deps);
    expect(await t.deps.store.exists(orphan ?? '')).toBe(false);
    expect(await pendingDeletions()).toBe(0);
  });

  it('keeps nothing of a committed document for the cleanup to remove', async () => {
    const upload = await requestUpload();
    expect((await postFile(upload, await makePdf())).statusCode).toBe(201);
    const created = await postCreateDocument(t, adaToken, upload);
    expect(created.statusCode, created.body).toBe(201);
    const documentId = created.json<{ data: { id: string } }>().data.id;

    clockOffsetMs = PAST_GRACE_MS + 60 * 60 * 1000;
    await runCleanup(t.deps);

    expect(await t.deps.store.exists(`documents/${documentId}/original.pdf`)).toBe(true);
    expect(await pendingDeletions()).toBe(0);
  });

  it('is safe when several runs overlap: everything due goes once, nothing else', async () => {
    const kept = await documentWithVersions();
    const deleted = await Promise.all([documentWithVersions(), documentWithVersions()]);
    for (const document of deleted) {
      const row = await documentRow(document.id);
      await t.deps.db.transaction().execute(async (trx) => {
        await purgeDocument(
          actionDb(trx),
          row,
          { actorId: null, ip: null, userAgent: null, now: new Date() },
          'document.autodeleted',
        );
      });
    }
    const unused = await requestUpload();
    expect((await postFile(unused, await makePdf())).statusCode).toBe(201);
    const stale = path.join(tempDir, randomUUID());
    await writeFile(stale, 'half an upload');
    const longAgo = new Date(Date.now() - STALE_TEMPORARY_FILE_MS - 60_000);
    await utimes(stale, longAgo, longAgo);
    clockOffsetMs = PAST_GRACE_MS;

    const runs = await Promise.all([runCleanup(t.deps), runCleanup(t.deps), runCleanup(t.deps)]);

    expect(runs.every((counts) => counts.uploads <= 1)).toBe(true);
    expect(await filesUnder(bucketDir)).toEqual(kept.keys.map((key) => path.join(...key.split('/'))).sort());
    expect(await readdir(tempDir)).toEqual([]);
    expect(await pendingDeletions()).toBe(0);
    expect(await uploadRows()).toEqual([]);
    expect((await documentRow(kept.id)).id).toBe(kept.id);
  });
});
