// A storage key takes one upload only: the presigned form replayed after its document exists, posted again
// to a key that already holds a file, posted for a key no upload request issued, or posted twice at once,
// is refused with 403 AccessDenied and stores nothing.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makePdf } from '../fixtures/pdfs.ts';
import {
  buildTestApp,
  expectMatchesContract,
  filesUnder,
  postCreateDocument,
  postUploadRequest,
  type TestApp,
} from './helpers.ts';
import { postStorageForm, storageFormFields, type UploadAttributes } from './storage-form.ts';

describe('one upload per storage key', () => {
  let t: TestApp;
  let token: string;
  let storageDir: string;

  beforeEach(async () => {
    t = await buildTestApp();
    const user = await t.createUser();
    token = await t.signIn(user.email);
    storageDir = path.join(t.config.dataDir, 'storage');
  });

  afterEach(async () => {
    await t.close();
  });

  async function requestUpload(): Promise<UploadAttributes> {
    return (await postUploadRequest(t, token)).data.attributes;
  }

  function postFile(upload: UploadAttributes, file: Buffer) {
    return postStorageForm(t.app, upload.url, [...storageFormFields(upload), ['file', file, 'a.pdf']]);
  }

  function expectKeyTaken(response: Awaited<ReturnType<typeof postFile>>): void {
    expect(response.statusCode, response.body).toBe(403);
    expect(response.headers['content-type']).toMatch(/^application\/xml/);
    expect(response.body).toContain('<Code>AccessDenied</Code>');
    expectMatchesContract('storagePost', 403, response.body);
  }

  it('refuses the form replayed after its document was created, and stores nothing', async () => {
    const upload = await requestUpload();
    expect((await postFile(upload, await makePdf())).statusCode).toBe(201);
    const created = await postCreateDocument(t, token, upload);
    expect(created.statusCode, created.body).toBe(201);
    const before = await filesUnder(storageDir);

    const replay = await postFile(upload, await makePdf({ pages: 2 }));

    expectKeyTaken(replay);
    expect(await filesUnder(storageDir)).toEqual(before);
    expect(before.some((file) => file.endsWith(upload.key.split('/').pop() ?? '-'))).toBe(false);
  });

  it('refuses a second upload to a key that already holds one, keeping the first', async () => {
    const upload = await requestUpload();
    const first = await makePdf();
    expect((await postFile(upload, first)).statusCode).toBe(201);

    const second = await postFile(upload, await makePdf({ pages: 3 }));

    expectKeyTaken(second);
    expect(await readFile(path.join(storageDir, 'paraph', ...upload.key.split('/')))).toEqual(first);
    expect(await filesUnder(path.join(storageDir, '.tmp'))).toEqual([]);
  });

  it('refuses a key no upload request issued, though the policy is signed', async () => {
    const upload = await requestUpload();
    await t.deps.db.deleteFrom('upload_requests').where('key', '=', upload.key).execute();

    expectKeyTaken(await postFile(upload, await makePdf()));
    expect(await filesUnder(storageDir)).toEqual([]);
  });

  it('stores exactly one of two uploads of one key posted at once', async () => {
    const upload = await requestUpload();
    const files = [await makePdf(), await makePdf({ pages: 2 })];

    const answers = await Promise.all(files.map((file) => postFile(upload, file)));

    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 403]);
    const stored = await readFile(path.join(storageDir, 'paraph', ...upload.key.split('/')));
    const winner = answers.findIndex((answer) => answer.statusCode === 201);
    expect(stored).toEqual(files[winner]);
    expect(await filesUnder(path.join(storageDir, '.tmp'))).toEqual([]);
  });
});
