// Page images are drawn in the PDF sandbox with its limits lowered so that each breaks fast: a page that
// breaks one fails alone, the worker carries on, and the document says which pages are unavailable.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/schema';
import { UNAVAILABLE_PAGE_IMAGE_PATH } from '../../server/documents/serialize.ts';
import { queueRenderPages, runPendingImageJobs } from '../../server/images/worker.ts';
import { injectStreamLimit } from '../../server/pdf/stream-limit.ts';
import { makeInflateBombPdf, makePdf, makeSlowPagePdf, makeSoftMaskPdf } from '../fixtures/pdfs.ts';
import { bearer, buildTestApp, expectMatchesContract, insertDocument, type TestApp } from './helpers.ts';

type DocumentBody = components['schemas']['DocumentResponse'];

const MIB = 1024 * 1024;

let t: TestApp | null = null;

afterEach(async () => {
  await t?.close();
  t = null;
});

async function start(env: Record<string, string>): Promise<{ t: TestApp; token: string; ownerId: string }> {
  t = await buildTestApp({ env });
  const owner = await t.createUser({ email: 'ada@example.test' });
  return { t, token: await t.signIn(owner.email), ownerId: owner.id };
}

// A document as createDocument leaves it: its file stored, its images pending, its render job queued.
async function addDocument(app: TestApp, ownerId: string, pdf: Buffer, pageCount: number): Promise<string> {
  const id = await insertDocument(app.deps, { ownerId, imagesState: 'pending', pageCount });
  await app.deps.store.put(`documents/${id}/original.pdf`, pdf, 'application/pdf');
  await queueRenderPages(app.deps.db, id, app.deps.clock());
  return id;
}

async function getDocument(app: TestApp, token: string, id: string): Promise<DocumentBody['data']> {
  const response = await app.app.inject({ url: `/api/documents/${id}`, headers: bearer(token) });
  expect(response.statusCode).toBe(200);
  expectMatchesContract('getDocument', 200, response.json());
  return response.json<DocumentBody>().data;
}

async function renderedPages(app: TestApp, id: string): Promise<number[]> {
  const rows = await app.deps.db
    .selectFrom('document_pages')
    .select('page_number')
    .where('document_id', '=', id)
    .orderBy('page_number')
    .execute();
  return rows.map((row) => row.page_number);
}

