// PARAPH_MAX_PAGES: a PDF of more pages is refused at createDocument, and nothing of it is kept.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/schema';
import { makePdf } from '../fixtures/pdfs.ts';
import { bearer, buildTestApp, expectMatchesContract, postUploadRequest, type TestApp } from './helpers.ts';
import { postStorageForm, storageFormFields } from './storage-form.ts';

type ErrorBody = components['schemas']['Error'];

describe('maximum page count', () => {
  let t: TestApp;
  let token: string;

  beforeEach(async () => {
    t = await buildTestApp({ env: { PARAPH_MAX_PAGES: '3' } });
    const ada = await t.createUser({ email: 'ada@example.test' });
    token = await t.signIn(ada.email);
  });

  afterEach(async () => {
    await t.close();
  });

  async function upload(pdf: Buffer): Promise<string> {
    const { attributes } = (await postUploadRequest(t, token)).data;
    const stored = await postStorageForm(t.app, attributes.url, [
      ...storageFormFields(attributes),
      ['file', pdf, 'upload.pdf'],
    ]);
    expect(stored.statusCode).toBe(201);
    return attributes.key;
  }

  function createDocument(key: string) {
    return t.app.inject({
      method: 'POST',
      url: '/api/documents',
      headers: bearer(token),
      payload: { original_filename: 'Long.pdf', file_url: `/storage/paraph/${key}`, filename: key },
    });
  }

  async function storedFiles(): Promise<string[]> {
    const folder = path.join(t.config.dataDir, 'storage', 'paraph');
    const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
    return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
  }

  it('refuses a PDF over the limit with 422 too_many_pages and keeps nothing', async () => {
    const key = await upload(await makePdf({ pages: 4 }));

    const response = await createDocument(key);

    expect(response.statusCode).toBe(422);
    expectMatchesContract('createDocument', 422, response.json());
    expect(response.json<ErrorBody>()).toMatchObject({ code: 'too_many_pages' });
    expect(await t.deps.db.selectFrom('documents').select('id').execute()).toEqual([]);
    expect(await t.deps.db.selectFrom('jobs').select('id').execute()).toEqual([]);
    expect(await storedFiles()).toEqual([]);
    // The key is spent: the same upload cannot be offered again.
    expect((await createDocument(key)).statusCode).toBe(409);
  });

  it('accepts a PDF at the limit', async () => {
    const response = await createDocument(await upload(await makePdf({ pages: 3 })));

    expect(response.statusCode).toBe(201);
  });
});
