// Odd PDFs through the app itself: the storage POST, createDocument (the upload check in the PDF sandbox),
// the page images (the render worker and its sandbox), and the owner's own signature (the sign request,
// its confirmation, the real signer), each result checked by pdfsig. A PDF the app cannot sign validly is
// refused at upload with a reason; a document whose page tree claims pages it does not hold, and a font
// name pdf.js hands the canvas with a NUL in it, no longer keep a document `processing` or fail its page.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/schema';
import { confirmDocumentVersion } from '../../server/documents/signing-confirm.ts';
import { queueRenderPages, runPendingImageJobs } from '../../server/images/worker.ts';
import {
  brokenXrefPdf,
  disposeElsewhereSigner,
  freeListPdf,
  garbageObjectPdf,
  hugeObjectNumbersPdf,
  junkAroundPdf,
  nulFontNamePdf,
  phantomPagesPdf,
  signElsewhere,
  unreadablePageContentPdf,
  untypedCatalogPdf,
  untypedPageTreeNodesPdf,
  untypedPagesRootPdf,
  wrongCountPdf,
  wrongParentPdf,
  xrefStreamPdf,
} from '../fixtures/odd-pdfs.ts';
import {
  bearer,
  buildTestApp,
  expectMatchesContract,
  insertDocument,
  postUploadRequest,
  type TestApp,
  type TestUser,
} from './helpers.ts';
import { parsePdfsigReport } from './pdf-signatures.ts';
import { cardFor, requestSignature, SOLO_PLACEMENT } from './signing-support.ts';
import { postStorageForm, storageFormFields } from './storage-form.ts';

type DocumentBody = components['schemas']['DocumentResponse'];
type ErrorBody = components['schemas']['Error'];

const run = promisify(execFile);

let t: TestApp;
let ada: TestUser;
let token: string;
let card: string;
let fileCounter = 0;

beforeAll(async () => {
  t = await buildTestApp({ env: { PARAPH_UPLOAD_GRANTS_PER_MINUTE: '1000' } });
  ada = await t.createUser({ email: 'ada@example.test', fullName: 'Ada Lovelace' });
  token = await t.signIn(ada.email);
  card = await cardFor(t.deps, ada.id);
});

afterAll(async () => {
  await disposeElsewhereSigner();
  await t.close();
});

async function upload(pdf: Buffer) {
  const { attributes } = (await postUploadRequest(t, token)).data;
  const stored = await postStorageForm(t.app, attributes.url, [
    ...storageFormFields(attributes),
    ['file', pdf, 'upload.pdf'],
  ]);
  expect(stored.statusCode).toBe(201);
  return t.app.inject({
    method: 'POST',
    url: '/api/documents',
    headers: bearer(token),
    payload: {
      original_filename: 'Odd.pdf',
      file_url: `/storage/paraph/${attributes.key}`,
      filename: attributes.key,
    },
  });
}

async function getDocument(id: string): Promise<DocumentBody['data']['attributes']> {
  const response = await t.app.inject({ url: `/api/documents/${id}`, headers: bearer(token) });
  expect(response.statusCode).toBe(200);
  expectMatchesContract('getDocument', 200, response.json());
  return response.json<DocumentBody>().data.attributes;
}

async function pdfsigValid(pdf: Buffer): Promise<boolean[]> {
  fileCounter += 1;
  const file = path.join(t.config.dataDir, `odd-${fileCounter}.pdf`);
  await writeFile(file, pdf);
  let report: string;
  try {
    report = (await run('pdfsig', [file])).stdout;
  } catch (error) {
    // pdfsig exits non-zero when a signature does not verify; its report is what the test reads.
    report = String((error as { stdout?: unknown }).stdout ?? '');
  }
  return parsePdfsigReport(report).map((signature) => signature.isValid);
}