describe('page rendering limits', () => {
  it('fails only the page whose stream inflates past the limit, and renders the next document', async () => {
    const { t: app, token, ownerId } = await start({ PARAPH_RENDER_MAX_STREAM_BYTES: String(MIB) });
    const bomb = await addDocument(
      app,
      ownerId,
      await makeInflateBombPdf({ pages: 3, page: 2, inflatedBytes: 16 * MIB }),
      3,
    );
    const next = await addDocument(app, ownerId, await makePdf({ pages: 2 }), 2);

    expect(await runPendingImageJobs(app.deps)).toBe(2);

    const attributes = (await getDocument(app, token, bomb)).attributes;
    expect(attributes).toMatchObject({ state: 'uploaded', processing: false, unavailablePages: [2] });
    expect(attributes.publicImagesFileUrls).toHaveLength(3);
    expect(attributes.publicImagesFileUrls[1]?.endsWith(UNAVAILABLE_PAGE_IMAGE_PATH)).toBe(true);
    expect(attributes.publicImagesFileUrls[0]).toContain(`/documents/${bomb}/pages/1.png`);
    expect(attributes.publicImagesFileUrls[2]).toContain(`/documents/${bomb}/pages/3.png`);
    expect(await renderedPages(app, bomb)).toEqual([1, 3]);

    const after = (await getDocument(app, token, next)).attributes;
    expect(after).toMatchObject({ processing: false, unavailablePages: [] });
    expect(after.publicImagesFileUrls).toHaveLength(2);
  });

  it('fails a page that outlives the time limit, and renders the others', async () => {
    const {
      t: app,
      token,
      ownerId,
    } = await start({
      PARAPH_RENDER_PAGE_TIMEOUT_MS: '1500',
      PARAPH_RENDER_MEMORY_MB: '4096',
      PARAPH_RENDER_MAX_STREAM_BYTES: String(1024 * MIB),
    });
    const id = await addDocument(
      app,
      ownerId,
      await makeSlowPagePdf({ pages: 3, page: 1, operations: 300_000 }),
      3,
    );

    await runPendingImageJobs(app.deps);

    const attributes = (await getDocument(app, token, id)).attributes;
    expect(attributes).toMatchObject({ state: 'uploaded', processing: false, unavailablePages: [1] });
    expect(await renderedPages(app, id)).toEqual([2, 3]);
    expect(app.logs()).toContain('"reason":"timeout"');
  });

  it('kills the sandbox over its memory cap: the page fails, and a document of no page is an error', async () => {
    const {
      t: app,
      token,
      ownerId,
    } = await start({
      PARAPH_RENDER_MEMORY_MB: '200',
      PARAPH_RENDER_MAX_STREAM_BYTES: String(1024 * MIB),
    });
    const id = await addDocument(app, ownerId, await makeSoftMaskPdf({ width: 8000, height: 6000 }), 1);
    const next = await addDocument(app, ownerId, await makePdf({ pages: 1 }), 1);

    expect(await runPendingImageJobs(app.deps)).toBe(2);

    expect((await getDocument(app, token, id)).attributes).toMatchObject({
      state: 'error',
      processing: false,
      publicImagesFileUrls: [],
    });
    expect(app.logs()).toContain('"reason":"memory"');
    expect((await getDocument(app, token, next)).attributes.publicImagesFileUrls).toHaveLength(1);
  });

  it('renders a few pages per turn, so a document queued after a long one is not held back', async () => {
    const { t: app, ownerId } = await start({});
    const long = await addDocument(app, ownerId, await makePdf({ pages: 12 }), 12);
    const short = await addDocument(app, ownerId, await makePdf({ pages: 1 }), 1);
    const written: string[] = [];
    const put = app.deps.store.put.bind(app.deps.store);
    app.deps.store.put = async (key, body, contentType) => {
      written.push(key);
      return put(key, body, contentType);
    };

    expect(await runPendingImageJobs(app.deps)).toBe(2);

    const shortAt = written.indexOf(`documents/${short}/pages/1.png`);
    const longLastAt = written.indexOf(`documents/${long}/pages/12.png`);
    expect(shortAt).toBeGreaterThan(-1);
    expect(shortAt).toBeLessThan(longLastAt);
    expect(await renderedPages(app, long)).toEqual(Array.from({ length: 12 }, (_, index) => index + 1));
  });

  it('stops a render when its document is deleted, leaving no page behind', async () => {
    const { t: app, token, ownerId } = await start({});
    const id = await addDocument(app, ownerId, await makePdf({ pages: 4 }), 4);
    const put = app.deps.store.put.bind(app.deps.store);
    let deleted = false;
    app.deps.store.put = async (key, body, contentType) => {
      await put(key, body, contentType);
      // The owner deletes the document while its second page is being written.
      if (key.endsWith('/pages/2.png') && !deleted) {
        deleted = true;
        const response = await app.app.inject({
          method: 'DELETE',
          url: `/api/documents/${id}`,
          headers: bearer(token),
        });
        expect(response.statusCode).toBeLessThan(300);
      }
    };

    await runPendingImageJobs(app.deps);

    expect(deleted).toBe(true);
    const pagesDir = path.join(app.config.dataDir, 'storage', 'paraph', 'documents', id, 'pages');
    const left = await readdir(pagesDir).catch(() => []);
    expect(left).toEqual([]);
    expect(await app.deps.db.selectFrom('jobs').select('id').where('document_id', '=', id).execute()).toEqual(
      [],
    );
  });

  it('refuses to patch a pdfjs whose stream decoder has moved', () => {
    expect(() => injectStreamLimit('class DecodeStream { ensureBuffer(size) { return size; } }')).toThrow(
      /ensureBuffer was not found/,
    );
  });
});
