// Upload end to end through the API: upload request, the storage POST, createDocument re-reading the
// bytes (a refused file leaves no document and no stored object), then page images from the worker.
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/schema';
import { MAX_RENDER_ATTEMPTS, runPendingImageJobs } from '../../server/images/worker.ts';
import { makeEncryptedPdf, makeNotPdf, makePdf } from '../fixtures/pdfs.ts';
import {
  bearer,
  buildTestApp,
  expectMatchesContract,
  postUploadRequest,
  type TestApp,
  type TestUser,
} from './helpers.ts';
import { postStorageForm, storageFormFields, type UploadAttributes } from './storage-form.ts';

type DocumentBody = components['schemas']['DocumentResponse'];
type ErrorBody = components['schemas']['Error'];

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)));
}

describe('upload', () => {
  let t: TestApp;
  let ada: TestUser;
  let adaToken: string;
  let clockOffsetMs = 0;
  let bucketDir: string;

  beforeEach(async () => {
    clockOffsetMs = 0;
    t = await buildTestApp({ clock: () => new Date(Date.now() + clockOffsetMs) });
    ada = await t.createUser({ email: 'ada@example.test', fullName: 'Ada Lovelace' });
    adaToken = await t.signIn(ada.email);
    bucketDir = path.join(t.config.dataDir, 'storage', 'paraph');
  });

  afterEach(async () => {
    await t.close();
  });

  async function requestUpload(token = adaToken): Promise<UploadAttributes> {
    const body = await postUploadRequest(t, token);
    expectMatchesContract('createUploadRequest', 201, body);
    return body.data.attributes;
  }

  async function uploadToStorage(bytes: Buffer, token = adaToken): Promise<UploadAttributes> {
    const upload = await requestUpload(token);
    const response = await postStorageForm(t.app, upload.url, [
      ...storageFormFields(upload),
      ['file', bytes, 'upload.pdf'],
    ]);
    expect(response.statusCode).toBe(201);
    return upload;
  }

  function createDocument(
    upload: { key: string; url?: string },
    originalFilename = 'Contract.pdf',
    token = adaToken,
  ) {
    return t.app.inject({
      method: 'POST',
      url: '/api/documents',
      headers: bearer(token),
      payload: {
        original_filename: originalFilename,
        file_url: `${upload.url ?? '/storage/paraph'}/${upload.key}`,
        filename: upload.key,
      },
    });
  }

  async function documentCount(): Promise<number> {
    const rows = await t.deps.db.selectFrom('documents').select('id').execute();
    return rows.length;
  }

  it('issues presigned POST fields for one key, valid 15 minutes, up to the size limit', async () => {
    const upload = await requestUpload();

    expect(upload.url).toBe('/storage/paraph');
    expect(upload.key).toMatch(new RegExp(`^uploads/${ada.id}/[0-9a-f-]{36}\\.pdf$`));
    expect(upload).toMatchObject({
      acl: 'private',
      successActionStatus: '201',
      xAmzAlgorithm: 'AWS4-HMAC-SHA256',
    });
    // The limit the browser checks before posting is the one the policy enforces.
    expect(upload.maxFileSize).toBe(t.config.maxUploadBytes);
    const policy = JSON.parse(Buffer.from(upload.policy, 'base64').toString('utf8')) as {
      expiration: string;
      conditions: unknown[];
    };
    const validFor = new Date(policy.expiration).getTime() - Date.now();
    expect(validFor).toBeGreaterThan(14 * 60 * 1000);
    expect(validFor).toBeLessThanOrEqual(15 * 60 * 1000);
    expect(policy.conditions).toContainEqual(['content-length-range', 1, t.config.maxUploadBytes]);
    expect(policy.conditions).toContainEqual(['eq', '$key', upload.key]);
    const row = await t.deps.db
      .selectFrom('upload_requests')
      .selectAll()
      .where('key', '=', upload.key)
      .executeTakeFirstOrThrow();
    expect(row.user_id).toBe(ada.id);
    expect(row.consumed_at).toBeNull();
  });

  it('reports the configured size limit, not a fixed one, as maxFileSize', async () => {
    const small = await buildTestApp({ env: { PARAPH_MAX_UPLOAD_BYTES: '1000' } });
    try {
      const user = await small.createUser();
      const body = await postUploadRequest(small, await small.signIn(user.email));
      expectMatchesContract('createUploadRequest', 201, body);
      expect(body.data.attributes.maxFileSize).toBe(1000);
    } finally {
      await small.close();
    }
  });

  it('refuses an upload request without a token', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/upload_requests' });

    expect(response.statusCode).toBe(401);
    expectMatchesContract('createUploadRequest', 401, response.json());
  });

  it('turns a valid PDF into a document with an audit entry, keeping only its own copy', async () => {
    const pdf = await makePdf({ pages: 2, text: 'Contract' });
    const upload = await uploadToStorage(pdf);

    const response = await createDocument(upload, '  C:\\Users\\ada\\Contract 2024.pdf  ');

    expect(response.statusCode).toBe(201);
    const body = response.json<DocumentBody>();
    expectMatchesContract('createDocument', 201, body);
    const documentId = body.data.id;
    expect(body.data.attributes).toMatchObject({
      originalFilename: 'Contract 2024.pdf',
      state: 'uploaded',
      processing: true,
      publicImagesFileUrls: [],
      fileSize: pdf.length,
      pageCount: 2,
      isOwner: true,
    });

    const sha256 = createHash('sha256').update(pdf).digest('hex');
    const audit = await t.deps.db
      .selectFrom('audit_events')
      .selectAll()
      .where('document_id', '=', documentId)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'document.uploaded',
      actor_id: ada.id,
      sha256_after: sha256,
      sha256_before: null,
    });

    // The upload key is used up and its object gone; the document's copy is what pdfUrl serves.
    expect(await filesUnder(bucketDir)).toEqual([`documents/${documentId}/original.pdf`]);
    const used = await t.deps.db
      .selectFrom('upload_requests')
      .select('consumed_at')
      .where('key', '=', upload.key)
      .executeTakeFirstOrThrow();
    expect(used.consumed_at).not.toBeNull();
    const pdfUrl = body.data.attributes.pdfUrl;
    expect(pdfUrl).not.toBeNull();
    const file = await t.app.inject({ method: 'GET', url: pdfUrl ?? '' });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload).toEqual(pdf);
  });

  it('accepts a key once: a second createDocument is a conflict and creates nothing', async () => {
    const upload = await uploadToStorage(await makePdf());
    expect((await createDocument(upload)).statusCode).toBe(201);

    const again = await createDocument(upload);

    expect(again.statusCode).toBe(409);
    expectMatchesContract('createDocument', 409, again.json());
    expect(again.json<ErrorBody>().code).toBe('upload_already_used');
    expect(await documentCount()).toBe(1);
  });

  const refusals: Array<[label: string, make: () => Promise<Buffer> | Buffer, code: string]> = [
    ['a file that is not a PDF', makeNotPdf, 'not_a_pdf'],
    [
      'a file with a PDF header that does not parse',
      () => Buffer.from('%PDF-1.7\n1 0 obj garbage\n%%EOF\n'),
      'not_a_pdf',
    ],
    ['an encrypted PDF', makeEncryptedPdf, 'encrypted_pdf'],
  ];
  for (const [label, make, code] of refusals) {
    it(`refuses ${label} with 422 ${code} and keeps nothing`, async () => {
      const upload = await uploadToStorage(await make());
      expect(await filesUnder(bucketDir)).toEqual([upload.key]);

      const response = await createDocument(upload);

      expect(response.statusCode).toBe(422);
      expectMatchesContract('createDocument', 422, response.json());
      expect(response.json<ErrorBody>().code).toBe(code);
      expect(await documentCount()).toBe(0);
      expect(await filesUnder(bucketDir)).toEqual([]);
      expect(await t.deps.db.selectFrom('jobs').select('id').execute()).toEqual([]);
      expect(await t.deps.db.selectFrom('audit_events').select('id').execute()).toEqual([]);
    });
  }

  // The storage POST refuses empty files itself; this is the second line, for bytes put there otherwise.
  it('refuses an empty stored file with 422 empty_file and keeps nothing', async () => {
    const upload = await requestUpload();
    await t.deps.store.put(upload.key, Buffer.alloc(0), 'application/pdf');

    const response = await createDocument(upload);

    expect(response.statusCode).toBe(422);
    expect(response.json<ErrorBody>().code).toBe('empty_file');
    expect(await documentCount()).toBe(0);
    expect(await t.deps.store.exists(upload.key)).toBe(false);
  });

  it('refuses a key issued to someone else, and leaves their upload alone', async () => {
    const bob = await t.createUser({ email: 'bob@example.test' });
    const bobToken = await t.signIn(bob.email);
    const bobsUpload = await uploadToStorage(await makePdf(), bobToken);

    const response = await createDocument(bobsUpload);

    expect(response.statusCode).toBe(422);
    expectMatchesContract('createDocument', 422, response.json());
    expect(response.json<ErrorBody>().code).toBe('upload_not_found');
    expect(await documentCount()).toBe(0);
    expect(await t.deps.store.exists(bobsUpload.key)).toBe(true);
    expect((await createDocument(bobsUpload, 'Mine.pdf', bobToken)).statusCode).toBe(201);
  });

  it('refuses a key that was never issued', async () => {
    const response = await createDocument({
      key: `uploads/${ada.id}/55555555-5555-4555-8555-555555555555.pdf`,
    });

    expect(response.statusCode).toBe(422);
    expect(response.json<ErrorBody>().code).toBe('upload_not_found');
  });

  it('refuses an issued key with nothing uploaded under it', async () => {
    const upload = await requestUpload();

    const response = await createDocument(upload);

    expect(response.statusCode).toBe(422);
    expect(response.json<ErrorBody>().code).toBe('upload_missing');
    expect(await documentCount()).toBe(0);
  });

  it('refuses an upload request long expired', async () => {
    const upload = await uploadToStorage(await makePdf());
    clockOffsetMs = 2 * 60 * 60 * 1000;

    const response = await createDocument(upload);

    expect(response.statusCode).toBe(422);
    expect(response.json<ErrorBody>().code).toBe('upload_expired');
    expect(await documentCount()).toBe(0);
  });

  for (const name of ['   ', 'folder/', 'C:\\']) {
    it(`answers 400 naming original_filename for ${JSON.stringify(name)}`, async () => {
      const upload = await uploadToStorage(await makePdf());

      const response = await createDocument(upload, name);

      expect(response.statusCode).toBe(400);
      expectMatchesContract('createDocument', 400, response.json());
      expect(response.json<ErrorBody>()).toMatchObject({
        code: 'invalid_request',
        field: 'original_filename',
      });
      expect(await documentCount()).toBe(0);
    });
  }

  it('answers 400 naming original_filename when it is longer than 255 characters', async () => {
    const upload = await uploadToStorage(await makePdf());

    const response = await createDocument(upload, `${'a'.repeat(256)}.pdf`);

    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>().field).toBe('original_filename');
  });

  describe('page images', () => {
    async function getDocument(id: string): Promise<DocumentBody> {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/documents/${id}`,
        headers: bearer(adaToken),
      });
      expect(response.statusCode).toBe(200);
      expectMatchesContract('getDocument', 200, response.json());
      return response.json<DocumentBody>();
    }

    it('renders every page, after which the document is no longer processing', async () => {
      const upload = await uploadToStorage(await makePdf({ pages: 2, text: 'Pages' }));
      const created = await createDocument(upload);
      const documentId = created.json<DocumentBody>().data.id;

      expect(await runPendingImageJobs(t.deps)).toBe(1);

      const { data } = await getDocument(documentId);
      expect(data.attributes.processing).toBe(false);
      expect(data.attributes.publicImagesFileUrls).toHaveLength(2);
      for (const url of data.attributes.publicImagesFileUrls) {
        const image = await t.app.inject({ method: 'GET', url });
        expect(image.statusCode).toBe(200);
        expect(image.headers['content-type']).toBe('image/png');
        expect(image.rawPayload.subarray(0, 8)).toEqual(
          Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
        );
      }
      const pages = await t.deps.db
        .selectFrom('document_pages')
        .selectAll()
        .where('document_id', '=', documentId)
        .orderBy('page_number')
        .execute();
      expect(pages.map((page) => page.page_number)).toEqual([1, 2]);
      // An A4 page at about 110 dpi.
      expect(pages[0]?.width).toBeGreaterThan(850);
      expect(pages[0]?.width).toBeLessThanOrEqual(1240);
      expect(await runPendingImageJobs(t.deps)).toBe(0);
    });

    it('hands each job to one runner only when several poll at once', async () => {
      const upload = await uploadToStorage(await makePdf({ pages: 1 }));
      const documentId = (await createDocument(upload)).json<DocumentBody>().data.id;

      const counts = await Promise.all([
        runPendingImageJobs(t.deps),
        runPendingImageJobs(t.deps),
        runPendingImageJobs(t.deps),
      ]);

      expect(counts.reduce((sum, count) => sum + count, 0)).toBe(1);
      const pages = await t.deps.db
        .selectFrom('document_pages')
        .select('page_number')
        .where('document_id', '=', documentId)
        .execute();
      expect(pages).toHaveLength(1);
    });

    it('retries a failed render, then marks the document as an error after the last attempt', async () => {
      const upload = await uploadToStorage(await makePdf({ pages: 1 }));
      const documentId = (await createDocument(upload)).json<DocumentBody>().data.id;
      // The document's file disappears: rendering cannot succeed however often it is tried.
      await t.deps.store.delete(`documents/${documentId}/original.pdf`);

      for (let attempt = 1; attempt <= MAX_RENDER_ATTEMPTS; attempt += 1) {
        expect(await runPendingImageJobs(t.deps)).toBe(1);
        // A retry waits its turn: nothing is due until the clock moves on.
        expect(await runPendingImageJobs(t.deps)).toBe(0);
        clockOffsetMs += 10 * 60 * 1000;
      }

      const job = await t.deps.db
        .selectFrom('jobs')
        .selectAll()
        .where('document_id', '=', documentId)
        .executeTakeFirstOrThrow();
      expect(job).toMatchObject({ state: 'failed', attempts: MAX_RENDER_ATTEMPTS });
      expect(job.last_error).toContain('original.pdf');
      const { data } = await getDocument(documentId);
      expect(data.attributes).toMatchObject({ state: 'error', processing: false, publicImagesFileUrls: [] });
      const actions = await t.deps.db
        .selectFrom('audit_events')
        .select('action')
        .where('document_id', '=', documentId)
        .execute();
      expect(actions.map((row) => row.action)).toEqual(['document.uploaded', 'document.rendering_failed']);
      expect(await runPendingImageJobs(t.deps)).toBe(0);
    });
  });
});