describe('odd PDFs uploaded, shown and signed through the app', () => {
  it.each([
    { name: 'junk before %PDF and after %%EOF', make: junkAroundPdf, pages: 2 },
    { name: 'a /Pages root without /Type', make: untypedPagesRootPdf, pages: 2 },
    { name: 'a catalog without /Type', make: untypedCatalogPdf, pages: 2 },
    { name: 'Pages nodes and pages without /Type', make: untypedPageTreeNodesPdf, pages: 3 },
    { name: '/Parent entries pointing at the catalog', make: wrongParentPdf, pages: 2 },
    { name: 'an unreadable object nothing uses', make: garbageObjectPdf, pages: 2 },
    { name: 'a table whose offsets are a few bytes off', make: brokenXrefPdf, pages: 2 },
    { name: 'a free list and generations above 0', make: freeListPdf, pages: 2 },
    { name: 'a stray object 2147483647', make: () => hugeObjectNumbersPdf(), pages: 2 },
    {
      name: 'a cross-reference stream signed elsewhere',
      make: () => signElsewhere({ base: xrefStreamPdf(), xref: 'stream' }),
      pages: 2,
      signedBefore: 1,
    },
  ])('$name', async ({ make, pages, signedBefore = 0 }) => {
    const created = await upload(await make());
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json<DocumentBody>().data;

    await runPendingImageJobs(t.deps);
    const shown = await getDocument(id);
    expect(shown).toMatchObject({
      pageCount: pages,
      processing: false,
      state: 'uploaded',
      unavailablePages: [],
    });
    expect(shown.publicImagesFileUrls).toHaveLength(pages);

    const versionId = await requestSignature(t, token, id, {
      smart_card_id: card,
      location: 'London',
      ...SOLO_PLACEMENT,
    });
    const input = { versionId, userId: ada.id, ip: '192.0.2.7', userAgent: 'odd pdfs' };
    expect(await confirmDocumentVersion(t.deps, input)).toEqual({ outcome: 'signed' });
    const row = await t.deps.db
      .selectFrom('documents')
      .select('signed_file_key')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const signed = await t.deps.store.getBuffer(row.signed_file_key ?? '');
    expect(await pdfsigValid(signed)).toEqual(Array<boolean>(signedBefore + 1).fill(true));
  });

  it.each([
    { name: 'a /Count that is not the number of pages', make: wrongCountPdf, reason: 'page count' },
    { name: 'a page whose content cannot be read', make: unreadablePageContentPdf, reason: 'page 2' },
    {
      name: 'a signed file whose earlier table is damaged',
      make: () => signElsewhere({ base: brokenXrefPdf(), xref: 'table' }),
      reason: 'already signed',
    },
  ])('refuses $name at upload, saying why', async ({ make, reason }) => {
    const response = await upload(await make());
    expect(response.statusCode).toBe(422);
    expectMatchesContract('createDocument', 422, response.json());
    const error = response.json<ErrorBody>();
    expect(error.code).toBe('not_a_pdf');
    expect(error.message).toContain('The PDF is damaged and cannot be signed');
    expect(error.message).toContain(reason);
  });
});

describe('page images of odd PDFs', () => {
  // As createDocument leaves a document, without its check: rows made before it, or by other means.
  async function stored(pdf: Buffer, pageCount: number): Promise<string> {
    const id = await insertDocument(t.deps, { ownerId: ada.id, imagesState: 'pending', pageCount });
    await t.deps.store.put(`documents/${id}/original.pdf`, pdf, 'application/pdf');
    await queueRenderPages(t.deps.db, id, t.deps.clock());
    return id;
  }

  it('ends a document whose page tree claims 100000 pages as an error, at once', async () => {
    const id = await stored(phantomPagesPdf(), 3);
    // One poll ends it (before, the worker walked the phantom pages five at a time for hours).
    await runPendingImageJobs(t.deps);
    expect(await getDocument(id)).toMatchObject({ state: 'error', processing: false });
    const job = await t.deps.db
      .selectFrom('jobs')
      .select(['state', 'last_error'])
      .where('document_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(job.state).toBe('failed');
    expect(job.last_error).toContain('claims 100000 pages');
  });

  it('draws a page whose font name holds a NUL', async () => {
    const created = await upload(nulFontNamePdf());
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json<DocumentBody>().data;
    await runPendingImageJobs(t.deps);
    expect(await getDocument(id)).toMatchObject({
      processing: false,
      state: 'uploaded',
      unavailablePages: [],
    });
  });
});
